import { throwIfAborted } from "../errors.js";
import type { ChunkSink } from "./record-types.js";
import { escapeControlChars } from "./sanitize.js";

/** How much text is gathered before one write (and how much of a spool is read at a time). */
export const FLUSH_AT = 64 * 1024;

/** Collects small pieces into ~64 KiB writes; escapes control characters for a terminal. */
export class BufferedChunkWriter {
  private buffer = "";

  constructor(
    private readonly sink: ChunkSink,
    private readonly signal?: AbortSignal,
  ) {}

  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    throwIfAborted(this.signal);
    if (this.buffer === "") return;
    const text = this.sink.toTerminal ? escapeControlChars(this.buffer) : this.buffer;
    this.buffer = "";
    await this.sink.write(text);
  }
}
