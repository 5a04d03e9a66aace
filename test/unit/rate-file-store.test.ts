import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RateLedger, budgetAddressHash, isLedgerOwnerAlive, ledgerOwner, ledgerPathFor } from "../../src/api/rate/file-store.js";
import { isProcessAlive } from "../../src/api/rate/ledger-lock.js";
import type { RateLimits } from "../../src/api/rate/limits.js";
import { createFakeClock, type Clock } from "../../src/clock.js";

// The file ledger (src/api/rate/file-store.ts) beyond test/unit/rate-ledger.test.ts: who owns a
// reservation, the lock's waits and give-ups on a fake lock clock, what the files look like.
// Real files under os.tmpdir(); no wall-clock bounds.

const T0 = 1_800_000_000_000;
const LIMITS: RateLimits = { reports: { limit: 3, windowMs: 10_000 }, access: { limit: 5, windowMs: 20_000 } };

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-file-store-"));
  path = join(dir, "settings", "rate-ledger.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (one for the file: starting node is slow). */
let dead: number;
beforeAll(() => {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid;
  if (pid === undefined || isProcessAlive(pid)) throw new Error("could not get a dead pid");
  dead = pid;
});

/** A lock clock whose every poll sleep moves time on by `stepMs` (and records the sleep asked for). */
function steppingClock(stepMs: number): Clock & { sleeps: number[] } {
  const clock = createFakeClock(Date.now());
  return {
    ...clock,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      clock.advance(stepMs);
    },
  };
}

async function holdLock(time: number): Promise<void> {
  await mkdir(join(dir, "settings"), { recursive: true });
  await writeFile(`${path}.lock`, JSON.stringify({ pid: process.pid, time, token: "someone-else" }));
}

describe("owners of reservations", () => {
  it("names this host and a process", () => {
    expect(ledgerOwner(4242)).toBe(`${hostname()}:4242`);
    expect(ledgerOwner()).toBe(`${hostname()}:${process.pid}`);
  });

  it("a process of this host is alive while it runs; another host's always counts as alive", () => {
    expect(isLedgerOwnerAlive(`${hostname()}:${process.pid}`)).toBe(true);
    expect(isLedgerOwnerAlive(`${hostname()}:${dead}`)).toBe(false);
    expect(isLedgerOwnerAlive(`other-host:${dead}`)).toBe(true);
    // Not a pid this version wrote: it cannot be checked, so it is kept.
    expect(isLedgerOwnerAlive(`${hostname()}:x`)).toBe(true);
    // The host is all before the last colon.
    expect(isLedgerOwnerAlive(`${hostname()}:1:${dead}`)).toBe(true);
  });

  it("isProcessAlive: this process and pid 1 are; a finished one, 0 and negative pids are not", () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(1)).toBe(true);
    expect(isProcessAlive(dead)).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
  });
});

describe("the ledger's file name", () => {
  it("hashes the host and port of the address, or the text itself when it is not a URL", () => {
    expect(budgetAddressHash("https://api.example.com/v2")).toBe("d0c43d3885064d9a");
    expect(ledgerPathFor("/cfg", "not a url")).toBe("/cfg/rate-ledger-d8b5bf9b9fd4760c.json");
  });
});

