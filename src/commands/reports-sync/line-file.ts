import { closeSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { LocalFileError } from "../../errors.js";

// The load files of `reports sync` (load-file.ts): written through one buffer, read back a
// chunk at a time.

const FLUSH_BYTES = 1 << 20;

/** The first `count` lines of a file, read a chunk at a time. */
export function* readLines(path: string, count: number): Generator<string> {
  const fd = openSync(path, "r");
  const decoder = new StringDecoder("utf8");
  const chunk = Buffer.allocUnsafe(FLUSH_BYTES);
  let pending = "";
  let read = 0;
  try {
    for (let at = 0; read < count;) {
      const bytes = readSync(fd, chunk, 0, chunk.length, at);
      if (bytes === 0) break;
      at += bytes;
      pending += decoder.write(chunk.subarray(0, bytes));
      let start = 0;
      for (let end = pending.indexOf("\n"); read < count && end >= 0; end = pending.indexOf("\n", start)) {
        yield pending.slice(start, end);
        start = end + 1;
        read++;
      }
      pending = pending.slice(start);
    }
  } finally {
    closeSync(fd);
  }
}

/** A file written through one buffer: lines are encoded straight into it, written out when the next might not fit. */
export class LineFile {
  private readonly fd: number;
  private readonly out = Buffer.allocUnsafe(FLUSH_BYTES);
  /** Bytes of `out` in use. */
  private filled = 0;
  private closed = false;

  constructor(
    readonly path: string,
    flags = "w",
  ) {
    try {
      this.fd = openSync(path, flags, 0o600);
    } catch (error) {
      throw LocalFileError.fromSystem(error, path, "write the load file");
    }
  }

  /** The lines written so far, under a new name, to be continued there. */
  moveTo(path: string): LineFile {
    this.finish();
    try {
      renameSync(this.path, path);
    } catch (error) {
      throw LocalFileError.fromSystem(error, path, "write the load file");
    }
    return new LineFile(path, "a");
  }

  write(text: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (this.filled + text.length * 3 > this.out.length) {
      this.flush();
      if (text.length * 3 > this.out.length) {
        this.writeOut(Buffer.from(text, "utf8"));
        return;
      }
    }
    this.filled += this.out.write(text, this.filled, "utf8");
  }

  private flush(): void {
    if (this.filled === 0) return;
    this.writeOut(this.out.subarray(0, this.filled));
    this.filled = 0;
  }

  private writeOut(bytes: Buffer): void {
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
    } catch (error) {
      this.close();
      throw LocalFileError.fromSystem(error, this.path, "write the load file");
    }
  }

  finish(): void {
    this.flush();
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
