import type { RateLimitedOutcome, Reservation } from "../../src/api/rate/budget.js";
import type { RateLimits, RequestGroup } from "../../src/api/rate/limits.js";

// One case table for the rate budget's arithmetic, run against both implementations of it:
// RateBudget (src/api/rate/budget.ts, test/unit/rate-budget-cases.test.ts) and the Redis Lua
// script (src/api/rate/redis-budget.lua.ts, test/http/redis-budget-lua.test.ts), with the
// same `now` given to each (issue 27 item 2). Expectations are written out as numbers.

/** The budget's operations with an explicit clock, as both implementations can offer them. */
export interface BudgetEngine {
  reserve(group: RequestGroup, now: number, maxWaitMs?: number): Promise<Reservation>;
  settle(group: RequestGroup, slotAt: number, now: number): Promise<number>;
  release(group: RequestGroup, slotAt: number, now: number): Promise<void>;
  note(group: RequestGroup, sentAt: number, now: number, retryAfterMs?: number): Promise<RateLimitedOutcome>;
  /** The group's recorded sends, in the order kept. */
  sends(group: RequestGroup): Promise<number[]>;
}

export const T0 = 1_800_000_000_000;
/** 3 per 10 s: margin 150 ms, horizon 10 150 ms. */
export const CASE_LIMITS: RateLimits = { reports: { limit: 3, windowMs: 10_000 }, access: { limit: 5, windowMs: 20_000 } };

export interface BudgetCase {
  name: string;
  run(engine: BudgetEngine, expect: (actual: unknown) => { toEqual(expected: unknown): void }): Promise<void>;
}

async function three(engine: BudgetEngine): Promise<number[]> {
  const slots: number[] = [];
  for (let i = 0; i < 3; i++) slots.push((await engine.reserve("reports", T0 + i * 100)).slotAt);
  return slots;
}

