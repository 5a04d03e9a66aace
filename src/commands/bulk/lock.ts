import { readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { isErrnoError, LocalFileError, UsageError } from "../../errors.js";

// One run per bulk file and command at a time (docs/cli-contract.md "Concurrency": a second
// run of the same file stops with exit 2 naming the other run's pid, having sent nothing).
// A small lock file beside the manifest, created exclusively; a lock whose process is gone
// (same host) is taken over. Kept minimal on purpose: the shared file lock being built for
// `users import` (issue 12) replaces it when it lands.

export interface BulkLock {
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrnoError(error) && error.code === "EPERM";
  }
}

export async function acquireBulkLock(
  path: string,
  options: { what: string; command: string; now: () => number },
): Promise<BulkLock> {
  const owner: Owner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date(options.now()).toISOString(),
    command: options.command,
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(owner)}\n`, { mode: 0o600, flag: "wx" });
      return {
        release: async () => {
          await rm(path, { force: true });
        },
      };
    } catch (error) {
      if (!(isErrnoError(error) && error.code === "EEXIST")) throw LocalFileError.fromSystem(error, path, "create the lock file");
    }
    let other: Partial<Owner> | undefined;
    try {
      other = JSON.parse(await readFile(path, "utf8")) as Partial<Owner>;
    } catch {
      other = undefined;
    }
    // Unreadable: another run is between creating and writing it — busy, not stale.
    const stale = other?.pid !== undefined && other.host === hostname() && !alive(other.pid);
    if (stale) {
      await rm(path, { force: true });
      continue;
    }
    if (other === undefined) break;
    const where = other.host === hostname() ? `pid ${other.pid}` : `pid ${other.pid} on host ${other.host}`;
    throw new UsageError(
      `${options.what} is already running in another simadmin process (${where}, started ${other.startedAt}); nothing was sent`,
      {
        hint: `wait for it to finish, then run the command again (or remove ${path} if that run is gone)`,
      },
    );
  }
  throw new UsageError(`${options.what} is being started by another simadmin run at this moment; nothing was sent`, {
    hint: `run it again once that run is done (or remove ${path} if no run is working on the file)`,
  });
}
