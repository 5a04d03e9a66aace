// @ts-nocheck
import { describe, expect, it } from "vitest";
import { pollDelayMs } from "../../src/commands/shared/import-wait.js";

describe("pollDelayMs", () => {
  it("backs off 1, 2, 4, 8, 16 s, then polls every 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((round) => pollDelayMs(round, 1, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it("spaces the rounds further apart when many tasks share the access budget", () => {
    // 100 requests per 5 minutes, 30 % for polls: one poll per 10 s; 6 unfinished tasks → a round a minute.
    expect(pollDelayMs(10, 6, 10_000)).toBe(60_000);
    expect(pollDelayMs(0, 6, 10_000)).toBe(1000);
  });
});