export const BUDGET_CASES: BudgetCase[] = [
  {
    name: "three sends go at once, the fourth waits for the oldest + window + margin",
    async run(engine, expect) {
      expect(await three(engine)).toEqual([T0, T0 + 100, T0 + 200]);
      expect(await engine.reserve("reports", T0 + 300)).toEqual({ reserved: true, waitMs: 9_850, slotAt: T0 + 10_150 });
    },
  },
  {
    name: "a slot beyond maxWaitMs is not taken, and nothing is recorded",
    async run(engine, expect) {
      await three(engine);
      expect(await engine.reserve("reports", T0 + 300, 9_849)).toEqual({ reserved: false, waitMs: 9_850, slotAt: T0 + 10_150 });
      expect(await engine.reserve("reports", T0 + 300, 9_850)).toEqual({ reserved: true, waitMs: 9_850, slotAt: T0 + 10_150 });
      expect(await engine.sends("reports")).toEqual([T0, T0 + 100, T0 + 200, T0 + 10_150]);
    },
  },
  {
    name: "the groups are apart",
    async run(engine, expect) {
      await three(engine);
      expect((await engine.reserve("access", T0 + 300)).waitMs).toEqual(0);
      expect(await engine.sends("access")).toEqual([T0 + 300]);
    },
  },
  {
    name: "release frees the slot it names",
    async run(engine, expect) {
      await three(engine);
      await engine.release("reports", T0 + 100, T0 + 300);
      expect(await engine.sends("reports")).toEqual([T0, T0 + 200]);
      expect((await engine.reserve("reports", T0 + 300)).waitMs).toEqual(0);
    },
  },
  {
    name: "release of a slot not found frees nothing (not the newest send)",
    async run(engine, expect) {
      await three(engine);
      await engine.release("reports", T0 + 150, T0 + 300);
      expect(await engine.sends("reports")).toEqual([T0, T0 + 100, T0 + 200]);
    },
  },
  {
    name: "settle moves the send to when the attempt ended, keeping the sends in order",
    async run(engine, expect) {
      await three(engine);
      expect(await engine.settle("reports", T0, T0 + 500)).toEqual(T0 + 500);
      expect(await engine.sends("reports")).toEqual([T0 + 100, T0 + 200, T0 + 500]);
      // The window now ends at the oldest send that is left: T0 + 100.
      expect((await engine.reserve("reports", T0 + 600)).slotAt).toEqual(T0 + 10_250);
    },
  },
  {
    name: "settle moves a send by at most MAX_ARRIVAL_DELAY_MS, and never before its slot",
    async run(engine, expect) {
      await three(engine);
      expect(await engine.settle("reports", T0 + 100, T0 + 5_000)).toEqual(T0 + 1_100);
      expect(await engine.settle("reports", T0 + 200, T0 + 200)).toEqual(T0 + 200);
      expect(await engine.sends("reports")).toEqual([T0, T0 + 200, T0 + 1_100]);
    },
  },
  {
    name: "settle of a slot not found records the send anew and drops no other",
    async run(engine, expect) {
      await three(engine);
      expect(await engine.settle("reports", T0 + 50, T0 + 60)).toEqual(T0 + 60);
      expect(await engine.sends("reports")).toEqual([T0, T0 + 60, T0 + 100, T0 + 200]);
    },
  },
  {
    name: "a 429 the accounting predicted changes nothing but forgets the refused send",
    async run(engine, expect) {
      await three(engine);
      const fourth = await engine.reserve("reports", T0 + 300);
      // Shown three accepted sends in the window before it: the limit of 3 explains the 429.
      expect(await engine.note("reports", fourth.slotAt, T0 + 300)).toEqual({ shrunk: false, effectiveLimit: 3 });
      expect(await engine.sends("reports")).toEqual([T0, T0 + 100, T0 + 200]);
    },
  },
  {
    name: "a 429 for a send not found forgets nothing",
    async run(engine, expect) {
      await three(engine);
      expect(await engine.note("reports", T0 + 150, T0 + 300)).toEqual({ shrunk: false, effectiveLimit: 3 });
      expect(await engine.sends("reports")).toEqual([T0, T0 + 100, T0 + 200]);
    },
  },
  {
    name: "two unexpected 429s lower nothing; the third lowers the limit to the most sends accepted",
    async run(engine, expect) {
      const first = await engine.reserve("reports", T0);
      const second = await engine.reserve("reports", T0 + 100);
      // Refused with one accepted send before it (first): strike 1.
      expect(await engine.note("reports", second.slotAt, T0 + 200)).toEqual({ shrunk: false, effectiveLimit: 3 });
      const third = await engine.reserve("reports", T0 + 300);
      expect(await engine.note("reports", third.slotAt, T0 + 400)).toEqual({ shrunk: false, effectiveLimit: 3 });
      const fourth = await engine.reserve("reports", T0 + 500);
      expect(await engine.note("reports", fourth.slotAt, T0 + 600)).toEqual({ shrunk: true, effectiveLimit: 1 });
      expect(await engine.sends("reports")).toEqual([first.slotAt]);
      // One per window now: the next slot is after the first send's window.
      expect((await engine.reserve("reports", T0 + 700)).slotAt).toEqual(T0 + 10_150);
    },
  },
  {
    name: "strikes older than one window (and margin) do not count",
    async run(engine, expect) {
      await engine.reserve("reports", T0);
      const a = await engine.reserve("reports", T0 + 100);
      expect(await engine.note("reports", a.slotAt, T0 + 200)).toEqual({ shrunk: false, effectiveLimit: 3 });
      const b = await engine.reserve("reports", T0 + 300);
      expect(await engine.note("reports", b.slotAt, T0 + 400)).toEqual({ shrunk: false, effectiveLimit: 3 });
      // 10 150 ms (window and margin) after them both strikes have expired: these are 1 and 2 again.
      const c = await engine.reserve("reports", T0 + 10_600);
      expect(await engine.note("reports", c.slotAt, T0 + 10_600)).toEqual({ shrunk: false, effectiveLimit: 3 });
      const d = await engine.reserve("reports", T0 + 10_700);
      expect(await engine.note("reports", d.slotAt, T0 + 10_700)).toEqual({ shrunk: false, effectiveLimit: 3 });
      const e = await engine.reserve("reports", T0 + 10_800);
      expect(await engine.note("reports", e.slotAt, T0 + 10_800)).toEqual({ shrunk: true, effectiveLimit: 1 });
    },
  },
  {
    name: "a Retry-After holds the group back, for at most one window; 0 holds nothing",
    async run(engine, expect) {
      const a = await engine.reserve("reports", T0);
      await engine.note("reports", a.slotAt, T0 + 100, 0);
      expect((await engine.reserve("reports", T0 + 100)).waitMs).toEqual(0);
      const b = await engine.reserve("reports", T0 + 200);
      await engine.note("reports", b.slotAt, T0 + 300, 5_000);
      expect((await engine.reserve("reports", T0 + 300)).waitMs).toEqual(5_000);
      const c = await engine.reserve("access", T0 + 400);
      await engine.note("access", c.slotAt, T0 + 400, 3_600_000);
      expect((await engine.reserve("access", T0 + 400)).waitMs).toEqual(20_000);
    },
  },
];
