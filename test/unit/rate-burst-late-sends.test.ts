import { describe, expect, it } from "vitest";
import { RateLedger } from "../../src/api/rate/file-store.js";
import { DEFAULT_RATE_LIMITS } from "../../src/api/rate/limits.js";
import { Scheduler } from "../../src/api/rate/scheduler.js";
import type { BudgetStore } from "../../src/api/rate/store.js";
import type { Clock } from "../../src/clock.js";
import { RateLimitError } from "../../src/errors.js";
import { RateLimiter } from "../../src/sandbox/rate-limit.js";

// A burst of 100 sends at once (`links serve` on a campaign morning) in a process whose event
// loop is busy: every send is reserved at the same instant, but they leave one after another,
// the last 1.5 s after its slot. The service (the sandbox's own limiter, at its limit of 100
// access requests per window, the window scaled to 10 s as bench/links.mjs scales it) counts
// each when it arrives. The next window's sends must then wait for those arrivals, not for the
// slots: counted from the slots (capped a second after them), the second burst drew 429s.
// (At the unscaled 5 minutes the margin of budget.ts, 1.5 % = 4.5 s, hid the half second.)
// Virtual time: no wall clock is read.

const T0 = Date.UTC(2026, 10, 27, 7, 0, 0);
const ACCESS = { limit: DEFAULT_RATE_LIMITS.access.limit, windowMs: 10_000 };
const BURST = ACCESS.limit;
const SEND_CPU_MS = 15;

/** Time that moves only when every sleeper waits: the earliest wakes first. */
function virtualClock() {
  let t = T0;
  const timers: { at: number; seq: number; wake: () => void }[] = [];
  let seq = 0;
  const clock: Clock = {
    now: () => t,
    random: () => 0.5,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        timers.push({ at: t + Math.max(0, ms), seq: seq++, wake });
      }),
  };
  /** Runs until nothing is left to wake (a macrotask between steps lets every continuation run). */
  async function settle(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (timers.length === 0) return;
      timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = timers.shift()!;
      t = Math.max(t, next.at);
      next.wake();
    }
  }
  return { clock, settle, advanceTo: (at: number) => (t = Math.max(t, at)) };
}

describe("a burst of sends that leave late", () => {
  it("draws no 429 from the service's window in the next burst (counted: 429 answers)", async () => {
    const { clock, settle, advanceTo } = virtualClock();
    const limits = { ...DEFAULT_RATE_LIMITS, access: ACCESS };
    const ledger = new RateLedger({ limits, clock });
    // The busy event loop: in the first burst the k-th continuation after the reservation
    // runs k × 15 ms late (each send before it took its share of the CPU).
    let late = 0;
    let busy = true;
    const store: BudgetStore = {
      description: "memory",
      reserve: async (group, maxWaitMs) => {
        const reservation = await ledger.reserve(group, maxWaitMs);
        if (busy) await clock.sleep(++late * SEND_CPU_MS);
        return reservation;
      },
      settle: (group, slotAt, startedLateMs) => ledger.settle(group, slotAt, startedLateMs),
      release: (group, slotAt) => ledger.release(group, slotAt),
      noteRateLimited: (group, sentAt, retryAfterMs) => ledger.noteRateLimited(group, sentAt, retryAfterMs),
      snapshot: () => ledger.snapshot(),
      close: async () => undefined,
    };
    const scheduler = new Scheduler({ limits, store, retries: 0, clock, deadlineMs: 3_600_000 });
    const service = new RateLimiter(ACCESS);
    let rateLimited = 0;
    let accepted = 0;
    const click = (): Promise<void> =>
      scheduler
        .run({ group: "access", retry: "safe", label: "user token" }, async () => {
          const decision = service.tryAcquire("127.0.0.1", clock.now());
          if (!decision.allowed) throw new RateLimitError("429", { retryAfterMs: decision.retryAfterMs });
          accepted++;
        })
        .catch((error: unknown) => {
          if (!(error instanceof RateLimitError)) throw error;
          rateLimited++;
        });

    const first = Array.from({ length: BURST }, click);
    await settle();
    await Promise.all(first);
    expect(accepted).toBe(BURST);
    expect(clock.now() - T0).toBeGreaterThan(1_000); // the last send did leave more than a second late

    // The second burst, once the first has been answered: its sends wait for the window.
    busy = false;
    advanceTo(T0 + 5_000);
    const second = Array.from({ length: BURST }, click);
    await settle();
    await Promise.all(second);
    expect(rateLimited).toBe(0);
    expect(accepted).toBe(2 * BURST);
  });
});
