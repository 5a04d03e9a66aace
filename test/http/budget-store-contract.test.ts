import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BudgetStore } from "../../src/api/rate/store.js";
import { RateLedger, ledgerOwner } from "../../src/api/rate/file-store.js";
import { isProcessAlive } from "../../src/api/rate/ledger-lock.js";
import { parseRateLimits } from "../../src/api/rate/limits.js";
import { RedisBudgetStore } from "../../src/api/rate/redis-store.js";
import { parseRateStore } from "../../src/api/rate/open-store.js";
import { systemClock } from "../../src/clock.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

// The budget-store contract (issue 17 item 2): the same tests against the file ledger and
// against Redis. Both use real time here — Redis's clock is the server's TIME, which a test
// cannot fake — so the windows are short (3 per 1 s, margin 150 ms) and a wait is checked
// against what the store's own arithmetic must give, give or take the milliseconds between
// two calls.

const limits = parseRateLimits("reports=3/1s,access=100/300s");
const WINDOW_PLUS_MARGIN = 1_150;

interface Backing {
  /** A store on the shared backing; `gone`: its owner is a run that no longer exists. */
  open(options?: { gone?: boolean }): Promise<BudgetStore>;
  /** Makes a `gone` store's owner visibly gone (a dead pid is at once; a lease must expire). */
  forget(store: BudgetStore): Promise<void>;
}

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

const opened: BudgetStore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function deadPid(): number {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid;
  if (pid === undefined || isProcessAlive(pid)) throw new Error("could not get a dead pid");
  return pid;
}

const fileBacking = async (): Promise<Backing> => {
  const dir = await mkdtemp(join(tmpdir(), "simadmin-contract-"));
  dirs.push(dir);
  const path = join(dir, "rate-ledger.json");
  return {
    open: async (options = {}) => {
      const store = new RateLedger({
        limits,
        clock: systemClock,
        path,
        ...(options.gone ? { owner: ledgerOwner(deadPid()) } : {}),
      });
      opened.push(store);
      return store;
    },
    forget: async () => undefined,
  };
};

let redisBases = 0;
const redisBacking = async (): Promise<Backing> => {
  // A service host of its own per test: its own keys, as for another service address (the
  // budget is per host: a path would share them).
  const baseUrl = `https://contract-${++redisBases}-${process.pid}.example.com`;
  return {
    open: async (options = {}) => {
      const store = await RedisBudgetStore.connect({
        location: parseRateStore(redis.url)!,
        baseUrl,
        limits,
        ...(options.gone ? { leaseMs: 100 } : {}),
      });
      opened.push(store);
      return store;
    },
    forget: async (store) => {
      await store.close();
      await new Promise((resolve) => setTimeout(resolve, 250));
    },
  };
};

