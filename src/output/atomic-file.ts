import { createWriteStream, existsSync, mkdirSync, rmSync, type WriteStream } from "node:fs";
import { access, chmod, constants, lstat, readdir, readlink, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { isErrnoError, LocalFileError } from "../errors.js";

// Output files (docs/cli-contract.md, "Output files", "Bad input", exit codes 11 and 130).
//
// A regular file is written to a temp file in the same directory and renamed into place, so
// a reader (or the next cron run) never sees half a file, and a failed or interrupted run
// leaves the previous file untouched and no temp file behind. Around that:
// - A symlink is followed: its final target is what gets replaced, the link stays a link
//   (a dangling link gets its target created).
// - A FIFO, a character device (/dev/null, /dev/full), a socket, or anything reached through
//   /dev or /proc (/dev/stdout, /dev/fd/1, /proc/self/fd/1) is written directly, opened for
//   appending: replacing it would destroy the device or leave a waiting reader hanging, and
//   /dev/stdout may be a log file the shell opened with `>>`. Such a write cannot be undone.
// - An existing file keeps its permission bits; a new file gets `mode` (0600 for side files,
//   caches and anything holding a token or link; 0644 less the umask otherwise).
// - Temp files are named `.<name>.<pid>.<8 hex>.tmp`: a run killed by SIGKILL cannot clean
//   up, so the next run writing the same output removes temp files whose pid is dead.
// - Every file-system failure becomes a LocalFileError (exit 11) naming the path and cause.

/** Temp files not yet committed; removed synchronously if the process must exit at once. */
const pendingTempFiles = new Set<string>();

export function removePendingTempFilesSync(): void {
  for (const path of pendingTempFiles) rmSync(path, { force: true });
  pendingTempFiles.clear();
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrnoError(error) && error.code === "EPERM";
  }
}

/**
 * Removes temp files of `path` left by runs that died (SIGKILL, power loss): only names in
 * our own pattern, only when their pid no longer runs. Best effort: never fails the run.
 */
export async function removeStaleTempFiles(path: string): Promise<string[]> {
  const pattern = new RegExp(`^\\.${escapeRegExp(basename(path))}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`);
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    try {
      await rm(join(dirname(path), name), { force: true });
      removed.push(name);
    } catch {
      // Not ours to remove after all (permissions): leave it.
    }
  }
  return removed;
}

export type OutputTarget =
  /** `target` is where the bytes land: the path itself, or the end of its symlinks. */
  | { kind: "missing"; target: string }
  | { kind: "regular"; target: string; mode: number }
  | { kind: "special"; target: string }
  | { kind: "directory"; target: string };

function throughDevOrProc(path: string): boolean {
  return /^\/(dev|proc)\//.test(resolve(path));
}

/** What `path` is once its symlinks are followed (without creating anything). */
export async function resolveOutputTarget(path: string): Promise<OutputTarget> {
  let target = path;
  for (let hops = 0; hops <= 40; hops++) {
    if (throughDevOrProc(target)) {
      // /dev/stdout → /proc/self/fd/1 → "pipe:[…]": not a path to follow, and not to replace.
      try {
        const info = await stat(target);
        if (info.isDirectory()) return { kind: "directory", target };
      } catch {
        // Missing under /dev: the open reports it.
      }
      return { kind: "special", target: path };
    }
    let info;
    try {
      info = await lstat(target);
    } catch (error) {
      if (isErrnoError(error) && error.code === "ENOENT") return { kind: "missing", target };
      throw LocalFileError.fromSystem(error, path, "write");
    }
    if (info.isSymbolicLink()) {
      target = resolve(dirname(target), await readlink(target));
      continue;
    }
    if (info.isDirectory()) return { kind: "directory", target };
    if (info.isFile()) return { kind: "regular", target, mode: info.mode & 0o7777 };
    return { kind: "special", target };
  }
  throw new LocalFileError(`cannot write ${path}: too many symbolic links (ELOOP)`, { path, code: "ELOOP" });
}

