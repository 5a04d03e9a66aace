import { closeSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { LocalFileError } from "../../errors.js";

// The load files of `reports sync` (load-file.ts): written through one buffer, read back a
// chunk at a time. A file may be written in pieces of whole lines — `path`, `path.1`,
// `path.2`, … — each read by DuckDB into one buffer of its own (docs/reports-sync.md,
// Figures: memory).

const FLUSH_BYTES = 1 << 20;

/** The name of a file's `index`-th piece (the first is the file itself). */
export function piecePath(path: string, index: number): string {
  return index === 0 ? path : `${path}.${index}`;
}

/** The paths of a file written in `count` pieces, in order. */
export function piecePaths(path: string, count = 1): string[] {
  return Array.from({ length: count }, (_, i) => piecePath(path, i));
}

/** The first `count` lines of a file (or of its pieces, in order), read a chunk at a time. */
export function* readLines(paths: string | readonly string[], count: number): Generator<string> {
  const decoder = new StringDecoder("utf8");
  const chunk = Buffer.allocUnsafe(FLUSH_BYTES);
  let pending = "";
  let read = 0;
  for (const path of typeof paths === "string" ? [paths] : paths) {
    if (read >= count) break;
    const fd = openSync(path, "r");
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
}

/**
 * A file written through one buffer: lines are encoded straight into it, written out when the
 * next might not fit. With `pieceBytes`, a line that starts once the current piece holds that
 * many bytes starts the next piece (`files`).
 */
export class LineFile {
  private fd: number;
  private readonly out = Buffer.allocUnsafe(FLUSH_BYTES);
  /** Bytes of `out` in use. */
  private filled = 0;
  private closed = false;
  /** The piece being written, and its bytes so far (written or in `out`). */
  private piece: number;
  private pieceFilled: number;
  /** Whether the next write starts a line (the last one ended with a line break). */
  private lineStart = true;

  constructor(
    readonly path: string,
    flags = "w",
    private readonly pieceBytes = Infinity,
    /** Continuing a file written in pieces (moveTo): its last piece and that piece's size. */
    from = { piece: 0, bytes: 0 },
  ) {
    this.piece = from.piece;
    this.pieceFilled = from.bytes;
    this.fd = LineFile.open(piecePath(path, this.piece), flags);
  }

  private static open(path: string, flags: string): number {
    try {
      return openSync(path, flags, 0o600);
    } catch (error) {
      throw LocalFileError.fromSystem(error, path, "write the load file");
    }
  }

  /** How many pieces the file has so far. */
  get pieces(): number {
    return this.piece + 1;
  }

  /** The file's pieces, in order. */
  get files(): string[] {
    return piecePaths(this.path, this.pieces);
  }

  /** The lines written so far, under a new name, to be continued there. */
  moveTo(path: string): LineFile {
    this.finish();
    for (let i = 0; i <= this.piece; i++) {
      try {
        renameSync(piecePath(this.path, i), piecePath(path, i));
      } catch (error) {
        throw LocalFileError.fromSystem(error, path, "write the load file");
      }
    }
    return new LineFile(path, "a", this.pieceBytes, { piece: this.piece, bytes: this.pieceFilled });
  }

  write(text: string): void {
    if (this.lineStart && this.pieceFilled >= this.pieceBytes) this.nextPiece();
    this.lineStart = text.endsWith("\n");
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (this.filled + text.length * 3 > this.out.length) {
      this.flush();
      if (text.length * 3 > this.out.length) {
        const bytes = Buffer.from(text, "utf8");
        this.writeOut(bytes);
        this.pieceFilled += bytes.length;
        return;
      }
    }
    const bytes = this.out.write(text, this.filled, "utf8");
    this.filled += bytes;
    this.pieceFilled += bytes;
  }

  /** Writes UTF-8 bytes given one per character (a Buffer read as `latin1`) as they are. */
  writeBytes(bytes: string): void {
    if (this.lineStart && this.pieceFilled >= this.pieceBytes) this.nextPiece();
    this.lineStart = bytes.endsWith("\n");
    if (this.filled + bytes.length > this.out.length) {
      this.flush();
      if (bytes.length > this.out.length) {
        this.writeOut(Buffer.from(bytes, "latin1"));
        this.pieceFilled += bytes.length;
        return;
      }
    }
    this.out.write(bytes, this.filled, "latin1");
    this.filled += bytes.length;
    this.pieceFilled += bytes.length;
  }

  /** Writes `bytes[start, end)`, a part of a line, as it is. */
  writeRange(bytes: Buffer, start: number, end: number): void {
    if (this.lineStart && this.pieceFilled >= this.pieceBytes) this.nextPiece();
    this.lineStart = bytes[end - 1] === 0x0a;
    const size = end - start;
    if (this.filled + size > this.out.length) {
      this.flush();
      if (size > this.out.length) {
        this.writeOut(bytes.subarray(start, end));
        this.pieceFilled += size;
        return;
      }
    }
    bytes.copy(this.out, this.filled, start, end);
    this.filled += size;
    this.pieceFilled += size;
  }

  private nextPiece(): void {
    this.flush();
    this.close();
    this.piece++;
    this.pieceFilled = 0;
    this.fd = LineFile.open(piecePath(this.path, this.piece), "w");
    this.closed = false;
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
      throw LocalFileError.fromSystem(error, piecePath(this.path, this.piece), "write the load file");
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
