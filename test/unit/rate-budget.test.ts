import { describe, expect, it } from "vitest";
import {
  RateBudget,
  emptyRateBudgetState,
  parseRateBudgetState,
  recoveryStep,
  safetyMarginMs,
} from "../../src/api/rate/budget.js";
import { DEFAULT_RATE_LIMITS, type RateLimits } from "../../src/api/rate/limits.js";

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
    expect(budget.waitMs("reports", T0)).toBe(60_900);
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
    budget.noteRateLimited("reports", sent[2] ?? 0, T0 + 100, 5_000);
    // The window alone would let the next send go at once; the service asked for 5 s.
    expect(budget.waitMs("reports", T0 + 100)).toBe(5_000);
    expect(budget.waitMs("access", T0 + 100)).toBe(0);
  });

  describe("after a 429 (issue 12 items 5, 6, 11)", () => {
    it("one unexpected 429 lowers nothing and costs only its Retry-After; the refused send frees its slot", () => {
      const budget = new RateBudget(limits);
      const sent = Array.from({ length: 7 }, (_, i) => budget.reserve("reports", T0 + i * 1_000).slotAt);
      const outcome = budget.noteRateLimited("reports", sent[6] ?? 0, T0 + 6_200, 1_000);
      expect(outcome).toEqual({ shrunk: false, effectiveLimit: 10 });
      expect(budget.waitMs("reports", T0 + 6_200)).toBe(1_000);
      expect(budget.toState().groups.reports.sends).toHaveLength(6);
      // Four more fit in the window after the Retry-After: the run is not slowed.
      for (let i = 0; i < 4; i++) expect(budget.reserve("reports", T0 + 7_200).waitMs).toBe(0);
      expect(budget.waitMs("reports", T0 + 7_200)).toBe(60_900 - 7_200);
    });

    it("a 429 without Retry-After blocks nothing and leaves no lowered limit for later runs", () => {
      const budget = new RateBudget(limits);
      const slot = budget.reserve("access", T0).slotAt;
      budget.noteRateLimited("access", slot, T0 + 50);
      const later = new RateBudget(limits, budget.toState());
      expect(later.effectiveLimit("access", T0 + 60)).toBe(100);
      expect(later.waitMs("access", T0 + 60)).toBe(0);
    });

    it("Retry-After 0 (or a past date, parsed as 0) means now", () => {
      const budget = new RateBudget(limits);
      const slot = budget.reserve("reports", T0).slotAt;
      budget.noteRateLimited("reports", slot, T0 + 10, 0);
      expect(budget.waitMs("reports", T0 + 10)).toBe(0);
    });

    it("shares a Retry-After for at most one window, however large", () => {
      const budget = new RateBudget(limits);
      const slot = budget.reserve("reports", T0).slotAt;
      budget.noteRateLimited("reports", slot, T0, 999_999_000);
      expect(budget.toState().groups.reports.blockedUntil).toBe(T0 + 60_000);
      expect(new RateBudget(limits, budget.toState()).waitMs("reports", T0 + 60_000)).toBe(0);
    });

    it("counts a stored block that lies further ahead than one window (older ledger, clock stepped back) as one window", () => {
      const state = emptyRateBudgetState();
      state.groups.reports.blockedUntil = Date.UTC(2100, 0, 1);
      const budget = new RateBudget(limits, state);
      expect(budget.waitMs("reports", T0)).toBe(60_000);
    });

    it("lowers the limit only after three unexpected 429s in one window, to the most sends the service accepted", () => {
      const budget = new RateBudget(limits);
      for (let i = 0; i < 6; i++) budget.reserve("reports", T0 + i * 1_000);
      const outcomes = [1, 2, 3].map((n) => {
        const slot = budget.reserve("reports", T0 + 6_000 + n * 100).slotAt;
        return budget.noteRateLimited("reports", slot, T0 + 6_050 + n * 100);
      });
      expect(outcomes).toEqual([
        { shrunk: false, effectiveLimit: 10 },
        { shrunk: false, effectiveLimit: 10 },
        { shrunk: true, effectiveLimit: 6 },
      ]);
      // The next slot frees when the oldest of the six accepted leaves the window.
      expect(budget.reserve("reports", T0 + 6_400).slotAt - T0).toBe(60_900);
    });

    it("never lowers below what the service's answers prove: the most it accepted before any of the strikes", () => {
      const budget = new RateBudget({ ...limits, reports: { limit: 10, windowMs: 10_000 } });
      const accepted = Array.from({ length: 5 }, () => budget.reserve("reports", T0).slotAt);
      budget.noteRateLimited("reports", budget.reserve("reports", T0 + 10).slotAt, T0 + 20); // after 5 accepted
      budget.settle("reports", accepted[0] ?? 0, T0); // (no change; keeps the five)
      const refusedAfterTwo = new RateBudget({ ...limits, reports: { limit: 10, windowMs: 10_000 } }, budget.toState());
      // Two more strikes, each seen after the same five accepted sends.
      refusedAfterTwo.noteRateLimited("reports", refusedAfterTwo.reserve("reports", T0 + 30).slotAt, T0 + 40);
      const third = refusedAfterTwo.noteRateLimited("reports", refusedAfterTwo.reserve("reports", T0 + 50).slotAt, T0 + 60);
      expect(third).toEqual({ shrunk: true, effectiveLimit: 5 });
    });

    it("a storm where nothing is accepted lowers to 1 but never waits beyond the Retry-After", () => {
      const budget = new RateBudget(limits);
      let now = T0;
      for (let n = 0; n < 5; n++) {
        const { slotAt, waitMs } = budget.reserve("reports", now);
        expect(waitMs).toBe(0);
        budget.noteRateLimited("reports", slotAt, now + 5, 1_000);
        expect(budget.waitMs("reports", now + 5)).toBe(1_000);
        now += 1_005;
      }
      expect(budget.effectiveLimit("reports", now)).toBe(1);
    });

    it("does not count unexpected 429s further apart than a window as repeated evidence", () => {
      const budget = new RateBudget(limits);
      for (let n = 0; n < 3; n++) {
        const now = T0 + n * 70_000;
        budget.noteRateLimited("reports", budget.reserve("reports", now).slotAt, now + 10);
      }
      expect(budget.effectiveLimit("reports", T0 + 140_020)).toBe(10);
    });

    it("does not count a 429 its current accounting already explains", () => {
      const state = emptyRateBudgetState();
      // The third send was reserved before the limit was cut to 2: its 429 is no news.
      state.groups.reports = { ...state.groups.reports, sends: [T0, T0 + 1, T0 + 2], reducedLimit: 2, adjustedAt: T0 + 3 };
      const budget = new RateBudget(limits, state);
      expect(budget.noteRateLimited("reports", T0 + 2, T0 + 10)).toEqual({ shrunk: false, effectiveLimit: 2 });
      expect(budget.toState().groups.reports.strikes).toEqual([]);
    });

    it("recovers by one per quiet window for reports and by a tenth of the limit for access", () => {
      const budget = new RateBudget(limits);
      for (let n = 0; n < 3; n++) budget.noteRateLimited("reports", T0, T0);
      for (let n = 0; n < 3; n++) budget.noteRateLimited("access", T0, T0);
      expect(budget.effectiveLimit("reports", T0 + 59_999)).toBe(1);
      expect(budget.effectiveLimit("reports", T0 + 60_000)).toBe(2);
      expect(budget.effectiveLimit("reports", T0 + 3 * 60_000 + 1)).toBe(4);
      expect(budget.effectiveLimit("reports", T0 + 60 * 60_000)).toBe(10);
      expect(recoveryStep(100)).toBe(10);
      expect(budget.effectiveLimit("access", T0 + 300_000)).toBe(11);
      expect(budget.effectiveLimit("access", T0 + 10 * 300_000)).toBe(100);
      expect(budget.toState().groups.access.reducedLimit).toBeNull();
    });

    it("waits twice as long before the next step each time a recovery step meets three more 429s", () => {
      const budget = new RateBudget(limits);
      const probe = (now: number): void => {
        // The service allows 6: after six sends in the window every further one is refused.
        for (let i = 0; i < 6; i++) budget.reserve("reports", now);
        for (let n = 0; n < 3; n++) budget.noteRateLimited("reports", budget.reserve("reports", now).slotAt, now);
      };
      probe(T0);
      expect(budget.effectiveLimit("reports", T0)).toBe(6);
      expect(budget.effectiveLimit("reports", T0 + 60_000)).toBe(7);
      const t1 = T0 + 200_000;
      probe(t1);
      expect(budget.toState().groups.reports.failedProbes).toBe(1);
      expect(budget.effectiveLimit("reports", t1 + 60_000)).toBe(6);
      expect(budget.effectiveLimit("reports", t1 + 2 * 60_000)).toBe(7);
      // Full recovery forgets the failed probes.
      expect(budget.effectiveLimit("reports", t1 + 16 * 60_000)).toBe(10);
      expect(budget.toState().groups.reports.failedProbes).toBe(0);
    });
  });

  describe("reservations (issue 12 item 10)", () => {
    it("release gives a slot that was never sent back", () => {
      const budget = new RateBudget(limits);
      for (let i = 0; i < 10; i++) budget.reserve("reports", T0);
      const queued = budget.reserve("reports", T0, undefined, "host:1");
      expect(queued.waitMs).toBe(60_900);
      budget.release("reports", queued.slotAt);
      expect(budget.waitMs("reports", T0)).toBe(60_900);
      expect(budget.toState().groups.reports.sends).toHaveLength(10);
      expect(budget.toState().groups.reports.pending).toEqual([]);
    });

    it("frees the future slots of an owner that is gone, keeps its due ones and every live owner's", () => {
      const budget = new RateBudget({ ...limits, reports: { limit: 1, windowMs: 10_000 } });
      const due = budget.reserve("reports", T0, undefined, "dead").slotAt;
      const future = budget.reserve("reports", T0, undefined, "dead").slotAt;
      const live = budget.reserve("reports", T0, undefined, "live").slotAt;
      budget.releaseAbandoned(T0 + 1, (owner) => owner === "live");
      expect(budget.toState().groups.reports.sends).toEqual([due, live]);
      expect([due, future, live]).toEqual([T0, T0 + 10_150, T0 + 20_300]);
      expect(budget.toState().groups.reports.pending).toEqual([{ at: live, owner: "live" }]);
    });

    it("settling a slot ends its reservation", () => {
      const budget = new RateBudget(limits);
      const slot = budget.reserve("access", T0, undefined, "me").slotAt;
      budget.settle("access", slot, T0 + 20);
      expect(budget.toState().groups.access.pending).toEqual([]);
      expect(budget.toState().groups.access.sends).toEqual([T0 + 20]);
    });
  });

  describe("state", () => {
    it("round-trips through JSON, so the ledger can persist it", () => {
      const budget = new RateBudget(limits);
      for (let i = 0; i < 10; i++) budget.reserve("reports", T0 + i);
      for (let n = 0; n < 3; n++) budget.noteRateLimited("reports", budget.reserve("reports", T0 + 9).slotAt, T0 + 20, 5_000);
      const restored = parseRateBudgetState(JSON.parse(JSON.stringify(budget.toState())));
      expect(restored).toEqual(budget.toState());
      const copy = new RateBudget(limits, restored);
      expect(copy.waitMs("reports", T0 + 20)).toBe(budget.waitMs("reports", T0 + 20));
      expect(copy.effectiveLimit("reports", T0 + 20)).toBe(budget.effectiveLimit("reports", T0 + 20));
      expect(copy.toState()).toEqual(budget.toState());
    });

    it("reads a ledger written before reservations and strikes were kept", () => {
      const old = { sends: [T0], reducedLimit: null, adjustedAt: 0, failedProbes: 0, blockedUntil: 0 };
      const state = parseRateBudgetState({ version: 1, groups: { reports: old, access: old } });
      expect(state?.groups.reports).toEqual({ ...old, pending: [], strikes: [] });
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
      state.groups.reports = { ...state.groups.reports, reducedLimit: 8, adjustedAt: T0 };
      const budget = new RateBudget({ ...limits, reports: { limit: 5, windowMs: 60_000 } }, state);
      expect(budget.effectiveLimit("reports", T0)).toBe(5);
    });
  });
});