/**
 * Checks, before anything is sent, that `path` can be written: its directory exists and is
 * writable, it is not a directory; a special file must be writable itself. Exit 11 otherwise.
 */
export async function checkOutputPath(path: string): Promise<OutputTarget> {
  const target = await resolveOutputTarget(path);
  const fail = (code: string, cause: string): never => {
    throw new LocalFileError(`cannot write ${path}: ${cause} (${code})`, { path, code });
  };
  if (target.kind === "directory") fail("EISDIR", "is a directory");
  if (target.kind === "special") {
    try {
      await access(target.target, constants.W_OK);
    } catch (error) {
      throw LocalFileError.fromSystem(error, path, "write");
    }
    return target;
  }
  const dir = dirname(target.target);
  let info;
  try {
    info = await stat(dir);
  } catch (error) {
    if (isErrnoError(error) && error.code === "ENOENT") fail("ENOENT", `the directory ${dir} does not exist`);
    throw LocalFileError.fromSystem(error, path, "write");
  }
  if (!info.isDirectory()) fail("ENOTDIR", `${dir} is not a directory`);
  try {
    await access(dir, constants.W_OK);
  } catch (error) {
    const code = isErrnoError(error) ? error.code : "EACCES";
    if (code === "EROFS") fail(code, `the directory ${dir} is on a read-only file system`);
    fail(code, `the directory ${dir} is not writable`);
  }
  return target;
}

/**
 * `mkdir -p` that names the real cause: Node's recursive mkdir reports ENOENT when a missing
 * directory cannot be created on a read-only file system (or without permission), so on
 * ENOENT the missing part is created one level at a time, and the level that fails says why
 * (EROFS, EACCES). Exit 11 naming that directory.
 */
export function makeDirectory(dir: string, mode = 0o777, what = "create the directory"): void {
  try {
    mkdirSync(dir, { recursive: true, mode });
    return;
  } catch (error) {
    if (!isErrnoError(error) || error.code !== "ENOENT") throw LocalFileError.fromSystem(error, dir, what);
  }
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode });
    } catch (error) {
      if (isErrnoError(error) && error.code === "EEXIST") continue;
      throw LocalFileError.fromSystem(error, level, what);
    }
  }
}

function fileError(error: unknown, path: string): LocalFileError {
  return LocalFileError.fromSystem(error, path, "write");
}

export interface AtomicFile {
  readonly path: string;
  readonly stream: WriteStream;
  /** Flushes, closes and renames into place (a special file: flushes and closes). */
  commit(): Promise<void>;
  /** Closes and removes the temp file; the target is left as it was. Safe to call twice. */
  abort(): Promise<void>;
  /** The first write error met (the stream's own error events are caught here). */
  failure(): LocalFileError | undefined;
}

/**
 * Ends `stream` once everything is flushed; rejects with the first error it reported while
 * open (`failure`) or the one ending it raised, as the LocalFileError naming `path`.
 */
function endStream(stream: WriteStream, path: string, failure: () => LocalFileError | undefined): Promise<void> {
  return new Promise((resolveEnd, reject) => {
    const fail = (error: unknown): void => reject(fileError(error, path));
    if (stream.closed) return failure() ? fail(failure()) : resolveEnd();
    stream.end((error?: Error | null) => (error ? fail(failure() ?? error) : failure() ? fail(failure()) : resolveEnd()));
  });
}

/**
 * The first error of `stream` as a LocalFileError naming `path`. A failed write (ENOSPC)
 * destroys the stream at once but emits "error" a tick later, and a write in between fails
 * with ERR_STREAM_DESTROYED: `errored` holds the real cause already.
 */
function firstFailure(stream: WriteStream, path: string): () => LocalFileError | undefined {
  let failure: LocalFileError | undefined;
  stream.on("error", (error) => (failure ??= fileError(error, path)));
  return () => {
    if (failure === undefined && stream.errored) failure = fileError(stream.errored, path);
    return failure;
  };
}

