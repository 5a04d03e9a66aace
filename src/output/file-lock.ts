import { randomBytes } from "node:crypto";
import { unlinkSync } from "node:fs";
import { link, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { isErrnoError, LocalFileError, UsageError } from "../errors.js";
import { processAlive } from "./atomic-file.js";

// An exclusive lock on a local file, for runs that must not overlap: `users import` of one
// CSV and the bulk operations of one `--from-csv` file (docs/cli-contract.md "Concurrency":
// two runs never upload the same batch twice).
//
// Decisions:
// - A second run does not wait: it stops at once with exit 2 naming the other run's pid
//   (and host), having sent nothing. Waiting would leave a cron job hanging behind a run that
//   may itself be waiting for a --wait timeout; and once the first run is done, the second
//   must be refused by the manifest anyway ("already imported"), so waiting buys nothing.
// - The lock is a small JSON file (pid, host, start time, command) made complete in a temp
//   file and hard-linked into place: link() fails if the lock exists, so exactly one run wins
//   and a reader never sees half an owner.
// - A lock whose owner died (same host, pid no longer running: SIGKILL, power loss) is taken
//   over. One run at a time may take over (it holds `<lock>.takeover`, hard-linked like the
//   lock itself): it reads the lock again and removes it only if it is still the dead
//   owner's. Nobody but a takeover removes another run's lock, so what it read cannot change
//   before it removes it, and two runs taking over at once cannot both win. (An earlier
//   version moved the lock aside and put a live run's lock back: with three runs at once, a
//   third could lock in between and the put-back failed, leaving two runs holding the lock.)
//   A takeover guard left by a run that died is removed by the next run that meets it.
// - A lock of another host (a settings or project directory shared between machines) is
//   never taken over automatically: its pid means nothing here. The message says which file
//   to remove once that run is known to be gone.
// - Released at the end of the run, and synchronously on process.exit (the Ctrl-C path).

export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
  /** Distinguishes our own lock from a later one of a reused pid. */
  nonce: string;
}

export interface FileLock {
  readonly path: string;
  release(): Promise<void>;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === "number" && typeof value.host === "string") {
      return {
        pid: value.pid,
        host: value.host,
        startedAt: String(value.startedAt ?? ""),
        command: String(value.command ?? ""),
        nonce: String(value.nonce ?? ""),
      };
    }
  } catch {
    // Not ours, or cut short by a crash: handled by the caller.
  }
  return undefined;
}

async function readOwner(path: string): Promise<LockOwner | undefined | "gone"> {
  try {
    return parseOwner(await readFile(path, "utf8"));
  } catch (error) {
    if (isErrnoError(error) && error.code === "ENOENT") return "gone";
    throw LocalFileError.fromSystem(error, path, "read the lock file");
  }
}

function ownerIsDead(owner: LockOwner): boolean {
  return owner.host === hostname() && !processAlive(owner.pid);
}

/** A lock file that holds no owner: left by a crash between create and write (never by link()). */
async function unreadableAndOld(path: string, nowMs: number): Promise<boolean> {
  try {
    return nowMs - (await stat(path)).mtimeMs > 60_000;
  } catch {
    return false;
  }
}

/**
 * Takes the lock at `path`, or throws UsageError (exit 2) naming the run that holds it.
 * `what` names the locked work for the message, e.g. "an import of staff.csv".
 */
