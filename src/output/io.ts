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
}

export function systemIO(): IOStreams {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
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