describe.each([
  ["file ledger", fileBacking],
  ["redis", redisBacking],
])("budget store contract: %s", (_name, makeBacking) => {
  it("hands out the limit at once, then the next slot a window plus margin after the oldest", async () => {
    const store = await (await makeBacking()).open();
    const first = await store.reserve("reports");
    expect(first).toMatchObject({ reserved: true, waitMs: 0 });
    for (let i = 0; i < 2; i++) expect(await store.reserve("reports")).toMatchObject({ reserved: true, waitMs: 0 });
    const before = Date.now();
    const fourth = await store.reserve("reports");
    const after = Date.now();
    expect(fourth.reserved).toBe(true);
    // The store's clock runs on between the calls: the slot is exact, the wait is what is left
    // of it at the moment of the call — bracketed by this machine's clock around it (1 ms of
    // rounding each way), however long a loaded machine takes between the calls.
    expect(fourth.slotAt - first.slotAt).toBe(WINDOW_PLUS_MARGIN);
    expect(fourth.waitMs).toBeGreaterThanOrEqual(fourth.slotAt - after - 1);
    expect(fourth.waitMs).toBeLessThanOrEqual(Math.min(WINDOW_PLUS_MARGIN, fourth.slotAt - before + 1));
    // The groups are apart.
    expect(await store.reserve("access")).toMatchObject({ reserved: true, waitMs: 0 });
  });

  it("shares one budget between the stores on one backing (processes, machines)", async () => {
    const backing = await makeBacking();
    const [a, b] = [await backing.open(), await backing.open()];
    const first = await a.reserve("reports");
    await b.reserve("reports");
    await a.reserve("reports");
    const before = Date.now();
    const queued = await b.reserve("reports");
    const after = Date.now();
    expect(queued.slotAt - first.slotAt).toBe(WINDOW_PLUS_MARGIN);
    expect(queued.waitMs).toBeGreaterThanOrEqual(queued.slotAt - after - 1);
    expect(queued.waitMs).toBeLessThanOrEqual(queued.slotAt - before + 1);
    expect((await a.snapshot()).groups.reports.sends).toHaveLength(4);
  });

  it("does not take a slot beyond maxWaitMs, and records nothing", async () => {
    const store = await (await makeBacking()).open();
    const first = await store.reserve("reports");
    for (let i = 0; i < 2; i++) await store.reserve("reports");
    const refused = await store.reserve("reports", 200);
    expect(refused.reserved).toBe(false);
    expect(refused.slotAt - first.slotAt).toBe(WINDOW_PLUS_MARGIN);
    expect(refused.waitMs).toBeGreaterThan(200);
    expect((await store.snapshot()).groups.reports.sends).toHaveLength(3);
  });

  it("gives back a slot that was never sent", async () => {
    const store = await (await makeBacking()).open();
    for (let i = 0; i < 3; i++) await store.reserve("reports");
    const queued = await store.reserve("reports");
    await store.release("reports", queued.slotAt);
    const state = await store.snapshot();
    expect(state.groups.reports.sends).toHaveLength(3);
    expect(state.groups.reports.sends).not.toContain(queued.slotAt);
  });

  it("settles a send no earlier than its slot and at most 1 s after it", async () => {
    const store = await (await makeBacking()).open();
    const { slotAt } = await store.reserve("access");
    const sentAt = await store.settle("access", slotAt);
    expect(sentAt).toBeGreaterThanOrEqual(slotAt);
    expect(sentAt).toBeLessThanOrEqual(slotAt + 1_000);
    const state = await store.snapshot();
    expect(state.groups.access.sends).toEqual([sentAt]);
    expect(state.groups.access.pending).toEqual([]);
  });

  it("after one 429 with a huge Retry-After lowers nothing and blocks for one window at most", async () => {
    const store = await (await makeBacking()).open();
    const sentAt = await store.settle("reports", (await store.reserve("reports")).slotAt);
    expect(await store.noteRateLimited("reports", sentAt, 999_999_000)).toEqual({ shrunk: false, effectiveLimit: 3 });
    const next = await store.reserve("reports");
    expect(next.waitMs).toBeGreaterThan(0);
    expect(next.waitMs).toBeLessThanOrEqual(1_000);
    const state = await store.snapshot();
    // The next slot is the end of the block, which is one window after the 429 was noted.
    expect(next.slotAt).toBe(state.groups.reports.blockedUntil);
    expect(state.groups.reports.reducedLimit).toBeNull();
    // The refused send does not count.
    expect(state.groups.reports.sends).toEqual([next.slotAt]);
  });

  it("lowers the limit after three unexpected 429s in a window, to the most the service accepted", async () => {
    const store = await (await makeBacking()).open();
    await store.settle("reports", (await store.reserve("reports")).slotAt);
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      const sentAt = await store.settle("reports", (await store.reserve("reports")).slotAt);
      outcomes.push(await store.noteRateLimited("reports", sentAt));
    }
    expect(outcomes.map((o) => o.shrunk)).toEqual([false, false, true]);
    expect(outcomes[2]?.effectiveLimit).toBe(1);
    expect((await store.snapshot()).groups.reports.reducedLimit).toBe(1);
  });

  it("frees the queued slots of a run that is gone, and keeps its due ones", async () => {
    const backing = await makeBacking();
    const gone = await backing.open({ gone: true });
    const first = await gone.reserve("reports");
    for (let i = 0; i < 2; i++) await gone.reserve("reports");
    const queued = await gone.reserve("reports");
    expect(queued.slotAt - first.slotAt).toBe(WINDOW_PLUS_MARGIN);
    await backing.forget(gone);
    const next = await backing.open();
    const state = await next.snapshot();
    expect(state.groups.reports.sends).toHaveLength(3);
    expect(state.groups.reports.sends).not.toContain(queued.slotAt);
  });
});