function openStream(path: string, flags: string, mode: number): Promise<WriteStream> {
  const stream = createWriteStream(path, { mode, flags });
  return new Promise((resolveOpen, reject) => {
    stream.once("open", () => resolveOpen(stream));
    stream.once("error", reject);
  });
}

/**
 * Opens `path` for writing as the contract's *Output files* says. `mode` is for a file that
 * does not exist yet; an existing file keeps its own.
 */
export async function openAtomicFile(path: string, mode = 0o644): Promise<AtomicFile> {
  const target = await checkOutputPath(path);
  if (target.kind === "special") return openDirect(path, target.target);
  await removeStaleTempFiles(target.target);
  const tempPath = tempPathFor(target.target);
  let stream: WriteStream;
  try {
    stream = await openStream(tempPath, "wx", target.kind === "regular" ? target.mode : mode);
    pendingTempFiles.add(tempPath);
    // The umask may have taken bits away; an existing file's mode is restored exactly.
    if (target.kind === "regular") await chmod(tempPath, target.mode);
  } catch (error) {
    pendingTempFiles.delete(tempPath);
    await rm(tempPath, { force: true });
    throw fileError(error, path);
  }
  const failed = firstFailure(stream, path);
  let done = false;
  return {
    path,
    stream,
    failure: failed,
    async commit() {
      if (done) return;
      done = true;
      try {
        await endStream(stream, path, failed);
        await rename(tempPath, target.target);
      } catch (error) {
        await rm(tempPath, { force: true });
        throw fileError(error, path);
      } finally {
        pendingTempFiles.delete(tempPath);
      }
    },
    async abort() {
      if (done) return;
      done = true;
      stream.destroy();
      await rm(tempPath, { force: true });
      pendingTempFiles.delete(tempPath);
    },
  };
}

/** A FIFO or device: opened for appending and written in place (nothing to rename). */
async function openDirect(path: string, target: string): Promise<AtomicFile> {
  let stream: WriteStream;
  // A FIFO: a blocking open would wait for a reader for ever, and a blocking write for a
  // reader that stopped reading, both in a thread that Ctrl-C cannot end (fifo-write.ts).
  // Opened non-blocking, it fails at once without a reader, and a full pipe is waited for
  // on a timer.
  const { isFifo, openFifoStream } = await import("./fifo-write.js");
  let stop = (): void => undefined;
  if (await isFifo(target)) {
    const fifo = await openFifoStream(target);
    stream = fifo.stream;
    stop = () => fifo.stop();
  } else {
    try {
      stream = await openStream(target, "a", 0o600);
    } catch (error) {
      throw fileError(error, path);
    }
  }
  const failed = firstFailure(stream, path);
  let done = false;
  return {
    path,
    stream,
    failure: failed,
    async commit() {
      if (done) return;
      done = true;
      await endStream(stream, path, failed);
    },
    async abort() {
      if (done) return;
      done = true;
      stop();
      stream.destroy();
    },
  };
}

/** Whole-content variant for small files (manifests, settings side files). */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const target = await checkOutputPath(path);
  if (target.kind === "special") {
    // A FIFO without a reader must not block the run for ever (fifo-write.ts).
    const { isFifo, writeToFifo } = await import("./fifo-write.js");
    if (await isFifo(target.target)) return writeToFifo(target.target, data);
    try {
      await writeFile(target.target, data, { flag: "a" });
    } catch (error) {
      throw fileError(error, path);
    }
    return;
  }
  const tempPath = tempPathFor(target.target);
  pendingTempFiles.add(tempPath);
  try {
    await writeFile(tempPath, data, { mode: target.kind === "regular" ? target.mode : mode, flag: "wx" });
    if (target.kind === "regular") await chmod(tempPath, target.mode);
    await rename(tempPath, target.target);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw fileError(error, path);
  } finally {
    pendingTempFiles.delete(tempPath);
  }
}
