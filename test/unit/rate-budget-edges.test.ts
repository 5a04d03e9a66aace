import { describe, expect, it } from "vitest";
import { RateBudget, emptyRateBudgetState, parseRateBudgetState, type RateBudgetState } from "../../src/api/rate/budget.js";
import type { RateLimits } from "../../src/api/rate/limits.js";

// The edges of RateBudget's arithmetic (issue 27 item 3: survivors of `npm run mutate` on
// src/api/rate/budget.ts): window bounds, strike expiry, recovery, pruning, the state schema.
// 3 per 10 s: margin 150 ms, horizon (window + margin) 10 150 ms. Numbers written out.

const T0 = 1_800_000_000_000;
const LIMITS: RateLimits = { reports: { limit: 3, windowMs: 10_000 }, access: { limit: 5, windowMs: 20_000 } };

function withReports(change: (group: RateBudgetState["groups"]["reports"]) => void): RateBudgetState {
  const state = emptyRateBudgetState();
  change(state.groups.reports);
  return state;
}

describe("noteRateLimited: which sends count as accepted before the refused one", () => {
  it("counts sends after sentAt − horizon up to sentAt, not the one exactly at the bound nor later ones", () => {
    const budget = new RateBudget(LIMITS);
    for (const at of [T0, T0 + 1, T0 + 10_150, T0 + 10_160]) budget.record("reports", at);
    expect(budget.noteRateLimited("reports", T0 + 10_150, T0 + 10_200)).toEqual({ shrunk: false, effectiveLimit: 3 });
    // One strike, with one accepted send (T0 + 1): T0 is on the bound, T0 + 10 160 after the refused send.
    expect(budget.toState().groups.reports.strikes).toEqual([{ at: T0 + 10_200, accepted: 1 }]);
  });

  it("a strike exactly one horizon old has expired", () => {
    const state = withReports((g) => {
      g.strikes = [
        { at: T0, accepted: 0 },
        { at: T0 + 1, accepted: 0 },
      ];
    });
    const budget = new RateBudget(LIMITS, state);
    expect(budget.noteRateLimited("reports", T0 + 5_000, T0 + 10_150)).toEqual({ shrunk: false, effectiveLimit: 3 });
    expect(budget.toState().groups.reports.strikes).toEqual([
      { at: T0 + 1, accepted: 0 },
      { at: T0 + 10_150, accepted: 0 },
    ]);
  });

  it("three strikes that prove no less than the limit in force lower nothing, and are forgotten", () => {
    const state = withReports((g) => {
      g.reducedLimit = 2;
      g.adjustedAt = T0;
      g.strikes = [
        { at: T0 - 2, accepted: 2 },
        { at: T0 - 1, accepted: 2 },
      ];
    });
    const budget = new RateBudget(LIMITS, state);
    expect(budget.noteRateLimited("reports", T0, T0)).toEqual({ shrunk: false, effectiveLimit: 2 });
    expect(budget.toState().groups.reports.strikes).toEqual([]);
    expect(budget.toState().groups.reports.reducedLimit).toBe(2);
  });

  it("lowering an already lowered limit counts a failed probe, at most MAX_FAILED_PROBES", () => {
    const strikes = [
      { at: T0 - 2, accepted: 0 },
      { at: T0 - 1, accepted: 0 },
    ];
    const once = new RateBudget(
      LIMITS,
      withReports((g) => Object.assign(g, { reducedLimit: 2, adjustedAt: T0, failedProbes: 0, strikes })),
    );
    expect(once.noteRateLimited("reports", T0, T0)).toEqual({ shrunk: true, effectiveLimit: 1 });
    expect(once.toState().groups.reports).toMatchObject({ reducedLimit: 1, failedProbes: 1, adjustedAt: T0 });
    const capped = new RateBudget(
      LIMITS,
      withReports((g) => Object.assign(g, { reducedLimit: 2, adjustedAt: T0, failedProbes: 3, strikes })),
    );
    capped.noteRateLimited("reports", T0, T0);
    expect(capped.toState().groups.reports.failedProbes).toBe(3);
    const first = new RateBudget(
      LIMITS,
      withReports((g) => Object.assign(g, { failedProbes: 2, strikes })),
    );
    first.noteRateLimited("reports", T0, T0);
    // The first cut from the configured limit starts the probes afresh.
    expect(first.toState().groups.reports).toMatchObject({ reducedLimit: 1, failedProbes: 0 });
  });

  it("without a Retry-After, or with a negative one, nothing is blocked", () => {
    const budget = new RateBudget(LIMITS);
    budget.noteRateLimited("reports", T0, T0);
    budget.noteRateLimited("reports", T0, T0, -5_000);
    expect(budget.toState().groups.reports.blockedUntil).toBe(0);
    expect(budget.waitMs("reports", T0)).toBe(0);
  });
});

