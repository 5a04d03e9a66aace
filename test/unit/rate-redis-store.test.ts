import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { budgetAddressHash } from "../../src/api/rate/file-store.js";
import type { RateLimits } from "../../src/api/rate/limits.js";
import { createRateStore, parseRateStore } from "../../src/api/rate/open-store.js";
import { createFakeClock } from "../../src/clock.js";
import { RedisBudgetStore } from "../../src/api/rate/redis-store.js";
import { freePort } from "../helpers/ports.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

// RedisBudgetStore (src/api/rate/redis-store.ts) driven directly against a real redis-server.
// The script's clock is the server's TIME, which a test cannot set: the states are seeded
// with times far in the future (F, year 2096) or far in the past, where the answers no longer
// depend on the server's `now` and can be written out exactly.

const PASSWORD = "unit-pw-123";
const LIMITS: RateLimits = { reports: { limit: 3, windowMs: 10_000 }, access: { limit: 5, windowMs: 20_000 } };
/** Far ahead of any server clock: slots after it are F + window + margin, whatever `now` is. */
const F = 4_000_000_000_000;
/** Long before any server clock. */
const PAST = 1_000_000_000_000;

let redis: TestRedis;
let inspect: Redis;
beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
  inspect = new Redis({ port: redis.port, password: PASSWORD, lazyConnect: true });
  await inspect.connect();
});
afterAll(async () => {
  inspect.disconnect();
  await redis.stop();
});

const stores: RedisBudgetStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

let services = 0;
/** A store on a service address of its own (its own keys). */
async function open(options: { leaseMs?: number } = {}): Promise<{ store: RedisBudgetStore; key: (group: string) => string }> {
  const baseUrl = `https://unit-${++services}.example.com`;
  const store = await RedisBudgetStore.connect({ location: parseRateStore(redis.url)!, baseUrl, limits: LIMITS, ...options });
  stores.push(store);
  const key = (group: string): string => `simadmin:rate:v1:{${budgetAddressHash(baseUrl)}}:${group}`;
  return { store, key };
}

async function seed(key: string, state: Record<string, unknown>): Promise<void> {
  await inspect.set(key, JSON.stringify(state));
}

async function stored(key: string): Promise<Record<string, unknown>> {
  return JSON.parse((await inspect.get(key)) ?? "null") as Record<string, unknown>;
}

