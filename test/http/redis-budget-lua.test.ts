import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUDGET_SCRIPT } from "../../src/api/rate/redis-budget.lua.js";
import type { RequestGroup } from "../../src/api/rate/limits.js";
import { BUDGET_CASES, CASE_LIMITS, type BudgetEngine } from "../helpers/rate-budget-cases.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

// The Redis Lua script against the same case table as RateBudget (test/helpers/rate-budget-cases.ts;
// issue 27 item 2). The script reads the server's clock (TIME); here that one line reads the
// case's `now` from an extra argument instead, so both implementations see the same times.

const CLOCK_LINE = "local time = redis.call('TIME')";
const SCRIPT_AT_NOW = BUDGET_SCRIPT.replace(
  CLOCK_LINE,
  "local time = { tostring(math.floor(tonumber(ARGV[9]) / 1000)), tostring((tonumber(ARGV[9]) % 1000) * 1000) }",
);

let redis: TestRedis;
let client: Redis;
beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0 });
  await client.connect();
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});

let caseNumber = 0;
function luaEngine(): BudgetEngine {
  const base = `test:lua:${++caseNumber}:`;
  const run = async (group: RequestGroup, op: string, now: number, a1 = 0, a2 = 0): Promise<unknown> => {
    const { limit, windowMs } = CASE_LIMITS[group];
    // A live owner, as every run is (its lease is renewed by each call): its reservations
    // are never freed as abandoned, so the sends compare with RateBudget's.
    return client.eval(SCRIPT_AT_NOW, 1, `${base}${group}`, op, limit, windowMs, `${base}owner:`, "run", 30_000, a1, a2, now);
  };
  return {
    async reserve(group, now, maxWaitMs) {
      const [reserved, waitMs, slotAt] = (await run(group, "reserve", now, maxWaitMs ?? -1)) as number[];
      return { reserved: reserved === 1, waitMs: waitMs ?? NaN, slotAt: slotAt ?? NaN };
    },
    async settle(group, slotAt, now) {
      const [sentAt] = (await run(group, "settle", now, slotAt)) as number[];
      return sentAt ?? NaN;
    },
    async release(group, slotAt, now) {
      await run(group, "release", now, slotAt);
    },
    async note(group, sentAt, now, retryAfterMs) {
      const [shrunk, effectiveLimit] = (await run(group, "note", now, sentAt, retryAfterMs ?? -1)) as number[];
      return { shrunk: shrunk === 1, effectiveLimit: effectiveLimit ?? NaN };
    },
    async sends(group) {
      const raw = await client.get(`${base}${group}`);
      const sends = raw === null ? [] : (JSON.parse(raw) as { sends: number[] | Record<string, never> }).sends;
      // cjson writes an empty array as {}.
      return Array.isArray(sends) ? sends : [];
    },
  };
}

describe("the Redis budget script: the shared case table", () => {
  it("the clock line the test replaces is in the script", () => {
    expect(BUDGET_SCRIPT).toContain(CLOCK_LINE);
  });

  it.each(BUDGET_CASES.map((c) => [c.name, c] as const))("%s", async (_name, testCase) => {
    await testCase.run(luaEngine(), expect);
  });
});
