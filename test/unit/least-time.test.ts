import { describe, expect, it } from "vitest";
import { BudgetTimes, leastTimeMs } from "../../src/api/rate/least-time.js";

// The one "how long do these requests take" policy (services.budget()). The scheduler waits a
// window plus its safety margin (max(150 ms, 1.5 % of the window)) for each further `limit`
// requests, so that is what the least time counts: at 10 per 60 s the margin is 900 ms.

const REPORTS = { limit: 10, windowMs: 60_000 };
const times = new BudgetTimes({ reports: REPORTS, access: { limit: 100, windowMs: 300_000 } });

describe("leastTimeMs", () => {
  it.each([
    [0, 0],
    [1, 0],
    [10, 0],
    [11, 60_900],
    [20, 60_900],
    [21, 121_800],
    [91, 548_100],
  ])("%i requests at 10 per 60 s take at least %i ms", (requests, ms) => {
    expect(leastTimeMs(requests, REPORTS)).toBe(ms);
  });

  it("a limit of one: each further request a window (and the 150 ms floor of the margin) later", () => {
    expect(leastTimeMs(3, { limit: 1, windowMs: 1_000 })).toBe(2_300);
  });
});

describe("BudgetTimes", () => {
  it("91 report requests: 9m 8s, the same words wherever a dry run asks", () => {
    expect(times.format(times.leastMs("reports", 91))).toBe("9m 8s");
  });

  it("uses the group's own budget", () => {
    // 101 access requests at 100 per 300 s: one window of 300 s plus 4.5 s margin.
    expect(times.leastMs("access", 101)).toBe(304_500);
    expect(times.leastMs("reports", 101)).toBe(10 * 60_900);
  });

  it("time left: the pace so far when it is slower than the budget", () => {
    // 2 sent in 30 s, 3 left: 45 s by the pace; the budget lets 3 go at once.
    expect(times.timeLeftMs("reports", { sent: 2, startedAt: 0, now: 30_000, left: 3 })).toBe(45_000);
  });

  it("time left: never less than the budget allows for what is left", () => {
    // 10 sent in 1 s (they went at once), 21 left: the pace says 2.1 s, the budget 2 × 60.9 s.
    expect(times.timeLeftMs("reports", { sent: 10, startedAt: 0, now: 1_000, left: 21 })).toBe(121_800);
  });

  it("time left before anything was sent: what the budget needs", () => {
    expect(times.timeLeftMs("reports", { sent: 0, startedAt: 0, now: 0, left: 11 })).toBe(60_900);
  });

  it("nothing left: no time left, whatever the pace", () => {
    expect(times.timeLeftMs("reports", { sent: 5, startedAt: 0, now: 50_000, left: 0 })).toBe(0);
  });

  it("says the time left from a second on, and nothing under it", () => {
    expect(times.timeLeftText(65_000)).toBe("about 1m 5s left");
    expect(times.timeLeftText(1_000)).toBe("about 1s left");
    expect(times.timeLeftText(999)).toBeUndefined();
  });

  it("a countdown is whole seconds rounded up, in the same words: never 0s while it lasts", () => {
    expect(times.countdown(1)).toBe("1s");
    expect(times.countdown(3_001)).toBe("4s");
    expect(times.countdown(60_900)).toBe("1m 1s");
    expect(times.countdown(120_000)).toBe("2m");
  });
});
