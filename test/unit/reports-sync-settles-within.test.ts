import { afterEach, describe, expect, it, vi } from "vitest";
import { settlesWithin } from "../../src/commands/reports-sync/settles-within.js";

// reports sync commits its loaded windows when the next answer keeps it waiting more than a
// second (docs/reports-sync.md): settlesWithin tells. Fake timers: no time passes for real.

afterEach(() => {
  vi.useRealTimers();
});

describe("settlesWithin", () => {
  it("an answer already there, or a failure, settles in time; its timer is cleared", async () => {
    vi.useFakeTimers();
    expect(await settlesWithin(Promise.resolve("window"), 1000)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error("502")), 1000)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("an answer that has not come when the time is up does not settle in time", async () => {
    vi.useFakeTimers();
    const never = new Promise(() => undefined);
    const waiting = settlesWithin(never, 1000);
    await vi.advanceTimersByTimeAsync(999);
    let told: boolean | undefined;
    void waiting.then((answer) => (told = answer));
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(told).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("its timer does not keep the process alive", async () => {
    const setTimer = vi.spyOn(globalThis, "setTimeout");
    const waiting = settlesWithin(Promise.resolve(), 1000);
    const timer = setTimer.mock.results[0]!.value as NodeJS.Timeout;
    setTimer.mockRestore();
    expect(timer.hasRef()).toBe(false);
    await waiting;
  });
});