describe("recovery of a lowered limit", () => {
  it("rises by one step per quiet window, and is the configured limit again at the top", () => {
    const budget = new RateBudget(
      LIMITS,
      withReports((g) => Object.assign(g, { reducedLimit: 1, adjustedAt: T0 })),
    );
    expect(budget.effectiveLimit("reports", T0 + 9_999)).toBe(1);
    expect(budget.effectiveLimit("reports", T0 + 10_000)).toBe(2);
    expect(budget.toState().groups.reports).toMatchObject({ reducedLimit: 2, adjustedAt: T0 + 10_000 });
    expect(budget.effectiveLimit("reports", T0 + 20_000)).toBe(3);
    expect(budget.toState().groups.reports).toMatchObject({ reducedLimit: null, failedProbes: 0 });
  });

  it("waits 2^failedProbes windows per step after failed probes; the probes reset once recovered", () => {
    const budget = new RateBudget(
      LIMITS,
      withReports((g) => Object.assign(g, { reducedLimit: 2, adjustedAt: T0, failedProbes: 1 })),
    );
    expect(budget.effectiveLimit("reports", T0 + 19_999)).toBe(2);
    expect(budget.toState().groups.reports.failedProbes).toBe(1);
    expect(budget.effectiveLimit("reports", T0 + 20_000)).toBe(3);
    expect(budget.toState().groups.reports).toMatchObject({ reducedLimit: null, failedProbes: 0 });
  });

  it("a step that reaches past the configured limit stops at it", () => {
    const budget = new RateBudget(
      LIMITS,
      withReports((g) => Object.assign(g, { reducedLimit: 2, adjustedAt: T0 })),
    );
    expect(budget.effectiveLimit("reports", T0 + 50_000)).toBe(3);
    expect(budget.toState().groups.reports.reducedLimit).toBeNull();
  });
});

describe("a stored reduction at or above a configured limit lowered since", () => {
  it("still counts as a reduction until a quiet step has passed: a cut from it is a failed probe", () => {
    // Configured 3 per 10 s now; the ledger still holds a reduction to 5 with 2 failed probes.
    const budget = new RateBudget(
      LIMITS,
      withReports((g) =>
        Object.assign(g, {
          reducedLimit: 5,
          adjustedAt: T0,
          failedProbes: 2,
          strikes: [
            { at: T0 - 2, accepted: 0 },
            { at: T0 - 1, accepted: 0 },
          ],
        }),
      ),
    );
    expect(budget.noteRateLimited("reports", T0, T0)).toEqual({ shrunk: true, effectiveLimit: 1 });
    // Three failed probes: 2^3 = 8 windows (80 s) of quiet per recovery step.
    expect(budget.effectiveLimit("reports", T0 + 79_999)).toBe(1);
    expect(budget.effectiveLimit("reports", T0 + 80_000)).toBe(2);
  });
});

describe("pruning", () => {
  it("forgets sends and pending slots two horizons old or older, keeps younger ones", () => {
    const budget = new RateBudget(
      LIMITS,
      withReports((g) => {
        g.sends = [T0, T0 + 1];
        g.pending = [
          { at: T0, owner: "a" },
          { at: T0 + 1, owner: "b" },
        ];
      }),
    );
    budget.waitMs("reports", T0 + 20_300);
    expect(budget.toState().groups.reports.sends).toEqual([T0 + 1]);
    expect(budget.toState().groups.reports.pending).toEqual([{ at: T0 + 1, owner: "b" }]);
  });
});

