import { statSync, unlinkSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLedger } from "../../src/api/rate/file-store.js";
import { isProcessAlive } from "../../src/api/rate/ledger-lock.js";
import type { RateLimits } from "../../src/api/rate/limits.js";
import { createFakeClock, type Clock } from "../../src/clock.js";
import { InterruptedError } from "../../src/errors.js";

// The lock of the file ledger (src/api/rate/ledger-lock.ts) in the cases
// test/unit/rate-file-store.test.ts leaves open (issue 27, mutation testing): the notice at
// exactly 1 s, releasing only our own lock, a lock path that cannot be read, the write's
// clean-up. Real files under os.tmpdir(), a fake lock clock; no wall-clock bounds.

const T0 = 1_800_000_000_000;
const LIMITS: RateLimits = { reports: { limit: 3, windowMs: 10_000 }, access: { limit: 5, windowMs: 20_000 } };

let dir: string;
let path: string;
let lockPath: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-file-lock-"));
  path = join(dir, "settings", "rate-ledger.json");
  lockPath = `${path}.lock`;
  await mkdir(join(dir, "settings"));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** A live lock of someone else (this process's pid, so it is never taken as dead). */
function holdLock(time: number, token = "someone-else"): Promise<void> {
  return writeFile(lockPath, JSON.stringify({ pid: process.pid, time, token }));
}

/** A lock clock whose poll sleeps each move time on by `stepMs`; every `freeAt`-th sleep removes the lock. */
function pollClock(stepMs: number, freeAt = Number.POSITIVE_INFINITY): Clock & { sleeps: number[] } {
  const clock = createFakeClock(T0);
  return {
    ...clock,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      clock.advance(stepMs);
      if (clock.sleeps.length % freeAt === 0) unlinkSync(lockPath);
    },
  };
}

function ledger(lockClock: Clock, warnings: string[] = [], signal?: AbortSignal): RateLedger {
  return new RateLedger({
    limits: LIMITS,
    clock: createFakeClock(T0),
    path,
    lockClock,
    staleLockMs: 60_000,
    signal,
    warn: (text) => warnings.push(text),
  });
}

const notice = () => `waiting for the rate budget's lock ${lockPath}, held by another simadmin run`;

describe("the notice that a run waits for the lock", () => {
  it("is not given for a wait of 999 ms", async () => {
    const lockClock = pollClock(999, 2);
    await holdLock(lockClock.now());
    const warnings: string[] = [];
    await ledger(lockClock, warnings).reserve("reports");
    expect(lockClock.sleeps).toHaveLength(2);
    expect(warnings).toEqual([]);
  });

  it("is given once the wait reaches exactly 1 s", async () => {
    const lockClock = pollClock(1_000, 2);
    await holdLock(lockClock.now());
    const warnings: string[] = [];
    await ledger(lockClock, warnings).reserve("reports");
    expect(lockClock.sleeps).toHaveLength(2);
    expect(warnings).toEqual([notice()]);
  });

  it("is given once per run, however many transactions wait", async () => {
    const warnings: string[] = [];
    const lockClock = pollClock(2_000, 2);
    const run = ledger(lockClock, warnings);
    await holdLock(lockClock.now());
    await run.reserve("reports");
    await holdLock(lockClock.now());
    await run.reserve("reports");
    expect(lockClock.sleeps).toHaveLength(2 + 2);
    expect(warnings).toEqual([notice()]);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ groups: { reports: { sends: [T0, T0] } } });
  });
});

describe("the lock", () => {
  it("is made 0600 (the temp file it is linked from is)", async () => {
    const modes = await ledger(pollClock(1)).transact(() => statSync(lockPath).mode & 0o777);
    expect(modes).toBe(0o600);
  });

  it("is not released when another run holds it by then (a stall past the stale age)", async () => {
    await ledger(pollClock(1)).transact(() => writeFileSync(lockPath, JSON.stringify({ pid: 1, time: T0, token: "theirs" })));
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toEqual({ pid: 1, time: T0, token: "theirs" });
  });

  it("missing at release (taken over and let go meanwhile) ends the transaction normally", async () => {
    await expect(ledger(pollClock(1)).transact(() => (unlinkSync(lockPath), 7))).resolves.toBe(7);
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger.json"]);
  });

  it("at a path that cannot be read (a dangling symbolic link) is waited for and then given up, never spun on", async () => {
    await symlink(join(dir, "nowhere"), lockPath);
    const lockClock = pollClock(2_000);
    const warnings: string[] = [];
    expect(await ledger(lockClock, warnings).reserve("reports")).toEqual({ reserved: true, waitMs: 0, slotAt: T0 });
    // Polls at 0, 2, 4, 6, 8 and 10 s, as for a held lock; past 10 s the run keeps its own budget.
    expect(lockClock.sleeps).toEqual([7, 7, 7, 7, 7, 7]);
    expect(warnings).toEqual([
      notice(),
      `the shared rate budget ${path} cannot be used: rate ledger lock ${lockPath} is held too long; this run keeps its own budget`,
    ]);
  });

  it("is not even tried when the run is already interrupted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(ledger(pollClock(1), [], controller.signal).reserve("reports")).rejects.toBeInstanceOf(InterruptedError);
    expect(await readdir(join(dir, "settings"))).toEqual([]);
  });
});

describe("writing the ledger", () => {
  it("removes its temp file when the rename fails (a directory at the ledger's path)", async () => {
    await mkdir(path);
    expect(await ledger(pollClock(1)).reserve("reports")).toEqual({ reserved: true, waitMs: 0, slotAt: T0 });
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger.json"]);
    expect(await readdir(path)).toEqual([]);
  });
});

describe("isProcessAlive", () => {
  it("counts a process of another user (EPERM) as alive, a missing one (ESRCH) as gone", () => {
    const kill = vi.spyOn(process, "kill");
    kill.mockImplementationOnce(() => {
      throw Object.assign(new Error("kill EPERM"), { code: "EPERM" });
    });
    expect(isProcessAlive(4242)).toBe(true);
    kill.mockImplementationOnce(() => {
      throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
    });
    expect(isProcessAlive(4242)).toBe(false);
    expect(kill.mock.calls).toEqual([
      [4242, 0],
      [4242, 0],
    ]);
  });
});
