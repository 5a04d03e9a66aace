import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BudgetStore } from "../../src/api/rate/store.js";
import { budgetAddressHash } from "../../src/api/rate/file-store.js";
import { parseRateLimits } from "../../src/api/rate/limits.js";
import { RedisBudgetStore } from "../../src/api/rate/redis-store.js";
import { createRateStore, parseRateStore } from "../../src/api/rate/open-store.js";
import { Scheduler, type WaitEvent } from "../../src/api/rate/scheduler.js";
import { createFakeClock, systemClock } from "../../src/clock.js";
import { closedPort } from "../helpers/cli.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The Redis budget store against a real redis-server (issue 17): keys, the server's clock,
// and what a run does when Redis is unreachable or disappears mid-run.

const PASSWORD = "pw-s3cret-for-tests";
const limits = parseRateLimits("reports=10/10s,access=100/300s");
const report = { group: "reports", retry: "safe", label: "report" } as const;

let redis: TestRedis;
const stores: BudgetStore[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function ledgerPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "simadmin-redis-store-"));
  dirs.push(dir);
  return join(dir, "rate-ledger.json");
}

async function connect(baseUrl: string): Promise<RedisBudgetStore> {
  const store = await RedisBudgetStore.connect({ location: parseRateStore(redis.url)!, baseUrl, limits });
  stores.push(store);
  return store;
}

describe("the Redis store", () => {
  it("keys the budget by base URL and group, never by API key", async () => {
    const a = await connect("https://api.example.com");
    const b = await connect("https://staging.example.com");
    await a.reserve("reports");
    await b.reserve("access");
    const inspect = new Redis({ port: redis.port, password: PASSWORD });
    try {
      const keys = (await inspect.keys("simadmin:rate:v1:*")).filter((key) => !key.includes(":owner:")).sort();
      const prod = budgetAddressHash("https://api.example.com");
      const staging = budgetAddressHash("https://staging.example.com");
      expect(keys).toEqual(
        expect.arrayContaining([`simadmin:rate:v1:{${prod}}:reports`, `simadmin:rate:v1:{${staging}}:access`]),
      );
      // Nothing else: no key per API key or profile (the other tests use other addresses).
      for (const key of keys) expect(key).toMatch(/^simadmin:rate:v1:\{[0-9a-f]{16}\}:(reports|access)$/);
    } finally {
      inspect.disconnect();
    }
  });

  it("shares one window between machines whose clocks are a century apart (the server's TIME is the clock)", async () => {
    const baseUrl = "https://clock.example.com";
    const [early, late] = [createFakeClock(Date.UTC(2000, 0, 1)), createFakeClock(Date.UTC(2100, 0, 1))];
    const waits: WaitEvent[] = [];
    const machineA = new Scheduler({ limits, retries: 0, clock: early, store: await connect(baseUrl) });
    const machineB = new Scheduler({
      limits,
      retries: 0,
      clock: late,
      store: await connect(baseUrl),
      onWait: (e) => waits.push(e),
    });
    for (let i = 0; i < 5; i++) {
      await machineA.run(report, async () => "ok");
      await machineB.run(report, async () => "ok");
    }
    expect(waits).toEqual([]);
    await machineB.run(report, async () => "ok");
    // The 11th waits for the first send to leave the 10 s window (+150 ms margin).
    expect(waits).toHaveLength(1);
    expect(waits[0]!.waitMs).toBeGreaterThan(10_150 - 2_000);
    expect(waits[0]!.waitMs).toBeLessThanOrEqual(10_150);
  });
});

describe("when Redis fails", () => {
  it("unreachable at start: one warning naming it without the password, and the local ledger", async () => {
    const warnings: string[] = [];
    const port = await closedPort();
    const store = await createRateStore({
      setting: `redis://ci:${PASSWORD}@127.0.0.1:${port}/0`,
      baseUrl: "https://api.example.com",
      limits,
      ledgerPath: await ledgerPath(),
      clock: systemClock,
      warn: (text) => warnings.push(text),
    });
    stores.push(store);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`redis://127.0.0.1:${port}/0 cannot be used (connect ECONNREFUSED 127.0.0.1:${port})`);
    expect(warnings[0]).not.toContain("Connection is closed");
    expect(warnings[0]).toContain("this run keeps this machine's own budget instead");
    expect(warnings[0]).not.toContain(PASSWORD);
    expect(store.description).toMatch(/^file /);
    expect(await store.reserve("reports")).toMatchObject({ reserved: true, waitMs: 0 });
  });

  it("a wrong password: one warning, without the password", async () => {
    const warnings: string[] = [];
    const url = new URL(redis.url);
    url.password = "wrong-password-123";
    const store = await createRateStore({
      setting: url.href,
      baseUrl: "https://api.example.com",
      limits,
      ledgerPath: await ledgerPath(),
      clock: systemClock,
      warn: (text) => warnings.push(text),
    });
    stores.push(store);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cannot be used \(WRONGPASS invalid username-password pair/);
    expect(warnings[0]).not.toContain("Connection is closed");
    expect(warnings[0]).not.toContain("wrong-password-123");
    expect(warnings[0]).not.toContain(PASSWORD);
  });
});

describe("Redis killed mid-run", () => {
  it("costs one warning: the run goes on with the local ledger, every request gets through", async () => {
    const own = await startRedis({ password: PASSWORD });
    const warnings: string[] = [];
    const path = await ledgerPath();
    try {
      const store = await createRateStore({
        setting: own.url,
        baseUrl: "https://api.example.com",
        limits,
        ledgerPath: path,
        clock: systemClock,
        warn: (text) => warnings.push(text),
      });
      stores.push(store);
      expect(store.description).toBe(`redis redis://127.0.0.1:${own.port}/0`);
      const scheduler = new Scheduler({ limits, retries: 0, clock: systemClock, store });
      const answers: string[] = [];
      for (let i = 0; i < 3; i++) answers.push(await scheduler.run(report, async () => "ok"));
      expect(warnings).toEqual([]);
      await own.kill();
      for (let i = 0; i < 4; i++) answers.push(await scheduler.run(report, async () => "ok"));
      expect(answers).toHaveLength(7);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^the shared rate budget at redis:\/\/127\.0\.0\.1:\d+\/0 cannot be used \(.+\); this run keeps/,
      );
      expect(warnings[0]).not.toContain(PASSWORD);
      expect(store.description).toBe(`file ${path}`);
      // The local ledger counts what was sent after the switch.
      expect((await store.snapshot()).groups.reports.sends.length).toBeGreaterThanOrEqual(4);
    } finally {
      await own.stop();
    }
  });
});
