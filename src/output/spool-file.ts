import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { throwIfAborted } from "../errors.js";
import { FLUSH_AT } from "./chunk-writer.js";
import { writeChunk } from "./io.js";

// Where csv and xlsx rows wait for their header (tabular-writer.ts): text appended in
// memory up to 64 KiB, then to a file in a private (0700) temp dir, read back in order as
// bytes once, and removed. What the text is (JSON rows, CSV rows) is the writer's business.

export class SpoolFile {
  private file: { dir: string; path: string; stream: WriteStream } | undefined;
  private buffer = "";

  constructor(
    /** Parent of the private directory; default the OS temp dir. */
    private readonly parent: string | undefined,
    /** Ctrl-C: appending and reading back stop at the next chunk. */
    private readonly signal: AbortSignal | undefined,
    /** The file's name in the private directory. */
    private readonly name: string,
  ) {}

  /** Adds text without waiting; true when 64 KiB or more wait in memory: then flush(). */
  add(text: string): boolean {
    this.buffer += text;
    return this.buffer.length >= FLUSH_AT;
  }

  private async open(): Promise<NonNullable<SpoolFile["file"]>> {
    if (this.file) return this.file;
    // mkdtemp creates the directory 0700: other local users cannot read the report rows.
    const dir = await mkdtemp(join(this.parent ?? tmpdir(), "simadmin-spool-"));
    const path = join(dir, this.name);
    const stream = createWriteStream(path, { mode: 0o600, flags: "wx" });
    this.file = { dir, path, stream };
    return this.file;
  }

  /** Writes what waits in memory to the file (where Ctrl-C is heard). */
  async flush(): Promise<void> {
    throwIfAborted(this.signal);
    // Stryker disable next-line ConditionalExpression,StringLiteral: writing "" to the spool changes nothing; the check saves opening one for nothing.
    if (this.buffer === "") return;
    const file = await this.open();
    const text = this.buffer;
    this.buffer = "";
    await writeChunk(file.stream, text);
  }

  /** Everything appended, in order, in chunks of up to 64 KiB (a small spool never touched the disk). */
  async *chunks(): AsyncGenerator<Buffer> {
    if (!this.file) {
      if (this.buffer !== "") yield Buffer.from(this.buffer, "utf8");
      return;
    }
    await this.flush();
    const { stream, path } = this.file;
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    for await (const chunk of createReadStream(path, { highWaterMark: FLUSH_AT }) as AsyncIterable<Buffer>) {
      throwIfAborted(this.signal);
      yield chunk;
    }
  }

  /** Frees the text held in memory and removes the file. Safe to call twice. */
  async remove(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    // Stryker disable next-line StringLiteral: frees the rows held in memory; nothing reads them after end() or abort().
    this.buffer = "";
    if (!file) return;
    file.stream.destroy();
    // Stryker disable next-line BooleanLiteral: force only matters if the private dir vanished under us.
    await rm(file.dir, { recursive: true, force: true });
  }
}
