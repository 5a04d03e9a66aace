import { spawnSync } from "node:child_process";
import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LocalFileError, UsageError } from "../../src/errors.js";
import { acquireFileLock, acquireWaitingLock, type FileLock } from "../../src/output/file-lock.js";
import { tempDir } from "../helpers/cli.js";
import { failure } from "../helpers/failure.js";

// Real lock files in a temp directory (docs/cli-contract.md "Concurrency"; issue 12 item 3 and
// issue 22 item 2). Two real processes racing: test/e2e/users-import-concurrency.test.ts and
// test/e2e/settings-race.test.ts; here the rules one process can show.

let dir: Awaited<ReturnType<typeof tempDir>>;
let lockPath: string;
beforeEach(async () => {
  dir = await tempDir("simadmin-file-lock-");
  lockPath = join(dir.path, "staff.csv.lock");
});
afterEach(async () => {
  await dir.remove();
});

const T0 = Date.UTC(2026, 10, 21, 8, 30, 0);
const options = { what: "an import of staff.csv", command: "users import staff.csv", now: () => T0 };

/** The pid of a process that has exited (reaped), so no process has it now. */
let dead: number | undefined;
function deadPid(): number {
  dead ??= spawnSync("true").pid;
  if (dead === undefined) throw new Error("no child pid");
  return dead;
}

function ownerJson(fields: Record<string, unknown>): string {
  return JSON.stringify({
    pid: process.pid,
    host: hostname(),
    startedAt: "2026-11-20T07:00:00.000Z",
    command: "x",
    nonce: "theirs",
    ...fields,
  });
}

/** The exit listener a held lock added (its synchronous release on process.exit). */
async function acquireWithExitListener(): Promise<{ lock: FileLock; onExit: () => void }> {
  const before = new Set(process.listeners("exit"));
  const lock = await acquireFileLock(lockPath, options);
  const added = process.listeners("exit").filter((listener) => !before.has(listener));
  expect(added).toHaveLength(1);
  return { lock, onExit: added[0] as () => void };
}