describe("RedisBudgetStore", () => {
  it("describes itself by the address, without the password", async () => {
    const { store } = await open();
    expect(store.description).toBe(`redis redis://127.0.0.1:${redis.port}/0`);
  });

  it("keeps each group under the service's key, and the run's lease under owner:", async () => {
    const { store, key } = await open({ leaseMs: 60_000 });
    await store.reserve("access");
    expect((await stored(key("access"))).sends).toHaveLength(1);
    expect(await inspect.exists(key("reports"))).toBe(0);
    const [owner] = ((await stored(key("access"))).pending as { owner: string }[]).map((p) => p.owner);
    const lease = await inspect.pttl(`${key("owner:")}${owner}`);
    expect(lease).toBeGreaterThan(59_000);
    expect(lease).toBeLessThanOrEqual(60_000);
  });

  it("queues a slot behind future sends: the window plus margin after the one it must wait for", async () => {
    const { store, key } = await open();
    await seed(key("reports"), { sends: [F, F + 100, F + 200] });
    const queued = await store.reserve("reports");
    expect(queued.reserved).toBe(true);
    expect(queued.slotAt).toBe(F + 10_150);
    expect(queued.waitMs).toBeGreaterThan(F - 2 * PAST);
    expect((await stored(key("reports"))).sends).toEqual([F, F + 100, F + 200, F + 10_150]);
  });

  it("takes no slot beyond maxWaitMs (a negative one is 0), and takes it without one or with an infinite one", async () => {
    const { store, key } = await open();
    await seed(key("reports"), { sends: [F, F, F] });
    expect(await store.reserve("reports", 5_000)).toMatchObject({ reserved: false, slotAt: F + 10_150 });
    expect(await store.reserve("reports", -5)).toMatchObject({ reserved: false, slotAt: F + 10_150 });
    expect((await stored(key("reports"))).sends).toEqual([F, F, F]);
    expect(await store.reserve("reports", Number.POSITIVE_INFINITY)).toMatchObject({ reserved: true, slotAt: F + 10_150 });
    expect(await store.reserve("reports")).toMatchObject({ reserved: true, slotAt: F + 10_150 });
  });

  it("rounds a fractional maxWaitMs down", async () => {
    const { store, key } = await open();
    // A block of one window from now: the wait is exactly the window (10 s) when nothing else is queued.
    await seed(key("reports"), { blockedUntil: F });
    expect(await store.reserve("reports", 9_999.9)).toMatchObject({ reserved: false, waitMs: 10_000 });
    expect(await store.reserve("reports", 10_000.9)).toMatchObject({ reserved: true, waitMs: 10_000 });
  });

  it("settles a slot in the future at itself, and an old one at most 1 s later", async () => {
    const { store, key } = await open();
    await seed(key("reports"), { sends: [PAST, F] });
    expect(await store.settle("reports", F)).toBe(F);
    expect(await store.settle("reports", PAST)).toBe(PAST + 1_000);
    expect((await stored(key("reports"))).sends).toEqual([PAST + 1_000, F]);
  });

  it("releases the slot it names", async () => {
    const { store, key } = await open();
    await seed(key("reports"), { sends: [F, F + 1, F + 2] });
    await store.release("reports", F + 1);
    expect((await stored(key("reports"))).sends).toEqual([F, F + 2]);
  });

  it("reports 429s: strikes, then the lowered limit; without a Retry-After nothing is blocked", async () => {
    const { store, key } = await open();
    expect(await store.noteRateLimited("access", PAST)).toEqual({ shrunk: false, effectiveLimit: 5 });
    expect(await store.noteRateLimited("access", PAST, -3_000)).toEqual({ shrunk: false, effectiveLimit: 5 });
    expect(await store.noteRateLimited("access", PAST, 0)).toEqual({ shrunk: true, effectiveLimit: 1 });
    expect(await stored(key("access"))).toMatchObject({ blockedUntil: 0, reduced: 1 });
  });

  it("shares a Retry-After with the group, for one window at most", async () => {
    const { store, key } = await open();
    const [before] = await inspect.time();
    await store.noteRateLimited("reports", PAST, 2_500.4);
    await store.noteRateLimited("access", PAST, 999_999_000);
    const [after] = await inspect.time();
    const reports = (await stored(key("reports"))).blockedUntil as number;
    const access = (await stored(key("access"))).blockedUntil as number;
    expect(reports).toBeGreaterThanOrEqual(Number(before) * 1_000 + 2_500);
    expect(reports).toBeLessThanOrEqual((Number(after) + 1) * 1_000 + 2_500);
    expect(access).toBeGreaterThanOrEqual(Number(before) * 1_000 + 20_000);
    expect(access).toBeLessThanOrEqual((Number(after) + 1) * 1_000 + 20_000);
  });

  it("snapshots both groups in budget.ts's shape", async () => {
    const { store, key } = await open();
    await inspect.set(`${key("owner:")}live`, "1", "PX", 60_000);
    await seed(key("reports"), {
      sends: [F, F + 5],
      pending: [{ at: F + 5, owner: "live" }],
      strikes: [{ at: F, accepted: 2 }],
      reduced: 2,
      adjustedAt: F,
      failed: 1,
      blockedUntil: F + 7,
    });
    expect(await store.snapshot()).toEqual({
      version: 1,
      groups: {
        reports: {
          sends: [F, F + 5],
          pending: [{ at: F + 5, owner: "live" }],
          strikes: [{ at: F, accepted: 2 }],
          reducedLimit: 2,
          adjustedAt: F,
          failedProbes: 1,
          blockedUntil: F + 7,
        },
        access: { sends: [], pending: [], strikes: [], reducedLimit: null, adjustedAt: 0, failedProbes: 0, blockedUntil: 0 },
      },
    });
  });

  it("reads odd stored values as empty ones: a strike without numbers, an owner that is not a string", async () => {
    const { store, key } = await open();
    await inspect.set(`${key("owner:")}7`, "1", "PX", 60_000);
    await seed(key("reports"), {
      sends: [F],
      pending: [{ at: F, owner: 7 }],
      strikes: [{ at: "soon", accepted: null }, {}],
    });
    expect((await store.snapshot()).groups.reports).toEqual({
      sends: [F],
      pending: [{ at: F, owner: "" }],
      strikes: [
        { at: 0, accepted: 0 },
        { at: 0, accepted: 0 },
      ],
      reducedLimit: null,
      adjustedAt: 0,
      failedProbes: 0,
      blockedUntil: 0,
    });
  });

  it("renews its lease while it holds queued slots, every third of the lease", async () => {
    const { store, key } = await open({ leaseMs: 3_000 });
    await store.reserve("reports");
    const [owner] = ((await stored(key("reports"))).pending as { owner: string }[]).map((p) => p.owner);
    const lease = `${key("owner:")}${owner}`;
    // Renewed: its time to live goes back up before it runs out (a third of the lease in, 1 s).
    // Set once and never renewed, it only falls until Redis drops the key, one lease in. Watched,
    // not timed: a process starved of CPU for a while (a loaded machine) still sees the one or
    // the other — it took a 200 ms lease and a fixed 450 ms wait before, which failed at load 17.
    let last = await inspect.pttl(lease);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await inspect.pttl(lease);
      expect(now, "the lease ran out: it was never renewed").toBeGreaterThan(0);
      if (now > last) break;
      last = now;
    }
  });

  it("connects with the password; refuses a wrong one with the server's reason", async () => {
    const url = new URL(redis.url);
    url.password = "wrong";
    await expect(
      RedisBudgetStore.connect({ location: parseRateStore(url.href)!, baseUrl: "https://x.example.com", limits: LIMITS }),
    ).rejects.toThrow(/^WRONGPASS invalid username-password pair/);
  });

  it("signs in as the URL's user (a Redis 6 ACL user), not as the default user with that user's password", async () => {
    await inspect.call("ACL", "SETUSER", "fleet", "on", ">fleet-pw-456", "~*", "&*", "+@all");
    const url = new URL(redis.url);
    url.username = "fleet";
    url.password = "fleet-pw-456";
    const store = await RedisBudgetStore.connect({
      location: parseRateStore(url.href)!,
      baseUrl: "https://acl.example.com",
      limits: LIMITS,
    });
    stores.push(store);
    expect(await store.reserve("reports")).toMatchObject({ reserved: true });
    // The store's connection is fleet's (CLIENT LIST names each connection's user).
    expect(String(await inspect.call("CLIENT", "LIST"))).toMatch(/ user=fleet /);
    url.password = PASSWORD; // the default user's password is not fleet's
    await expect(
      RedisBudgetStore.connect({ location: parseRateStore(url.href)!, baseUrl: "https://acl.example.com", limits: LIMITS }),
    ).rejects.toThrow(/^WRONGPASS invalid username-password pair/);
  });

  it("gives up on an address where nothing listens with the connection's cause", async () => {
    const port = await freePort();
    await expect(
      RedisBudgetStore.connect({
        location: parseRateStore(`redis://127.0.0.1:${port}`)!,
        baseUrl: "https://x.example.com",
        limits: LIMITS,
      }),
    ).rejects.toThrow(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it("after close, a call fails at once instead of waiting for a reconnect", async () => {
    const { store } = await open();
    await store.close();
    await expect(store.reserve("reports")).rejects.toThrow("Stream isn't writeable and enableOfflineQueue options is false");
  });
});

describe("createRateStore with Redis reachable", () => {
  it("uses it, says so in the --verbose trace, and warns of nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-open-redis-"));
    const warnings: string[] = [];
    const trace: string[] = [];
    const store = await createRateStore({
      setting: redis.url,
      baseUrl: `https://unit-${++services}.example.com`,
      limits: LIMITS,
      ledgerPath: join(dir, "rate-ledger.json"),
      clock: createFakeClock(PAST),
      warn: (text) => warnings.push(text),
      trace: (line) => trace.push(line),
    });
    try {
      expect(trace).toEqual([`rate budget: redis redis://127.0.0.1:${redis.port}/0`]);
      expect(store.description).toBe(`redis redis://127.0.0.1:${redis.port}/0`);
      expect((await store.reserve("reports")).reserved).toBe(true);
      expect(warnings).toEqual([]);
      // Without a trace listener (no --verbose) just the same.
      const quiet = await createRateStore({
        setting: redis.url,
        baseUrl: `https://unit-${++services}.example.com`,
        limits: LIMITS,
        ledgerPath: join(dir, "rate-ledger.json"),
        clock: createFakeClock(PAST),
        warn: (text) => warnings.push(text),
      });
      expect(quiet.description).toBe(`redis redis://127.0.0.1:${redis.port}/0`);
      expect(warnings).toEqual([]);
      await quiet.close();
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
