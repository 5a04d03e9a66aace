import { throwIfAborted } from "../errors.js";
import type { ChunkSink } from "./record-types.js";
import { escapeControlChars } from "../text/sanitize.js";

/** How much text is gathered before one write (and how much of a spool is read at a time). */
export const FLUSH_AT = 64 * 1024;

/**
 * Collects small pieces into ~64 KiB writes; escapes control characters for a terminal, and
 * with `escape` whatever else the writer leaves to be done once per write (json-text.ts's escapeC1).
 */
export class BufferedChunkWriter {
  private buffer = "";

  constructor(
    private readonly sink: ChunkSink,
    private readonly signal?: AbortSignal,
    private readonly escape?: (text: string) => string,
  ) {}

  async write(text: string): Promise<void> {
    if (this.add(text)) await this.flush();
  }

  /** Adds without waiting; true when the buffer is full and should be flushed. */
  add(text: string): boolean {
    this.buffer += text;
    return this.buffer.length >= FLUSH_AT;
  }

  async flush(): Promise<void> {
    throwIfAborted(this.signal);
    if (this.buffer === "") return;
    const escaped = this.escape ? this.escape(this.buffer) : this.buffer;
    const text = this.sink.toTerminal ? escapeControlChars(escaped) : escaped;
    this.buffer = "";
    await this.sink.write(text);
  }
}
