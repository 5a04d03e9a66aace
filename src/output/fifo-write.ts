import { close, constants, createWriteStream, open as openFd, write, type WriteStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { isErrnoError, LocalFileError } from "../errors.js";

// A named pipe (FIFO) as an output (--junit, $GITHUB_STEP_SUMMARY, --out): opening one for
// writing blocks until a process reads it, inside libuv's thread pool, where nothing can
// interrupt it — and Node's exit then waits for that thread, so even Ctrl-C and SIGTERM hung
// (docs/local-files.md). A FIFO is opened non-blocking instead: without a reader the open
// fails at once (ENXIO) and the run says so (exit 11); with one, the data is written as the
// reader takes it, a full pipe waited for on a timer, which a signal can end. The same holds
// for a stream into a FIFO whose reader stopped reading (`--out fifo`, a stalled `cat`): a
// blocking write would wait in the thread pool, out of reach of Ctrl-C and SIGTERM.

const RETRY_MS = 20;

export async function isFifo(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFIFO();
  } catch {
    return false;
  }
}

/** The FIFO opened for writing without blocking; LocalFileError (exit 11) when nobody reads it. */
export async function openFifoNonBlocking(path: string): Promise<Awaited<ReturnType<typeof open>>> {
  try {
    return await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw openFailure(error, path);
  }
}

/** A failed non-blocking open as the run's error: ENXIO is a FIFO that no process reads. */
function openFailure(error: unknown, path: string): LocalFileError {
  if (isErrnoError(error) && error.code === "ENXIO") {
    return new LocalFileError(`cannot write ${path}: it is a named pipe (FIFO) that no process reads (ENXIO)`, {
      path,
      code: "ENXIO",
      hint: "start its reader first (e.g. cat < the-fifo), or give a regular file",
    });
  }
  return LocalFileError.fromSystem(error, path, "write");
}

/** Writes `data` into the FIFO at `path`; LocalFileError (exit 11) when nobody reads it. */
export async function writeToFifo(path: string, data: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  const handle = await openFifoNonBlocking(path);
  try {
    let rest = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
    while (rest.length > 0) {
      if (signal?.aborted) throw signal.reason;
      try {
        const { bytesWritten } = await handle.write(rest, 0, Math.min(rest.length, 65_536));
        rest = rest.subarray(bytesWritten);
      } catch (error) {
        if (!isErrnoError(error) || error.code !== "EAGAIN") throw LocalFileError.fromSystem(error, path, "write");
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * A write stream into the FIFO at `path`, on a non-blocking descriptor: a full pipe is
 * waited for on a timer, never in a thread, so that a signal's exit is not held up by it.
 * LocalFileError (exit 11) when nobody reads it. `stop()` ends the waiting (abort).
 */
export async function openFifoStream(path: string): Promise<{ stream: WriteStream; stop(): void }> {
  const fd = await new Promise<number>((resolveFd, reject) =>
    openFd(path, constants.O_WRONLY | constants.O_NONBLOCK, (error, opened) => (error ? reject(error) : resolveFd(opened))),
  ).catch((error: unknown) => {
    throw openFailure(error, path);
  });
  let stopped = false;
  type WriteCallback = (error: NodeJS.ErrnoException | null, written: number, buffer: Uint8Array) => void;
  // Node's WriteStream takes EAGAIN for "0 bytes" and gives up after a few: wait until the
  // reader makes room instead, a timer at a time.
  const waitingWrite = (
    target: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number | null,
    callback: WriteCallback,
  ): void => {
    write(target, buffer, offset, length, position, (error, written) => {
      if (error?.code === "EAGAIN" && !stopped) {
        setTimeout(() => waitingWrite(target, buffer, offset, length, position, callback), RETRY_MS);
        return;
      }
      callback(error, written, buffer);
    });
  };
  const stream = createWriteStream(path, { fd, fs: { write: waitingWrite, close, open: openFd } });
  return {
    stream,
    stop: () => {
      stopped = true;
    },
  };
}