describe("acquireFileLock", () => {
  it("writes the owner (pid, host, start time from the clock, command, a nonce) and leaves no temp file", async () => {
    const lock = await acquireFileLock(lockPath, options);
    expect(lock.path).toBe(lockPath);
    const text = await readFile(lockPath, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    const owner = JSON.parse(text) as Record<string, unknown>;
    expect(owner).toEqual({
      pid: process.pid,
      host: hostname(),
      startedAt: "2026-11-21T08:30:00.000Z",
      command: "users import staff.csv",
      nonce: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    await lock.release();
    expect(await readdir(dir.path)).toEqual([]);
  });

  it("two holders: the second is refused (exit 2) naming the first run's pid and start, sending nothing", async () => {
    const first = await acquireFileLock(lockPath, options);
    const error = await failure(acquireFileLock(lockPath, { ...options, now: () => T0 + 5_000 }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect(error.message).toBe(
      `an import of staff.csv is already running in another simadmin process (pid ${process.pid}, started 2026-11-21T08:30:00.000Z); nothing was sent`,
    );
    expect((error as UsageError).hint).toBe("wait for it to finish, then run the command again");
    // The refused run leaves the holder's lock as it was, and no temp file.
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    await first.release();
    const second = await acquireFileLock(lockPath, options);
    await second.release();
  });

  it.each([1, 2, 3])("eight runs at once on a dead owner's lock: exactly one wins (round %i)", async () => {
    // Before the takeover guard, a third run could lock while a second had moved the winner's
    // lock aside: the put-back failed and two runs held the lock.
    await writeFile(lockPath, ownerJson({ pid: deadPid(), nonce: "dead" }));
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireFileLock(lockPath, options)));
    const won = results.filter((r): r is PromiseFulfilledResult<FileLock> => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(UsageError);
    const holder = JSON.parse(await readFile(lockPath, "utf8")) as { pid: number; nonce: string };
    expect(holder.pid).toBe(process.pid);
    expect(holder.nonce).not.toBe("dead");
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    await won[0]?.value.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it("a takeover guard left by a run that died is cleared, and the dead owner's lock taken over", async () => {
    await writeFile(lockPath, ownerJson({ pid: deadPid(), nonce: "dead" }));
    await writeFile(`${lockPath}.takeover`, ownerJson({ pid: deadPid(), nonce: "dead-guard" }));
    const lock = await acquireFileLock(lockPath, options);
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ command: "users import staff.csv" });
    await lock.release();
  });

  it("a takeover guard that names no owner is cleared too", async () => {
    await writeFile(lockPath, ownerJson({ pid: deadPid(), nonce: "dead" }));
    await writeFile(`${lockPath}.takeover`, "");
    const lock = await acquireFileLock(lockPath, options);
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    await lock.release();
  });

  it("while a live run is taking over, the dead owner's lock stays and the run stops, naming the other runs", async () => {
    const dead = ownerJson({ pid: deadPid(), nonce: "dead" });
    await writeFile(lockPath, dead);
    await writeFile(`${lockPath}.takeover`, ownerJson({ nonce: "taking-over" }));
    const error = await failure(acquireFileLock(lockPath, options));
    expect(error.message).toBe("an import of staff.csv is being started by other simadmin runs at this moment; nothing was sent");
    expect(await readFile(lockPath, "utf8")).toBe(dead);
    expect((await readdir(dir.path)).sort()).toEqual(["staff.csv.lock", "staff.csv.lock.takeover"]);
  });

  it("takes over a lock whose owner (this host) no longer runs", async () => {
    await writeFile(lockPath, ownerJson({ pid: deadPid(), nonce: "dead" }));
    const lock = await acquireFileLock(lockPath, options);
    const owner = JSON.parse(await readFile(lockPath, "utf8")) as { nonce: string; command: string };
    expect(owner.nonce).not.toBe("dead");
    expect(owner.command).toBe("users import staff.csv");
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    await lock.release();
  });

  it("never takes over another host's lock: refused, naming the host and the file to remove", async () => {
    await writeFile(lockPath, ownerJson({ pid: deadPid(), host: "build-07", startedAt: "2026-11-20T07:00:00.000Z" }));
    const error = await failure(acquireFileLock(lockPath, options));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(
      /^an import of staff\.csv is already running in another simadmin process \(pid \d+ on host build-07, started 2026-11-20T07:00:00\.000Z\); nothing was sent$/,
    );
    expect((error as UsageError).hint).toBe(
      `wait for it to finish; if that run is gone, remove ${lockPath} and run the command again`,
    );
    expect(await readFile(lockPath, "utf8")).toContain('"host":"build-07"');
  });

  it("an owner without a start time, command or nonce is still an owner (its start shown empty)", async () => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, host: hostname() }));
    const error = await failure(acquireFileLock(lockPath, options));
    expect(error.message).toBe(
      `an import of staff.csv is already running in another simadmin process (pid ${process.pid}, started ); nothing was sent`,
    );
  });

  it.each([
    ["an empty lock file", ""],
    ["a lock cut short", '{"pid":12'],
    ["a pid that is not a number", JSON.stringify({ pid: "123", host: "h" })],
    ["no host", JSON.stringify({ pid: 123 })],
  ])("%s, written a minute ago or less, names no owner: refused with the file to remove", async (_name, content) => {
    await writeFile(lockPath, content);
    const mtime = new Date(T0 - 60_000);
    await utimes(lockPath, mtime, mtime);
    const error = await failure(acquireFileLock(lockPath, options));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`an import of staff.csv is locked by ${lockPath}, which names no owner; nothing was sent`);
    expect((error as UsageError).hint).toBe(`if no other simadmin run is working on it, remove ${lockPath}`);
    expect(await readFile(lockPath, "utf8")).toBe(content);
  });

  it("an empty lock file older than a minute is taken over", async () => {
    await writeFile(lockPath, "");
    const mtime = new Date(T0 - 60_001);
    await utimes(lockPath, mtime, mtime);
    const lock = await acquireFileLock(lockPath, options);
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ pid: process.pid, command: "users import staff.csv" });
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    await lock.release();
  });

  it("a lock that keeps vanishing under it (a dangling link) stops after a few tries, naming the other runs", async () => {
    await symlink(join(dir.path, "nowhere"), lockPath);
    const error = await failure(acquireFileLock(lockPath, options));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe("an import of staff.csv is being started by other simadmin runs at this moment; nothing was sent");
    expect((error as UsageError).hint).toBe("run it again once they are done");
    expect((await readdir(dir.path)).sort()).toEqual(["staff.csv.lock"]);
  });

  it("a lock path that cannot be read (a directory) is exit 11 naming it", async () => {
    await mkdir(lockPath);
    const error = await failure(acquireFileLock(lockPath, options));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(`cannot read the lock file ${lockPath}: is a directory (EISDIR)`);
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
  });

  it("a directory that does not exist is exit 11: the lock file cannot be created", async () => {
    const path = join(dir.path, "missing", "x.lock");
    const error = await failure(acquireFileLock(path, options));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(`cannot create the lock file ${path}: no such file or directory (ENOENT)`);
  });

  it("the lock file is readable by its owner alone (0600)", async () => {
    const lock = await acquireFileLock(lockPath, options);
    expect((await stat(lockPath)).mode & 0o777).toBe(0o600);
    await lock.release();
  });

  it("an old empty lock rewritten by a live run just before the takeover is left to that run", async () => {
    await writeFile(lockPath, "");
    const old = new Date(T0 - 120_000);
    await utimes(lockPath, old, old);
    let calls = 0;
    const error = await failure(
      acquireFileLock(lockPath, {
        ...options,
        // The second reading of the clock is the look at the unreadable lock: a live run
        // writes its lock at that moment, between the look and the takeover.
        now: () => {
          if (++calls === 2) {
            writeFileSync(lockPath, ownerJson({ nonce: "live", startedAt: "2026-11-21T08:29:00.000Z" }));
            utimesSync(lockPath, old, old);
          }
          return T0;
        },
      }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(
      `an import of staff.csv is already running in another simadmin process (pid ${process.pid}, started 2026-11-21T08:29:00.000Z); nothing was sent`,
    );
    expect(await readFile(lockPath, "utf8")).toBe(ownerJson({ nonce: "live", startedAt: "2026-11-21T08:29:00.000Z" }));
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
  });

  it("release leaves a lock replaced by unreadable content, quietly", async () => {
    const lock = await acquireFileLock(lockPath, options);
    await writeFile(lockPath, "{not json");
    await lock.release();
    expect(await readFile(lockPath, "utf8")).toBe("{not json");
  });

  it("release removes only its own lock: a later run's lock stays", async () => {
    const lock = await acquireFileLock(lockPath, options);
    await writeFile(lockPath, ownerJson({ nonce: "later-run" }));
    await lock.release();
    expect(await readFile(lockPath, "utf8")).toBe(ownerJson({ nonce: "later-run" }));
  });

  it("release of a lock someone removed is quiet; releasing twice removes nothing the second time", async () => {
    const lock = await acquireFileLock(lockPath, options);
    await lock.release();
    const other = await acquireFileLock(lockPath, options);
    // The first handle is spent: it must not remove the second run's lock.
    await lock.release();
    expect(existsSync(lockPath)).toBe(true);
    await other.release();
    expect(existsSync(lockPath)).toBe(false);
    await other.release();
  });

  it("on process exit the lock is removed synchronously; release() afterwards touches nothing", async () => {
    const { lock, onExit } = await acquireWithExitListener();
    onExit();
    expect(existsSync(lockPath)).toBe(false);
    await writeFile(lockPath, "someone else's");
    onExit();
    await lock.release();
    expect(await readFile(lockPath, "utf8")).toBe("someone else's");
  });

  it("release() removes the exit listener; the listener of a lock removed by hand is quiet", async () => {
    const { lock, onExit } = await acquireWithExitListener();
    await lock.release();
    expect(process.listeners("exit")).not.toContain(onExit);
    const second = await acquireWithExitListener();
    await writeFile(lockPath, "replaced");
    const { rm } = await import("node:fs/promises");
    await rm(lockPath);
    expect(() => second.onExit()).not.toThrow();
    await second.lock.release();
  });
});

