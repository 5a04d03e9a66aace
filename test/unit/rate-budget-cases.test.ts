import { describe, expect, it } from "vitest";
import { RateBudget, emptyRateBudgetState } from "../../src/api/rate/budget.js";
import { BUDGET_CASES, CASE_LIMITS, T0, type BudgetEngine } from "../helpers/rate-budget-cases.js";

// The shared case table (test/helpers/rate-budget-cases.ts) against RateBudget; the Redis Lua
// script runs the same table in test/http/redis-budget-lua.test.ts.

function engineOf(budget: RateBudget): BudgetEngine {
  return {
    reserve: async (group, now, maxWaitMs) => budget.reserve(group, now, maxWaitMs),
    settle: async (group, slotAt, now) => budget.settle(group, slotAt, now),
    release: async (group, slotAt) => budget.release(group, slotAt),
    note: async (group, sentAt, now, retryAfterMs) => budget.noteRateLimited(group, sentAt, now, retryAfterMs),
    sends: async (group) => budget.toState().groups[group].sends,
  };
}

describe("RateBudget: the shared case table", () => {
  it.each(BUDGET_CASES.map((c) => [c.name, c] as const))("%s", async (_name, testCase) => {
    await testCase.run(engineOf(new RateBudget(CASE_LIMITS)), expect);
  });
});

describe("RateBudget: state restored from a ledger", () => {
  it("re-sorts the sends of a restored state, so the window ends at the right one", () => {
    const state = emptyRateBudgetState();
    state.groups.reports.sends = [T0 + 200, T0, T0 + 100];
    const budget = new RateBudget(CASE_LIMITS, state);
    expect(budget.toState().groups.reports.sends).toEqual([T0, T0 + 100, T0 + 200]);
    expect(budget.reserve("reports", T0 + 300).slotAt).toBe(T0 + 10_150);
    // The state handed in is not changed (a copy is kept).
    expect(state.groups.reports.sends).toEqual([T0 + 200, T0, T0 + 100]);
  });

  it("record() keeps the sends in order whatever order they come in", () => {
    const budget = new RateBudget(CASE_LIMITS);
    for (const at of [T0 + 300, T0 + 100, T0 + 200, T0, T0 + 100]) budget.record("reports", at);
    expect(budget.toState().groups.reports.sends).toEqual([T0, T0 + 100, T0 + 100, T0 + 200, T0 + 300]);
  });

  it("a slot handed out with an owner is pending until settled or released", () => {
    const budget = new RateBudget(CASE_LIMITS);
    const a = budget.reserve("reports", T0, undefined, "run-a");
    const b = budget.reserve("reports", T0, undefined, "run-a");
    budget.reserve("reports", T0);
    expect(budget.toState().groups.reports.pending).toEqual([
      { at: a.slotAt, owner: "run-a" },
      { at: b.slotAt, owner: "run-a" },
    ]);
    budget.settle("reports", a.slotAt, T0 + 10);
    budget.release("reports", T0 + 5);
    expect(budget.toState().groups.reports.pending).toEqual([{ at: b.slotAt, owner: "run-a" }]);
  });
});