describe("RateLedger", () => {
  it("describes where it keeps the budget", () => {
    expect(new RateLedger({ limits: LIMITS, clock: createFakeClock(T0) }).description).toBe("memory");
    const ledger = new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path });
    expect(ledger.description).toBe(`file ${path}`);
    expect(ledger.path).toBe(path);
  });

  it("creates the settings directory 0700 and writes the state as one JSON line, 0600", async () => {
    const clock = createFakeClock(T0);
    const ledger = new RateLedger({ limits: LIMITS, clock, path, owner: "me:1" });
    await ledger.reserve("reports");
    expect((await stat(join(dir, "settings"))).mode & 0o777).toBe(0o700);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const empty = { sends: [], reducedLimit: null, adjustedAt: 0, failedProbes: 0, blockedUntil: 0, pending: [], strikes: [] };
    expect(await readFile(path, "utf8")).toBe(
      `${JSON.stringify({
        version: 1,
        groups: { reports: { ...empty, sends: [T0], pending: [{ at: T0, owner: "me:1" }] }, access: empty },
      })}\n`,
    );
  });

  it("settles at the end it is given, or now; notes a 429; snapshots the shared state", async () => {
    const clock = createFakeClock(T0);
    const ledger = new RateLedger({ limits: LIMITS, clock, path });
    const a = await ledger.reserve("reports");
    const b = await ledger.reserve("reports");
    expect(await ledger.settle("reports", a.slotAt, 0, T0 + 300)).toBe(T0 + 300);
    clock.advance(40);
    expect(await ledger.settle("reports", b.slotAt)).toBe(T0 + 40);
    expect(await ledger.noteRateLimited("reports", T0 + 40, 2_000)).toEqual({ shrunk: false, effectiveLimit: 3 });
    const other = new RateLedger({ limits: LIMITS, clock, path });
    const state = await other.snapshot();
    expect(state.groups.reports).toMatchObject({ sends: [T0 + 300], blockedUntil: T0 + 2_040, pending: [] });
    await ledger.close();
  });

  it("releases the slots of a dead run's queued requests when any other run opens the ledger", async () => {
    const clock = createFakeClock(T0);
    const gone = new RateLedger({ limits: LIMITS, clock, path, owner: `${hostname()}:${dead}` });
    for (let i = 0; i < 4; i++) await gone.reserve("reports");
    const state = await new RateLedger({ limits: LIMITS, clock, path }).snapshot();
    expect(state.groups.reports.sends).toEqual([T0, T0, T0]);
    expect(state.groups.reports.pending).toEqual([]);
  });

  it("waits for a live lock, says so once after a second, and gives up after 10 s with its own budget", async () => {
    const lockClock = steppingClock(2_000);
    await holdLock(lockClock.now());
    const warnings: string[] = [];
    const clock = createFakeClock(T0);
    const ledger = new RateLedger({
      limits: LIMITS,
      clock,
      path,
      lockClock,
      staleLockMs: 60_000,
      warn: (text) => warnings.push(text),
    });
    expect(await ledger.reserve("reports")).toEqual({ reserved: true, waitMs: 0, slotAt: T0 });
    // Polls at 0, 2, 4, 6, 8 and 10 s, each after a sleep of 5 ms + half of 5 ms jitter; past 10 s it stops.
    expect(lockClock.sleeps).toEqual([7, 7, 7, 7, 7, 7]);
    expect(warnings).toEqual([
      `waiting for the rate budget's lock ${path}.lock, held by another simadmin run`,
      `the shared rate budget ${path} cannot be used: rate ledger lock ${path}.lock is held too long; this run keeps its own budget`,
    ]);
    // The budget it keeps goes on in memory: the fourth reservation waits for the first.
    const slots = [];
    for (let i = 0; i < 3; i++) slots.push((await ledger.reserve("reports")).slotAt);
    expect(slots).toEqual([T0, T0, T0 + 10_150]);
    expect(warnings).toHaveLength(2);
    // The lock it waited for is left to its holder, the shared file was never written.
    expect(JSON.parse(await readFile(`${path}.lock`, "utf8"))).toMatchObject({ token: "someone-else" });
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger.json.lock"]);
  });

  it("gives a slot back without waiting more than 300 ms for the lock", async () => {
    const lockClock = steppingClock(100);
    const ledger = new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, lockClock, staleLockMs: 60_000 });
    const { slotAt } = await ledger.reserve("reports");
    await holdLock(lockClock.now());
    await ledger.release("reports", slotAt);
    // Polls at 0, 100, 200 and 300 ms, gives up past 300 ms.
    expect(lockClock.sleeps).toHaveLength(4);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ groups: { reports: { sends: [T0] } } });
  });

  it("a lock exactly as old as the stale age is still held; a moment older is taken over", async () => {
    await new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path }).snapshot();
    const lockClock = steppingClock(1);
    await holdLock(lockClock.now() - 1_000);
    const ledger = new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, lockClock, staleLockMs: 1_003 });
    await ledger.reserve("reports");
    // Ages 1000 to 1003 ms are held; at 1004 it is taken over.
    expect(lockClock.sleeps).toHaveLength(4);
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger.json"]);
  });

  it("a lock stamped up to 1 s ahead is another machine's clock, not a stale one; further ahead it is taken over", async () => {
    await new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path }).snapshot();
    const held = steppingClock(2_000);
    await holdLock(held.now() + 1_000);
    await new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, lockClock: held, staleLockMs: 60_000 }).snapshot();
    // Held until the 10 s give-up.
    expect(held.sleeps).toHaveLength(6);
    const ahead = steppingClock(2_000);
    await holdLock(ahead.now() + 1_001);
    await new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, lockClock: ahead, staleLockMs: 60_000 }).snapshot();
    expect(ahead.sleeps).toEqual([]);
  });

  it("takes over at once a fresh lock that has no readable time", async () => {
    await new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path }).snapshot();
    for (const content of [`{"pid":${process.pid},"time":"soon"}`, `{"pid":${process.pid}}`, "null", '"text"']) {
      const lockClock = steppingClock(1);
      await writeFile(`${path}.lock`, content);
      await new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, lockClock, staleLockMs: 60_000 }).snapshot();
      expect({ content, sleeps: lockClock.sleeps }).toEqual({ content, sleeps: [] });
    }
  });

  it("names the cause when the settings directory cannot be used", async () => {
    const blocker = join(dir, "file");
    await writeFile(blocker, "");
    const warnings: string[] = [];
    const bad = join(blocker, "rate-ledger.json");
    await new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path: bad, warn: (t) => warnings.push(t) }).reserve(
      "reports",
    );
    expect(warnings).toHaveLength(1);
    const [before, after] = warnings[0]!.split(/\.[0-9a-z]+(?:-[0-9a-z]+)+\.tmp/);
    expect([before, after]).toEqual([
      `the shared rate budget ${bad} cannot be used: ENOTDIR: not a directory, open '${bad}.lock`,
      "'; this run keeps its own budget",
    ]);
  });
});
