import { chmod, lstat, mkdir, open, readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { SandboxSnapshot } from "./state.js";

// `--sandbox` keeps the emulator's state between runs of the same user (docs/cli-contract.md,
// Sandbox), so that a follow-up command it prints (import-status after an
// import, unassign after assign) finds what the previous run made. One JSON file in a
// directory of the user's own (0700, file 0600), and a lock file so that two runs at once
// do not overwrite each other's changes: the second run starts from the saved state and
// keeps nothing, and says so.

const STATE_FILE = "sandbox-state.json";
const LOCK_FILE = "sandbox-state.lock";

type Env = Record<string, string | undefined>;

/**
 * `$XDG_CACHE_HOME/simadmin` when set (absolute), else `~/.cache/simadmin` (the XDG default):
 * the user's own directory, not a name in a /tmp shared with every user of the machine,
 * which another user could create first. Only without a home
 * directory: `<os tmpdir>/simadmin-sandbox-<uid>`.
 */
export function sandboxStateDir(env: Env): string {
  const cache = env.XDG_CACHE_HOME;
  if (cache && isAbsolute(cache)) return join(cache, "simadmin");
  const home = env.HOME ?? env.USERPROFILE;
  if (home && isAbsolute(home)) return join(home, ".cache", "simadmin");
  const uid = typeof process.getuid === "function" ? String(process.getuid()) : (env.USERNAME ?? "user");
  return join(tmpdir(), `simadmin-sandbox-${uid}`);
}

export interface SandboxStateFile {
  path: string;
  /** The saved state, when there is one that could be read. */
  snapshot: SandboxSnapshot | undefined;
  /** Set when this run keeps nothing: why, in one line for stderr. */
  notKept: string | undefined;
  /** A problem worth a warning that did not stop the run (an unreadable state file). */
  warning: string | undefined;
  /** Writes the state (when this run holds the lock) and releases the lock. */
  close(snapshot: SandboxSnapshot | undefined): Promise<void>;
}

function isSnapshot(value: unknown): value is SandboxSnapshot {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<Record<keyof SandboxSnapshot, unknown>>;
  return (
    v.version === 1 &&
    typeof v.tokenSecret === "string" &&
    Array.isArray(v.users) &&
    Array.isArray(v.attempts) &&
    Array.isArray(v.assignments) &&
    Array.isArray(v.tasks) &&
    Array.isArray(v.firstPolls) &&
    typeof v.userCounter === "number" &&
    typeof v.executionCounter === "number"
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Our own directory, 0700: another user's (a shared /tmp) is never read or written. */
async function ownDirectory(dir: string): Promise<string | undefined> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await lstat(dir);
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  if (typeof process.getuid === "function" && stat.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((stat.mode & 0o077) !== 0) await chmod(dir, 0o700);
  return undefined;
}

/** The pid holding the lock, or undefined once we hold it ourselves. */
async function takeLock(lockPath: string): Promise<number | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const pid = Number.parseInt(await readFile(lockPath, "utf8").catch(() => ""), 10);
    // A lock left by a run that is gone (killed) is stale.
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) return pid;
    await unlink(lockPath).catch(() => undefined);
  }
  return -1;
}

export async function openSandboxState(dir: string): Promise<SandboxStateFile> {
  const path = join(dir, STATE_FILE);
  const lockPath = join(dir, LOCK_FILE);
  const problem = await ownDirectory(dir).catch((error: Error) => error.message);
  if (problem) {
    return {
      path,
      snapshot: undefined,
      notKept: `the sandbox starts from its seed and keeps nothing: ${problem}`,
      warning: undefined,
      close: async () => {},
    };
  }
  const holder = await takeLock(lockPath);
  let snapshot: SandboxSnapshot | undefined;
  let warning: string | undefined;
  try {
    const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
    if (isSnapshot(parsed)) snapshot = parsed;
    else warning = `the saved sandbox state ${path} is not one this version knows; starting from the seed`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      warning = `the saved sandbox state ${path} could not be read (${(error as Error).message}); starting from the seed`;
    }
  }
  if (holder !== undefined) {
    return {
      path,
      snapshot,
      notKept: `another --sandbox run${holder > 0 ? ` (pid ${holder})` : ""} holds the sandbox state: this run starts from it and keeps nothing`,
      warning,
      close: async () => {},
    };
  }
  return {
    path,
    snapshot,
    notKept: undefined,
    warning,
    close: async (next) => {
      try {
        if (next) {
          const temp = `${path}.${process.pid}.tmp`;
          await writeFile(temp, JSON.stringify(next), { mode: 0o600 });
          await rename(temp, path);
        }
      } finally {
        await unlink(lockPath).catch(() => undefined);
      }
    },
  };
}

/** `simadmin sandbox --reset`: forget the saved state. Refused while a run holds it. */
export async function resetSandboxState(dir: string): Promise<{ path: string; removed: boolean; heldBy?: number }> {
  const path = join(dir, STATE_FILE);
  const lockPath = join(dir, LOCK_FILE);
  const pid = Number.parseInt(await readFile(lockPath, "utf8").catch(() => ""), 10);
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) return { path, removed: false, heldBy: pid };
  const existed = await lstat(path).then(
    () => true,
    () => false,
  );
  await rm(path, { force: true });
  await rm(lockPath, { force: true });
  // `progress`'s completed pairs under --sandbox (commands/progress/cache.ts) describe this state: they go with it.
  await rm(join(dir, "progress-cache.json"), { force: true });
  return { path, removed: existed };
}