describe("parseRateBudgetState", () => {
  const valid = (): Record<string, unknown> => JSON.parse(JSON.stringify(emptyRateBudgetState())) as Record<string, unknown>;
  const withGroup = (fields: Record<string, unknown>): unknown => {
    const state = valid() as { groups: { reports: Record<string, unknown> } };
    Object.assign(state.groups.reports, fields);
    return state;
  };

  it.each([
    ["a reduced limit of 0", { reducedLimit: 0 }],
    ["a fractional reduced limit", { reducedLimit: 1.5 }],
    ["negative failed probes", { failedProbes: -1 }],
    ["a strike with a negative count", { strikes: [{ at: T0, accepted: -1 }] }],
    ["a pending slot without an owner", { pending: [{ at: T0 }] }],
    ["a send that is not a number", { sends: ["x"] }],
    ["a send that is null", { sends: [null] }],
    ["sends that are not a list", { sends: {} }],
    ["a reduced limit given as text", { reducedLimit: "2" }],
    ["no adjustedAt", { adjustedAt: undefined }],
    ["a blockedUntil that is not a number", { blockedUntil: "soon" }],
    ["pending that is not a list", { pending: {} }],
    ["a strike with a fractional count", { strikes: [{ at: T0, accepted: 0.5 }] }],
    ["a strike that is a list", { strikes: [[T0, 1]] }],
  ])("refuses %s", (_name, fields) => {
    expect(parseRateBudgetState(withGroup(fields))).toBeUndefined();
  });

  it("reads a ledger from before pending and strikes as having none", () => {
    const state = valid() as { groups: { reports: Record<string, unknown> } };
    delete state.groups.reports.pending;
    delete state.groups.reports.strikes;
    expect(parseRateBudgetState(state)?.groups.reports).toEqual({
      sends: [],
      reducedLimit: null,
      adjustedAt: 0,
      failedProbes: 0,
      blockedUntil: 0,
      pending: [],
      strikes: [],
    });
  });

  it("keeps the known fields only, as a copy", () => {
    const state = withGroup({
      sends: [T0],
      extra: 1,
      pending: [{ at: T0, owner: "h:1", note: "x" }],
    }) as { groups: { reports: Record<string, unknown> }; more?: number };
    state.more = 1;
    const parsed = parseRateBudgetState(state);
    expect(parsed).toEqual({
      version: 1,
      groups: {
        reports: { ...emptyRateBudgetState().groups.reports, sends: [T0], pending: [{ at: T0, owner: "h:1" }] },
        access: emptyRateBudgetState().groups.access,
      },
    });
    expect(parsed?.groups.reports.sends).not.toBe(state.groups.reports.sends);
  });

  it("refuses another version or a missing group", () => {
    expect(parseRateBudgetState({ ...valid(), version: 2 })).toBeUndefined();
    expect(parseRateBudgetState({ version: 1, groups: { reports: valid().groups } })).toBeUndefined();
    expect(parseRateBudgetState(null)).toBeUndefined();
  });

  it("accepts a reduced limit of 1 and a strike of 0", () => {
    expect(
      parseRateBudgetState(withGroup({ reducedLimit: 1, strikes: [{ at: T0, accepted: 0 }] }))?.groups.reports,
    ).toMatchObject({
      reducedLimit: 1,
      strikes: [{ at: T0, accepted: 0 }],
    });
  });
});

describe("more edges", () => {
  it("a Retry-After of 0 leaves no block in the state", () => {
    const budget = new RateBudget(LIMITS);
    budget.noteRateLimited("reports", T0, T0 + 100, 0);
    expect(budget.toState().groups.reports.blockedUntil).toBe(0);
  });

  it("a slot is never before the last one reserved, even with room in the window", () => {
    const budget = new RateBudget(LIMITS);
    for (const at of [T0, T0 + 100, T0 + 5_000]) budget.record("access", at);
    expect(budget.waitMs("access", T0 + 200)).toBe(4_800);
  });

  it("a partial recovery step keeps the failed probes", () => {
    const budget = new RateBudget(
      LIMITS,
      withReports((g) => Object.assign(g, { reducedLimit: 1, adjustedAt: T0, failedProbes: 1 })),
    );
    expect(budget.effectiveLimit("reports", T0 + 20_000)).toBe(2);
    expect(budget.toState().groups.reports).toMatchObject({ reducedLimit: 2, failedProbes: 1, adjustedAt: T0 + 20_000 });
  });

  it("releaseAbandoned frees the future slots of dead owners (the first send too), keeps due ones and live owners'", () => {
    const budget = new RateBudget(
      LIMITS,
      withReports((g) => {
        g.sends = [T0, T0 + 100, T0 + 200, T0 + 300];
        g.pending = [
          { at: T0 + 100, owner: "dead" },
          { at: T0 + 200, owner: "dead" },
          { at: T0 + 300, owner: "live" },
        ];
      }),
    );
    budget.releaseAbandoned(T0 + 150, (owner) => owner === "live");
    expect(budget.toState().groups.reports.sends).toEqual([T0, T0 + 100, T0 + 300]);
    expect(budget.toState().groups.reports.pending).toEqual([{ at: T0 + 300, owner: "live" }]);
    const first = new RateBudget(
      LIMITS,
      withReports((g) => {
        g.sends = [T0 + 500];
        g.pending = [{ at: T0 + 500, owner: "dead" }];
      }),
    );
    first.releaseAbandoned(T0, () => false);
    expect(first.toState().groups.reports.sends).toEqual([]);
  });
});

describe("releaseAbandoned with a pending slot whose send is gone", () => {
  it("frees nothing else (not the newest send), and asks once per owner whether it is alive", () => {
    const budget = new RateBudget(
      LIMITS,
      withReports((g) => {
        g.sends = [T0, T0 + 100];
        g.pending = [
          { at: T0 + 500, owner: "dead" },
          { at: T0 + 600, owner: "dead" },
        ];
      }),
    );
    const asked: string[] = [];
    budget.releaseAbandoned(T0, (owner) => {
      asked.push(owner);
      return false;
    });
    expect(budget.toState().groups.reports.sends).toEqual([T0, T0 + 100]);
    expect(budget.toState().groups.reports.pending).toEqual([]);
    expect(asked).toEqual(["dead"]);
  });
});
