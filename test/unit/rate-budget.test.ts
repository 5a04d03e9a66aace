import { describe, expect, it } from "vitest";
import {
  RateBudget,
  emptyRateBudgetState,
  parseRateBudgetState,
  recoveryStep,
  safetyMarginMs,
} from "../../src/api/rate-budget.js";
import { DEFAULT_RATE_LIMITS, type RateLimits } from "../../src/api/rate-limits.js";

const T0 = Date.UTC(2026, 10, 21);
const limits: RateLimits = DEFAULT_RATE_LIMITS;

describe("safetyMarginMs", () => {
  it.each([
    [10_000, 150],
    [1_000, 150],
    [60_000, 900],
    [300_000, 4_500],
  ])("for a %i ms window is %i ms", (windowMs, margin) => {
    expect(safetyMarginMs(windowMs)).toBe(margin);
  });
});

describe("RateBudget", () => {
  it("lets 10 report requests go at once and makes the 11th wait until oldest + 60 s + 900 ms", () => {
    const budget = new RateBudget(limits);
    for (let i = 0; i < 10; i++) expect(budget.reserve("reports", T0).waitMs).toBe(0);
    expect(budget.waitMs("reports", T0)).toBe(60_900);
    const eleventh = budget.reserve("reports", T0 + 5_000);
    expect(eleventh).toEqual({ waitMs: 55_900, slotAt: T0 + 60_900, reserved: true });
  });

  it("slides the window: each freed slot is one of the oldest sends plus window and margin", () => {
    const budget = new RateBudget(limits);
    // One send a second for ten seconds.
    for (let i = 0; i < 10; i++) expect(budget.reserve("reports", T0 + i * 1_000).waitMs).toBe(0);
    const now = T0 + 10_000;
    const slots = [0, 1, 2].map(() => budget.reserve("reports", now).slotAt - T0);
    expect(slots).toEqual([60_900, 61_900, 62_900]);
    // Much later the window is empty again: ten free sends.
    const later = T0 + 200_000;
    for (let i = 0; i < 10; i++) expect(budget.reserve("reports", later).waitMs).toBe(0);
    expect(budget.waitMs("reports", later)).toBe(60_900);
  });

  it("keeps the groups apart", () => {
    const budget = new RateBudget(limits);
    for (let i = 0; i < 10; i++) budget.reserve("reports", T0);
    expect(budget.waitMs("reports", T0)).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) expect(budget.reserve("access", T0).waitMs).toBe(0);
    expect(budget.waitMs("access", T0)).toBe(300_000 + 4_500);
  });

  it("hands out reserved slots in order, so queued requests never share a slot", () => {
    const budget = new RateBudget({ ...limits, reports: { limit: 2, windowMs: 10_000 } });
    const slots = Array.from({ length: 6 }, () => budget.reserve("reports", T0).slotAt - T0);
    expect(slots).toEqual([0, 0, 10_150, 10_150, 20_300, 20_300]);
  });

  it("does not reserve a slot beyond maxWaitMs", () => {
    const budget = new RateBudget(limits);
    for (let i = 0; i < 10; i++) budget.reserve("reports", T0);
    const refused = budget.reserve("reports", T0, 60_000);
    expect(refused.reserved).toBe(false);
    expect(budget.toState().groups.reports.sends).toHaveLength(10);
  });

  it("holds every send of the group back until a Retry-After has passed", () => {
    const budget = new RateBudget({ ...limits, reports: { limit: 10, windowMs: 10_000 } });
    const sent = Array.from({ length: 3 }, () => budget.reserve("reports", T0).slotAt);
    budget.noteRateLimited("reports", sent[2] ?? 0, T0 + 100, 30_000);
    // The window alone would free a slot at 10.15 s; the service asked for 30 s.
    expect(budget.waitMs("reports", T0 + 100)).toBe(30_000);
    expect(budget.waitMs("access", T0 + 100)).toBe(0);
  });

  describe("adapting to a service stricter than published", () => {
    it("after an unpredicted 429 lowers the limit to the sends the service accepted in the window", () => {
      const budget = new RateBudget(limits);
      const sent = Array.from({ length: 7 }, (_, i) => budget.reserve("reports", T0 + i * 1_000).slotAt);
      // The service allows only 6: the 7th is refused.
      const outcome = budget.noteRateLimited("reports", sent[6] ?? 0, T0 + 6_200);
      expect(outcome).toEqual({ shrunk: true, effectiveLimit: 6 });
      // The next slot frees when the oldest of the last six leaves the window.
      expect(budget.reserve("reports", T0 + 6_200).slotAt - T0).toBe(1_000 + 60_900);
    });

    it("does not shrink again for a 429 its current accounting already explains", () => {
      const budget = new RateBudget(limits);
      const sent = Array.from({ length: 8 }, () => budget.reserve("reports", T0).slotAt);
      expect(budget.noteRateLimited("reports", sent[6] ?? 0, T0 + 100).effectiveLimit).toBe(7);
      // The 8th was in flight under the old limit; its 429 is no news.
      expect(budget.noteRateLimited("reports", sent[7] ?? 0, T0 + 150)).toEqual({ shrunk: false, effectiveLimit: 7 });
    });

    it("shrinks to at least 1 when the window held nothing we know of (ledger lost)", () => {
      const budget = new RateBudget(limits);
      expect(budget.noteRateLimited("reports", T0, T0 + 10)).toEqual({ shrunk: true, effectiveLimit: 1 });
    });

    it("recovers by one per quiet window for reports and by a tenth of the limit for access", () => {
      const budget = new RateBudget(limits);
      budget.noteRateLimited("reports", T0, T0);
      budget.noteRateLimited("access", T0, T0);
      expect(budget.effectiveLimit("reports", T0 + 59_999)).toBe(1);
      expect(budget.effectiveLimit("reports", T0 + 60_000)).toBe(2);
      expect(budget.effectiveLimit("reports", T0 + 3 * 60_000 + 1)).toBe(4);
      expect(budget.effectiveLimit("reports", T0 + 60 * 60_000)).toBe(10);
      expect(recoveryStep(100)).toBe(10);
      expect(budget.effectiveLimit("access", T0 + 300_000)).toBe(11);
      expect(budget.effectiveLimit("access", T0 + 10 * 300_000)).toBe(100);
      expect(budget.toState().groups.access.reducedLimit).toBeNull();
    });

    it("waits twice as long before the next step each time a recovery step meets another 429", () => {
      const budget = new RateBudget(limits);
      const probe = (now: number): void => {
        // The service allows 6: after six sends in the window the next is refused.
        const sent = Array.from({ length: 7 }, () => budget.reserve("reports", now).slotAt);
        budget.noteRateLimited("reports", sent[6] ?? 0, now);
      };
      probe(T0);
      expect(budget.effectiveLimit("reports", T0)).toBe(6);
      expect(budget.effectiveLimit("reports", T0 + 60_000)).toBe(7);
      const t1 = T0 + 61_000;
      probe(t1);
      expect(budget.toState().groups.reports.failedProbes).toBe(1);
      expect(budget.effectiveLimit("reports", t1 + 60_000)).toBe(6);
      expect(budget.effectiveLimit("reports", t1 + 2 * 60_000)).toBe(7);
      const t2 = t1 + 121_000;
      probe(t2);
      expect(budget.effectiveLimit("reports", t2 + 3 * 60_000)).toBe(6);
      expect(budget.effectiveLimit("reports", t2 + 4 * 60_000)).toBe(7);
      // Full recovery forgets the failed probes.
      expect(budget.effectiveLimit("reports", t2 + 16 * 60_000)).toBe(10);
      expect(budget.toState().groups.reports.failedProbes).toBe(0);
    });

    it("starts counting quiet windows again at every new shrink, more slowly while still reduced", () => {
      const budget = new RateBudget(limits);
      const first = Array.from({ length: 5 }, () => budget.reserve("reports", T0).slotAt);
      budget.noteRateLimited("reports", first[4] ?? 0, T0); // → 4
      expect(budget.effectiveLimit("reports", T0 + 60_000)).toBe(5);
      const later = T0 + 100_000;
      const second = Array.from({ length: 3 }, () => budget.reserve("reports", later).slotAt);
      expect(budget.noteRateLimited("reports", second[2] ?? 0, later)).toEqual({ shrunk: true, effectiveLimit: 2 });
      expect(budget.effectiveLimit("reports", later + 119_999)).toBe(2);
      expect(budget.effectiveLimit("reports", later + 120_000)).toBe(3);
    });
  });

  describe("state", () => {
    it("round-trips through JSON, so the ledger can persist it", () => {
      const budget = new RateBudget(limits);
      for (let i = 0; i < 10; i++) budget.reserve("reports", T0 + i);
      budget.noteRateLimited("reports", T0 + 9, T0 + 20, 5_000);
      const restored = parseRateBudgetState(JSON.parse(JSON.stringify(budget.toState())));
      expect(restored).toBeDefined();
      const copy = new RateBudget(limits, restored);
      expect(copy.waitMs("reports", T0 + 20)).toBe(budget.waitMs("reports", T0 + 20));
      expect(copy.effectiveLimit("reports", T0 + 20)).toBe(9);
    });

    it.each([null, 42, "x", {}, { version: 2, groups: {} }, { version: 1, groups: { reports: {} } }])(
      "rejects %j as state",
      (value) => {
        expect(parseRateBudgetState(value)).toBeUndefined();
      },
    );

    it("forgets sends that can no longer matter", () => {
      const budget = new RateBudget(limits);
      for (let i = 0; i < 10; i++) budget.reserve("reports", T0);
      budget.waitMs("reports", T0 + 10 * 60_000);
      expect(budget.toState().groups.reports.sends).toEqual([]);
      expect(new RateBudget(limits, emptyRateBudgetState()).waitMs("reports", T0)).toBe(0);
    });

    it("clamps a reduced limit to a configured limit that was lowered since", () => {
      const state = emptyRateBudgetState();
      state.groups.reports = { sends: [], reducedLimit: 8, adjustedAt: T0, failedProbes: 0, blockedUntil: 0 };
      const budget = new RateBudget({ ...limits, reports: { limit: 5, windowMs: 60_000 } }, state);
      expect(budget.effectiveLimit("reports", T0)).toBe(5);
    });
  });
});
