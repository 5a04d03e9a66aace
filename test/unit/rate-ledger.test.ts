import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { parseRateBudgetState } from "../../src/api/rate/budget.js";
import { RateLedger, ledgerOwner, ledgerPathFor } from "../../src/api/rate/file-store.js";
import { isProcessAlive } from "../../src/api/rate/ledger-lock.js";
import { DEFAULT_RATE_LIMITS } from "../../src/api/rate/limits.js";
import { Scheduler, type WaitEvent } from "../../src/api/rate/scheduler.js";

const T0 = Date.UTC(2026, 10, 21);
const report = { group: "reports", retry: "safe", label: "report" } as const;

let dir: string;
let ledgerPath: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-ledger-"));
  ledgerPath = join(dir, "settings", "rate-ledger-default.json");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  const pid = child.pid;
  if (pid === undefined || isProcessAlive(pid)) throw new Error("could not get a dead pid");
  return pid;
}

async function storedState() {
  return parseRateBudgetState(JSON.parse(await readFile(ledgerPath, "utf8")));
}

describe("RateLedger shared through a file", () => {
  it("lets two schedulers with the same ledger share one budget: the 11th request across both waits", async () => {
    const clock = createFakeClock(T0);
    const events: WaitEvent[] = [];
    const first = new Scheduler({ limits: DEFAULT_RATE_LIMITS, retries: 5, clock, ledgerPath });
    const second = new Scheduler({ limits: DEFAULT_RATE_LIMITS, retries: 5, clock, ledgerPath, onWait: (e) => events.push(e) });
    for (let i = 0; i < 5; i++) {
      await first.run(report, async () => "ok");
      await second.run(report, async () => "ok");
    }
    expect(clock.now()).toBe(T0);
    await second.run(report, async () => "ok");
    expect(events.map((e) => e.waitMs)).toEqual([60_900]);
    expect(clock.now()).toBe(T0 + 60_900);
  });

  it("gives concurrent requests of two schedulers distinct slots, never more than 10 per window", async () => {
    // Time stands still (the fake clock would add up the concurrent sleeps): every slot is
    // reserved at T0, so the stored sends are exactly the slots handed out.
    const clock = { ...createFakeClock(T0), sleep: async () => undefined };
    const schedulers = [0, 1].map(() => new Scheduler({ limits: DEFAULT_RATE_LIMITS, retries: 5, clock, ledgerPath }));
    await Promise.all(Array.from({ length: 30 }, (_, i) => schedulers[i % 2]!.run(report, async () => "ok")));
    const sends = (await storedState())?.groups.reports.sends ?? [];
    expect(sends).toHaveLength(30);
    for (let i = 10; i < sends.length; i++) expect(sends[i]! - sends[i - 10]!).toBeGreaterThanOrEqual(60_900);
    expect(sends.at(-1)! - T0).toBe(2 * 60_900);
  });

  it("writes the ledger with mode 0600 and leaves no lock or temp file behind", async () => {
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath });
    await ledger.reserve("access");
    expect((await stat(ledgerPath)).mode & 0o777).toBe(0o600);
    expect((await storedState())?.groups.access.sends).toEqual([T0]);
    expect(existsSync(`${ledgerPath}.lock`)).toBe(false);
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger-default.json"]);
  });

  it("resets a corrupt ledger", async () => {
    const clock = createFakeClock(T0);
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock, path: ledgerPath });
    await ledger.reserve("reports");
    for (const garbage of ["{not json", '{"version":1,"groups":{"reports":"x"}}', ""]) {
      await writeFile(ledgerPath, garbage);
      await expect(ledger.reserve("reports")).resolves.toMatchObject({ waitMs: 0, reserved: true });
      expect((await storedState())?.groups.reports.sends).toEqual([T0]);
    }
  });

  it("takes over a lock whose process is dead", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    await writeFile(`${ledgerPath}.lock`, JSON.stringify({ pid: deadPid(), time: Date.now() }));
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath });
    await expect(ledger.reserve("reports")).resolves.toMatchObject({ reserved: true });
    expect((await storedState())?.groups.reports.sends).toEqual([T0, T0]);
    expect(existsSync(`${ledgerPath}.lock`)).toBe(false);
  });

  it("takes over a lock held too long by a live process", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    await writeFile(`${ledgerPath}.lock`, JSON.stringify({ pid: process.pid, time: Date.now() - 6_000 }));
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath });
    await expect(ledger.reserve("reports")).resolves.toMatchObject({ reserved: true });
    expect(existsSync(`${ledgerPath}.lock`)).toBe(false);
  });

  it("takes over a lock stamped in the future, even with a live pid (clock stepped back; issue 12 item 9)", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    await writeFile(`${ledgerPath}.lock`, JSON.stringify({ pid: process.pid, time: Date.now() + 3_600_000 }));
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath });
    await expect(ledger.reserve("reports")).resolves.toMatchObject({ reserved: true });
    // Taken over, not waited out: the shared file holds both sends.
    expect((await storedState())?.groups.reports.sends).toEqual([T0, T0]);
    expect(existsSync(`${ledgerPath}.lock`)).toBe(false);
  });

  it("frees the queued slots of a run that died while waiting (issue 12 item 10)", async () => {
    const clock = createFakeClock(T0);
    const first = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock, path: ledgerPath, owner: ledgerOwner(deadPid()) });
    for (let i = 0; i < 10; i++) await first.reserve("reports");
    // The dead run had queued an 11th for a window later, and never sent it.
    expect((await first.reserve("reports")).waitMs).toBe(60_900);
    const next = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock, path: ledgerPath });
    // Its ten due sends may have gone out and still count; the queued one does not.
    expect((await next.reserve("reports")).waitMs).toBe(60_900);
    expect((await storedState())?.groups.reports.sends).toHaveLength(11);
  });

  it("gives a slot back after Ctrl-C, although the signal has fired", async () => {
    const controller = new AbortController();
    const clock = createFakeClock(T0);
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock, path: ledgerPath, signal: controller.signal });
    const { slotAt } = await ledger.reserve("access");
    controller.abort();
    await ledger.release("access", slotAt);
    expect((await storedState())?.groups.access.sends).toEqual([]);
  });

  it("takes over an old, empty lock (its owner died between creating and writing it)", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    const lockPath = `${ledgerPath}.lock`;
    await writeFile(lockPath, "");
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath, old, old);
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath });
    await expect(ledger.reserve("reports")).resolves.toMatchObject({ reserved: true });
  });

  it("takes over a fresh empty lock at once: a lock is never written empty (a full disk left it; issue 22 item 3)", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    await writeFile(`${ledgerPath}.lock`, "");
    const lockClock = createFakeClock(Date.now());
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath, lockClock });
    await expect(ledger.reserve("reports")).resolves.toMatchObject({ reserved: true });
    expect(lockClock.sleeps).toEqual([]);
    expect(existsSync(`${ledgerPath}.lock`)).toBe(false);
  });

  it("says once on stderr that it waits when the lock stays held over a second (issue 22 item 3)", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    const start = Date.now();
    const lockClock = createFakeClock(start);
    await writeFile(`${ledgerPath}.lock`, JSON.stringify({ pid: process.pid, time: start }));
    const warnings: string[] = [];
    const ledger = new RateLedger({
      limits: DEFAULT_RATE_LIMITS,
      clock: createFakeClock(T0),
      path: ledgerPath,
      lockClock,
      staleLockMs: 1_500,
      warn: (text) => warnings.push(text),
    });
    // The live holder never lets go: told after ~1 s, taken over as stale after 1.5 s.
    await ledger.reserve("reports");
    expect(warnings).toEqual([`waiting for the rate budget's lock ${ledgerPath}.lock, held by another simadmin run`]);
    // Polled every 7 ms (5 ms + half of 5 ms jitter): stale at the first look past 1.5 s.
    expect(lockClock.now() - start).toBe(1_505);
  });

  it("says once that it keeps its own budget when the ledger's directory cannot be written", async () => {
    const blocker = join(dir, "not-a-directory");
    await writeFile(blocker, "");
    const warnings: string[] = [];
    const path = join(blocker, "rate-ledger.json");
    const ledger = new RateLedger({
      limits: DEFAULT_RATE_LIMITS,
      clock: createFakeClock(T0),
      path,
      warn: (t) => warnings.push(t),
    });
    await ledger.reserve("reports");
    await ledger.reserve("reports");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`the shared rate budget ${path} cannot be used`);
    expect(warnings[0]).toContain("this run keeps its own budget");
  });

  it("waits for a lock held by another live process instead of taking it", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    const lockPath = `${ledgerPath}.lock`;
    // A second node process holds the lock for 300 ms, then checks it is still its own.
    const holder = `
      const fs = require("node:fs");
      const lock = ${JSON.stringify(lockPath)};
      const mine = JSON.stringify({ pid: process.pid, time: Date.now() });
      fs.writeFileSync(lock, mine, { flag: "wx" });
      process.stdout.write("locked\\n");
      setTimeout(() => {
        const still = fs.readFileSync(lock, "utf8") === mine;
        fs.unlinkSync(lock);
        process.exit(still ? 0 : 3);
      }, 300);`;
    const child = spawn(process.execPath, ["-e", holder], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));

    const started = Date.now();
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath });
    await ledger.reserve("reports");
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await exited).toBe(0);
    expect((await storedState())?.groups.reports.sends).toHaveLength(2);
  });

  it("keeps the budget in memory when the ledger cannot be written", async () => {
    const blocker = join(dir, "not-a-directory");
    await writeFile(blocker, "");
    const clock = createFakeClock(T0);
    const scheduler = new Scheduler({
      limits: DEFAULT_RATE_LIMITS,
      retries: 5,
      clock,
      ledgerPath: join(blocker, "rate-ledger-default.json"),
    });
    for (let i = 0; i < 11; i++) await scheduler.run(report, async () => "ok");
    expect(clock.now()).toBe(T0 + 60_900);
  });

  it("lets an interruption through while waiting for the lock", async () => {
    await new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock: createFakeClock(T0), path: ledgerPath }).reserve("reports");
    await writeFile(`${ledgerPath}.lock`, JSON.stringify({ pid: process.pid, time: Date.now() }));
    const controller = new AbortController();
    const ledger = new RateLedger({
      limits: DEFAULT_RATE_LIMITS,
      clock: createFakeClock(T0),
      path: ledgerPath,
      signal: controller.signal,
    });
    const reserving = ledger.reserve("reports");
    setTimeout(() => controller.abort(), 50);
    await expect(reserving).rejects.toThrow("interrupted");
  });
});

describe("RateLedger without a path", () => {
  it("keeps the budget in memory", async () => {
    const clock = createFakeClock(T0);
    const ledger = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock });
    for (let i = 0; i < 10; i++) expect((await ledger.reserve("reports")).waitMs).toBe(0);
    expect((await ledger.reserve("reports")).waitMs).toBe(60_900);
    expect(ledger.path).toBeUndefined();
  });
});

describe("ledgerPathFor", () => {
  it("keeps one ledger per service host, whatever the profile and however the address is written (issue 22 item 5)", () => {
    const prod = ledgerPathFor("/cfg", "https://api.example.com");
    expect(ledgerPathFor("/cfg", "HTTPS://API.example.com:443/")).toBe(prod);
    expect(ledgerPathFor("/cfg", "https://api.example.com/v2/")).toBe(prod);
    expect(ledgerPathFor("/cfg", "https://staging.example.com")).not.toBe(prod);
    expect(ledgerPathFor("/cfg", "https://api.example.com:8443")).not.toBe(prod);
    expect(prod).toMatch(/^\/cfg\/rate-ledger-[0-9a-f]{16}\.json$/);
  });
});