export async function acquireFileLock(
  path: string,
  options: { what: string; command: string; now: () => number },
): Promise<FileLock> {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date(options.now()).toISOString(),
    command: options.command,
    nonce: randomBytes(8).toString("hex"),
  };
  const temp = `${path}.${process.pid}.${owner.nonce}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(owner)}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // A full disk creates the temp file, then fails to fill it: never leave it behind.
    await rm(temp).catch(() => undefined);
    throw LocalFileError.fromSystem(error, path, "create the lock file");
  }
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await tryLink(temp, path)) return held(path, owner);
      const current = await readOwner(path);
      if (current === "gone") continue;
      if (current === undefined ? await unreadableAndOld(path, options.now()) : ownerIsDead(current)) {
        await takeOver(path, current, temp);
        continue;
      }
      throw busy(path, options.what, current);
    }
    throw new UsageError(`${options.what} is being started by other simadmin runs at this moment; nothing was sent`, {
      hint: "run it again once they are done",
    });
  } finally {
    await rm(temp, { force: true });
  }
}

async function tryLink(temp: string, path: string): Promise<boolean> {
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if (isErrnoError(error) && error.code === "EEXIST") return false;
    // File systems without hard links: an exclusive create does the same, less atomically.
    if (isErrnoError(error) && (error.code === "EPERM" || error.code === "ENOTSUP" || error.code === "EOPNOTSUPP")) {
      try {
        await writeFile(path, await readFile(temp), { mode: 0o600, flag: "wx" });
        return true;
      } catch (inner) {
        if (isErrnoError(inner) && inner.code === "EEXIST") return false;
        throw LocalFileError.fromSystem(inner, path, "create the lock file");
      }
    }
    throw LocalFileError.fromSystem(error, path, "create the lock file");
  }
}

/**
 * Removes a dead run's lock (`judged`: what the caller read from it), holding the takeover
 * guard, which `temp` (our complete owner) is linked to. Returns without removing anything
 * when another run is taking over: the caller looks again.
 */
async function takeOver(path: string, judged: LockOwner | undefined, temp: string): Promise<void> {
  const guard = `${path}.takeover`;
  if (!(await tryLink(temp, guard))) {
    const other = await readOwner(guard);
    // A guard is linked complete, so one that names no owner was not written by a run.
    if (other !== "gone" && (other === undefined || ownerIsDead(other))) await rm(guard, { force: true });
    return;
  }
  try {
    const current = await readOwner(path);
    const stillStale =
      current !== "gone" &&
      (current === undefined ? judged === undefined : judged !== undefined && current.nonce === judged.nonce);
    if (stillStale) await rm(path, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

function busy(path: string, what: string, owner: LockOwner | undefined): UsageError {
  if (owner === undefined) {
    return new UsageError(`${what} is locked by ${path}, which names no owner; nothing was sent`, {
      hint: `if no other simadmin run is working on it, remove ${path}`,
    });
  }
  const where = owner.host === hostname() ? `pid ${owner.pid}` : `pid ${owner.pid} on host ${owner.host}`;
  return new UsageError(
    `${what} is already running in another simadmin process (${where}, started ${owner.startedAt}); nothing was sent`,
    {
      hint:
        owner.host === hostname()
          ? "wait for it to finish, then run the command again"
          : `wait for it to finish; if that run is gone, remove ${path} and run the command again`,
    },
  );
}

function held(path: string, owner: LockOwner): FileLock {
  let released = false;
  const releaseSync = (): void => {
    if (released) return;
    released = true;
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.once("exit", releaseSync);
  return {
    path,
    async release() {
      process.off("exit", releaseSync);
      const current = await readOwner(path).catch(() => undefined);
      // Only our own lock: never one a later run holds (nor one after the exit listener ran).
      if (typeof current === "object" && current.nonce === owner.nonce) await rm(path, { force: true });
    },
  };
}

interface WaitingLockOptions {
  /** The file the lock guards and what is done to it, for messages: "cannot <action> <path>: …". */
  guarded: { path: string; action: string };
  command: string;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Give up (exit 11) when a live owner holds it longer than this. */
  maxWaitMs: number;
  /** Called once when the wait passes `noticeAfterMs` (a line on stderr: a silent stall looks like a hang). */
  onWait?: ((owner: LockOwner | undefined) => void) | undefined;
  noticeAfterMs?: number;
}

const WAIT_POLL_MS = 10;

/**
 * A lock for short read-modify-write work shared by concurrent runs (the settings file):
 * unlike acquireFileLock, a second run waits its turn instead of stopping.
 * The owner is written in full to a temp file and hard-linked into place, so a lock file is
 * never empty: one that holds no readable owner (cut short by a full disk under an older
 * version, or written by hand) is stale at once, as is one whose process is gone. A full or
 * read-only disk fails here, before anything else, as exit 11 naming the guarded file.
 */
export async function acquireWaitingLock(path: string, options: WaitingLockOptions): Promise<FileLock> {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date(options.now()).toISOString(),
    command: options.command,
    nonce: randomBytes(8).toString("hex"),
  };
  const cannot = (error: unknown): LocalFileError =>
    LocalFileError.fromSystem(
      error,
      options.guarded.path,
      options.guarded.action,
      `its lock file ${path} could not be made: free some space or fix the permissions of its directory; nothing was changed`,
    );
  const temp = `${path}.${process.pid}.${owner.nonce}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(owner)}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    await rm(temp).catch(() => undefined);
    throw cannot(error);
  }
  const started = options.now();
  let told = false;
  let vanished = 0;
  try {
    for (;;) {
      try {
        if (await tryLink(temp, path)) return held(path, owner);
      } catch (error) {
        throw cannot(error);
      }
      const current = await readOwner(path).catch(() => undefined);
      if (current === "gone") {
        // Let go between our link and our read: try again at once. Taken for link() yet
        // missing for read() time after time is a dangling symbolic link at the lock's path:
        // wait as for a holder and then give up naming it, never spin at full CPU.
        if (vanished++ === 0) continue;
        if (options.now() - started > options.maxWaitMs) {
          throw new LocalFileError(
            `cannot ${options.guarded.action} ${options.guarded.path}: its lock ${path} is taken by something that cannot be read (a dangling symbolic link?)`,
            { path, code: "EBUSY", hint: `remove ${path} and try again; nothing was changed` },
          );
        }
        await options.sleep(WAIT_POLL_MS + Math.floor(Math.random() * WAIT_POLL_MS));
        continue;
      }
      vanished = 0;
      if (current === undefined || ownerIsDead(current)) {
        await takeOver(path, current, temp).catch(() => undefined);
        continue;
      }
      const waited = options.now() - started;
      if (waited > options.maxWaitMs) {
        const where = current.host === hostname() ? `pid ${current.pid}` : `pid ${current.pid} on host ${current.host}`;
        throw new LocalFileError(
          `cannot ${options.guarded.action} ${options.guarded.path}: its lock ${path} has been held by another simadmin run (${where}, ${current.command}) for more than ${Math.round(options.maxWaitMs / 1000)} s`,
          { path, code: "EBUSY", hint: `if that run is gone or stuck, remove ${path} and try again; nothing was changed` },
        );
      }
      if (!told && waited >= (options.noticeAfterMs ?? 1_000)) {
        told = true;
        options.onWait?.(current);
      }
      await options.sleep(WAIT_POLL_MS + Math.floor(Math.random() * WAIT_POLL_MS));
    }
  } finally {
    await rm(temp).catch(() => undefined);
  }
}