describe("acquireWaitingLock", () => {
  let t: number;
  let sleeps: number[];
  let notices: { at: number; owner: unknown }[];
  const guarded = (): { path: string; action: string } => ({
    path: join(dir.path, "settings.json"),
    action: "write the settings file",
  });
  const waitOptions = (extra: Partial<Parameters<typeof acquireWaitingLock>[1]> = {}) => ({
    guarded: guarded(),
    command: "config set",
    now: () => t,
    // Each wait moves the clock 500 ms, whatever was asked: the bounds are exact.
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += 500;
    },
    maxWaitMs: 2_400,
    onWait: (owner: unknown) => notices.push({ at: t, owner }),
    ...extra,
  });
  beforeEach(() => {
    t = T0;
    sleeps = [];
    notices = [];
    vi.spyOn(Math, "random").mockReturnValue(0.95);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("takes a free lock at once, writing its owner", async () => {
    const lock = await acquireWaitingLock(lockPath, waitOptions());
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({
      pid: process.pid,
      host: hostname(),
      startedAt: "2026-11-21T08:30:00.000Z",
      command: "config set",
    });
    expect(sleeps).toEqual([]);
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
    await lock.release();
    expect(await readdir(dir.path)).toEqual([]);
  });

  it.each([
    ["an empty lock file", ""],
    ["a dead owner's lock", "dead"],
  ])("takes over %s at once, without waiting", async (_name, kind) => {
    await writeFile(lockPath, kind === "" ? "" : ownerJson({ pid: deadPid(), nonce: "dead" }));
    const lock = await acquireWaitingLock(lockPath, waitOptions());
    expect(sleeps).toEqual([]);
    expect(notices).toEqual([]);
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ pid: process.pid, command: "config set" });
    await lock.release();
  });

  it("waits for a live holder: one notice after 1 s, then gives up past its limit (exit 11 naming the lock)", async () => {
    await writeFile(lockPath, ownerJson({ command: "config set", nonce: "holder" }));
    const error = await failure(acquireWaitingLock(lockPath, waitOptions()));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(
      `cannot write the settings file ${guarded().path}: its lock ${lockPath} has been held by another simadmin run (pid ${process.pid}, config set) for more than 2 s`,
    );
    expect((error as LocalFileError).code).toBe("EBUSY");
    expect((error as LocalFileError).path).toBe(lockPath);
    expect((error as LocalFileError).hint).toBe(
      `if that run is gone or stuck, remove ${lockPath} and try again; nothing was changed`,
    );
    // Waited 0, 500, …, 2500 ms: given up at the first look past 2,400 ms; each pause 10 ms + jitter.
    expect(sleeps).toEqual([19, 19, 19, 19, 19]);
    expect(notices).toEqual([{ at: T0 + 1_000, owner: expect.objectContaining({ pid: process.pid, nonce: "holder" }) }]);
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
  });

  it("a dangling symbolic link at the lock's path is waited for, then named — never a busy loop", async () => {
    await symlink(join(dir.path, "nowhere"), lockPath);
    const error = await failure(acquireWaitingLock(lockPath, waitOptions()));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(
      `cannot write the settings file ${guarded().path}: its lock ${lockPath} is taken by something that cannot be read (a dangling symbolic link?)`,
    );
    expect((error as LocalFileError).hint).toBe(`remove ${lockPath} and try again; nothing was changed`);
    // One retry at once (a holder letting go between the link and the read), then paced:
    // waited 0, 500, …, 2,500 ms and given up at the first look past 2,400 ms.
    expect(sleeps).toEqual([19, 19, 19, 19, 19]);
    expect(notices).toEqual([]);
  });

  it("a wait of exactly the limit is not yet too long", async () => {
    await writeFile(lockPath, ownerJson({ nonce: "holder" }));
    const error = await failure(acquireWaitingLock(lockPath, waitOptions({ maxWaitMs: 2_000 })));
    expect(error.message).toContain("for more than 2 s");
    expect(sleeps).toHaveLength(5);
  });

  it("the notice comes when the wait reaches noticeAfterMs, once", async () => {
    await writeFile(lockPath, ownerJson({ nonce: "holder" }));
    await failure(acquireWaitingLock(lockPath, waitOptions({ noticeAfterMs: 1_500 })));
    expect(notices.map((n) => n.at)).toEqual([T0 + 1_500]);
  });

  it("another host's live-looking lock is waited for and named with its host", async () => {
    await writeFile(lockPath, ownerJson({ pid: 4242, host: "build-07", command: "profile add" }));
    const error = await failure(acquireWaitingLock(lockPath, waitOptions({ onWait: undefined })));
    expect(error.message).toBe(
      `cannot write the settings file ${guarded().path}: its lock ${lockPath} has been held by another simadmin run (pid 4242 on host build-07, profile add) for more than 2 s`,
    );
  });

  it("an owner without a command is named with an empty command", async () => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, host: hostname() }));
    const error = await failure(acquireWaitingLock(lockPath, waitOptions()));
    expect(error.message).toBe(
      `cannot write the settings file ${guarded().path}: its lock ${lockPath} has been held by another simadmin run (pid ${process.pid}, ) for more than 2 s`,
    );
  });

  it("the waiting lock's file is readable by its owner alone (0600)", async () => {
    const lock = await acquireWaitingLock(lockPath, waitOptions());
    expect((await stat(lockPath)).mode & 0o777).toBe(0o600);
    await lock.release();
  });

  it("gets the lock once the holder lets go", async () => {
    await writeFile(lockPath, ownerJson({ nonce: "holder" }));
    const { rm } = await import("node:fs/promises");
    const lock = await acquireWaitingLock(
      lockPath,
      waitOptions({
        sleep: async (ms: number) => {
          sleeps.push(ms);
          t += 500;
          if (sleeps.length === 2) await rm(lockPath);
        },
      }),
    );
    expect(sleeps).toHaveLength(2);
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ command: "config set" });
    await lock.release();
  });

  it("a lock that cannot be made (no directory) is exit 11 naming the guarded file, with the reason", async () => {
    const path = join(dir.path, "gone", "settings.json.lock");
    const error = await failure(acquireWaitingLock(path, waitOptions()));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(`cannot write the settings file ${guarded().path}: no such file or directory (ENOENT)`);
    expect((error as LocalFileError).hint).toBe(
      `its lock file ${path} could not be made: free some space or fix the permissions of its directory; nothing was changed`,
    );
  });
});
