// @ts-nocheck
import { describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { minimumPollIntervalMs, pollUntil } from "../../src/commands/shared/polling.js";
import { InterruptedError } from "../../src/errors.js";

const START = Date.UTC(2026, 10, 21);
const fakeClock = () => createFakeClock(START);

describe("pollUntil (completion --wait, import-status --wait, users import --wait)", () => {
  it("polls at once when round 0 has no delay, then every interval, in steps of at most a second", async () => {
    const clock = fakeClock();
    const at: number[] = [];
    const outcome = await pollUntil({
      clock,
      signal: new AbortController().signal,
      timeoutMs: 60_000,
      delayMs: (round) => (round === 0 ? 0 : 2500),
      poll: async (n) => {
        at.push(clock.now() - START);
        return n === 3 ? "found" : undefined;
      },
    });
    expect(outcome).toEqual({ done: true, value: "found", polls: 3 });
    expect(at).toEqual([0, 2500, 5000]);
    expect(clock.sleeps).toEqual([1000, 1000, 500, 1000, 1000, 500]);
  });

  it("gives up when the deadline passes before the next round, after a last poll at the deadline", async () => {
    const clock = fakeClock();
    const at: number[] = [];
    const countdown: [number, number][] = [];
    const outcome = await pollUntil({
      clock,
      signal: new AbortController().signal,
      timeoutMs: 3000,
      delayMs: () => 2000,
      poll: async () => {
        at.push(clock.now() - START);
        return undefined;
      },
      onCountdown: (next, deadline) => countdown.push([next, deadline]),
    });
    expect(outcome).toEqual({ done: false, polls: 2 });
    // Waits 2 s, polls; then only the 1 s left, polls at the deadline; then stops.
    expect(at).toEqual([2000, 3000]);
    expect(countdown).toEqual([
      [2000, 3000],
      [1000, 2000],
      [1000, 1000],
    ]);
  });

  it("stops at once on Ctrl-C (the signal) while waiting", async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    controller.abort();
    await expect(
      pollUntil({ clock, signal: controller.signal, timeoutMs: 10_000, delayMs: () => 1000, poll: async () => undefined }),
    ).rejects.toBeInstanceOf(InterruptedError);
  });

  it("keeps a long wait within 30 % of the access budget", () => {
    expect(minimumPollIntervalMs({ limit: 100, windowMs: 300_000 })).toBe(10_000);
  });
});
