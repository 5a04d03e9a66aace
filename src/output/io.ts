import type { Readable, Writable } from "node:stream";

// One object knows where output goes and whether each stream is a terminal (after gh's
// IOStreams). Commands never touch process.stdout directly, so tests pass buffers.
export interface IOStreams {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width of stdout, when it is a terminal. */
  columns: number | undefined;
  /**
   * Where workflow commands (`::error …`) go under GitHub Actions: the raw stderr, while
   * stdout and stderr are guarded against forged ones (workflow-guard.ts). Else stderr.
   */
  readonly commands?: Writable;
}

/**
 * The process's own streams. Node creates process.stdin and process.stderr when they are
 * first read (a stream object, and for a file or pipe the stream modules behind it), so
 * they are read only when a command asks: `simadmin --help` touches stdout alone (README,
 * Start-up).
 */
export function systemIO(): IOStreams {
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    get stdoutIsTTY() {
      return process.stdout.isTTY === true;
    },
    get stderrIsTTY() {
      return process.stderr.isTTY === true;
    },
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    get columns() {
      return process.stdout.isTTY ? process.stdout.columns : undefined;
    },
  };
}

/** Writes a chunk and waits for the stream to accept more (backpressure for large outputs). */
export function writeChunk(stream: Writable, chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = stream.write(chunk, (error) => {
      if (error) reject(error);
    });
    if (ok) resolve();
    else stream.once("drain", () => resolve());
  });
}
