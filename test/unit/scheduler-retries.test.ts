import { describe, expect, it } from "vitest";
import { createFakeClock, type Clock } from "../../src/clock.js";
import {
  AuthError,
  InterruptedError,
  InvalidDataError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceError,
  UnexpectedResponseError,
  UsageError,
} from "../../src/errors.js";
import { DEFAULT_RATE_LIMITS, type RateLimits } from "../../src/api/rate/limits.js";
import { RateLedger } from "../../src/api/rate/file-store.js";
import { Scheduler, type RetryClass, type SchedulerOptions, type WaitEvent } from "../../src/api/rate/scheduler.js";
import type { BudgetStore } from "../../src/api/rate/store.js";

const T0 = Date.UTC(2026, 10, 21);

function setup(options: Partial<SchedulerOptions> & { random?: number[] } = {}) {
  const clock = createFakeClock(T0, options.random ?? []);
  const events: WaitEvent[] = [];
  const scheduler = new Scheduler({
    limits: DEFAULT_RATE_LIMITS,
    retries: 5,
    onWait: (event) => events.push(event),
    ...options,
    clock: options.clock ?? clock,
  });
  return { clock, events, scheduler };
}

const report = { group: "reports", retry: "safe", label: "report syms" } as const;
const upload = { group: "access", retry: "upload", label: "upload batch 1" } as const;

/** A send that fails with the given errors in turn, then answers "ok"; records attempt times. */
function failing(clock: Clock, ...errors: Error[]) {
  const times: number[] = [];
  const send = async (attempt: number): Promise<string> => {
    times.push(clock.now());
    const error = errors[attempt - 1];
    if (error) throw error;
    return "ok";
  };
  return { send, times };
}

describe("Scheduler budget", () => {
  it("sends 10 report requests at once and holds the 11th until oldest + 60.9 s, announcing the wait", async () => {
    const { clock, events, scheduler } = setup();
    const sentAt: number[] = [];
    for (let i = 0; i < 11; i++) {
      await scheduler.run({ ...report, label: `report ${i + 1}` }, async () => sentAt.push(clock.now() - T0));
    }
    expect(sentAt).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 60_900]);
    expect(events).toEqual([{ group: "reports", reason: "budget", waitMs: 60_900, attempt: 1, label: "report 11" }]);
  });

  it("paces a long run at the limit: 30 requests at 10/10 s take two windows plus two margins", async () => {
    const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, reports: { limit: 10, windowMs: 10_000 } };
    const { clock, scheduler } = setup({ limits });
    for (let i = 0; i < 30; i++) await scheduler.run(report, async () => "ok");
    expect(clock.now() - T0).toBe(2 * 10_150);
  });

  it("reserves a slot again before each retry", async () => {
    const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, access: { limit: 2, windowMs: 10_000 } };
    const { clock, scheduler, events } = setup({ limits, random: [0] });
    const { send, times } = failing(clock, new ServiceError("502", { status: 502 }), new ServiceError("502"));
    await scheduler.run({ group: "access", retry: "safe", label: "token" }, send);
    // Third attempt is the third send in the window: it waits for the first to leave it.
    expect(times.map((t) => t - T0)).toEqual([0, 0, 10_150]);
    expect(events.map((e) => [e.reason, e.attempt])).toEqual([
      ["retry", 2],
      ["retry", 3],
      ["budget", 3],
    ]);
  });
});

describe("Scheduler retries", () => {
  const notSent = (): ServiceError => new ServiceError("connection refused", { delivery: "not-sent" });
  const maybe = (): ServiceError => new ServiceError("503", { delivery: "maybe-received", status: 503 });

  it.each<{ name: string; makeError: () => Error; retry: RetryClass; retried: boolean }>([
    { name: "429", makeError: () => new RateLimitError("429"), retry: "safe", retried: true },
    { name: "429", makeError: () => new RateLimitError("429"), retry: "upload", retried: true },
    { name: "connection refused", makeError: notSent, retry: "safe", retried: true },
    { name: "connection refused", makeError: notSent, retry: "upload", retried: true },
    { name: "5xx / timeout / reset", makeError: maybe, retry: "safe", retried: true },
    { name: "5xx / timeout / reset", makeError: maybe, retry: "upload", retried: false },
    { name: "an unexpected response", makeError: () => new UnexpectedResponseError("bad"), retry: "safe", retried: false },
    { name: "a usage error", makeError: () => new UsageError("bad flag"), retry: "safe", retried: false },
    { name: "401", makeError: () => new AuthError("401"), retry: "safe", retried: false },
    { name: "403", makeError: () => new PermissionError("403"), retry: "safe", retried: false },
    { name: "404", makeError: () => new NotFoundError("404"), retry: "safe", retried: false },
    { name: "400", makeError: () => new InvalidDataError("400"), retry: "upload", retried: false },
    { name: "an interruption", makeError: () => new InterruptedError(), retry: "safe", retried: false },
    { name: "a bug", makeError: () => new TypeError("x is undefined"), retry: "safe", retried: false },
  ])("after $name a $retry request is retried: $retried", async ({ makeError, retry, retried }) => {
    const { clock, scheduler } = setup();
    const error = makeError();
    const { send, times } = failing(clock, error);
    const run = scheduler.run({ group: "reports", retry, label: "x" }, send);
    if (retried) {
      await expect(run).resolves.toBe("ok");
      expect(times).toHaveLength(2);
    } else {
      await expect(run).rejects.toBe(error);
      expect(times).toHaveLength(1);
    }
  });

  it("after the retries throws the last error", async () => {
    const { clock, scheduler } = setup({ retries: 3 });
    const errors = [1, 2, 3, 4, 5].map((n) => new ServiceError(`503 #${n}`));
    const { send, times } = failing(clock, ...errors);
    await expect(scheduler.run(report, send)).rejects.toBe(errors[3]);
    expect(times).toHaveLength(4);
  });

  it("after the retries throws the last 429", async () => {
    const { clock, scheduler } = setup({ retries: 2 });
    const errors = [1, 2, 3].map((n) => new RateLimitError(`429 #${n}`, { retryAfterMs: 1_000 }));
    const { send, times } = failing(clock, ...errors);
    const run = scheduler.run({ ...upload, group: "reports" }, send);
    await expect(run).rejects.toBeInstanceOf(RateLimitError);
    // The last 429's message, and when the service expects us back (issue 12 item 5).
    await expect(run).rejects.toMatchObject({
      message: "429 #3",
      cause: errors[2],
      hint: "try again after 2026-11-21T00:00:03.000Z",
    });
    expect(times).toHaveLength(3);
  });

  it("a 429 storm (Retry-After 1 s, --retries 5) ends with exit 7 after six sends and five 1 s waits", async () => {
    const { clock, scheduler, events } = setup({ retries: 5 });
    const errors = Array.from({ length: 6 }, () => new RateLimitError("429", { retryAfterMs: 1_000 }));
    const { send, times } = failing(clock, ...errors);
    await expect(scheduler.run(report, send)).rejects.toMatchObject({ exitCode: 7 });
    expect(times.map((t) => t - T0)).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(events.every((e) => e.reason === "retry")).toBe(true);
  });

  it("retries at once after Retry-After: 0 (or a date already past)", async () => {
    const { clock, scheduler } = setup();
    const { send, times } = failing(clock, new RateLimitError("429", { retryAfterMs: 0 }));
    await expect(scheduler.run(report, send)).resolves.toBe("ok");
    expect(times).toEqual([T0, T0]);
  });

  it("with retries 0 sends once", async () => {
    const { clock, scheduler } = setup({ retries: 0 });
    const error = new ServiceError("503");
    const { send, times } = failing(clock, error);
    await expect(scheduler.run(report, send)).rejects.toBe(error);
    expect(times).toHaveLength(1);
  });

  it("never retries a 429 sooner than its Retry-After", async () => {
    const { clock, scheduler, events } = setup();
    const { send, times } = failing(
      clock,
      new RateLimitError("429", { retryAfterMs: 7_000 }),
      new RateLimitError("429", { retryAfterMs: 65_000 }),
    );
    await expect(scheduler.run({ ...upload, group: "reports" }, send)).resolves.toBe("ok");
    // The budget shares a Retry-After for one window at most; the retry itself waits all of it.
    expect(times.map((t) => t - T0)).toEqual([0, 7_000, 72_000]);
    expect(events.filter((e) => e.reason === "retry").map((e) => e.waitMs)).toEqual([7_000, 65_000]);
  });

  it("backs off exponentially with full jitter, capped, when a 429 has no Retry-After", async () => {
    const { clock, scheduler, events } = setup({ retries: 7, random: [0.999_9] });
    const errors = Array.from({ length: 7 }, () => new RateLimitError("429"));
    const { send } = failing(clock, ...errors);
    await scheduler.run(report, send);
    const retryWaits = events.filter((e) => e.reason === "retry").map((e) => e.waitMs);
    expect(retryWaits).toEqual([999, 1_999, 3_999, 7_999, 15_998, 29_997, 29_997]);
  });

  it("backs off on 5xx using the clock's random source and the configured base", async () => {
    const { clock, scheduler, events } = setup({ random: [0.5, 0.1, 0.9], baseBackoffMs: 200 });
    const { send } = failing(clock, new ServiceError("500"), new ServiceError("500"), new ServiceError("500"));
    await scheduler.run(report, send);
    expect(events.map((e) => e.waitMs)).toEqual([100, 40, 720]);
  });

  it("one unexpected 429 costs its Retry-After, not a window: the rest of the run keeps the full budget", async () => {
    const { clock, scheduler } = setup();
    for (let i = 0; i < 4; i++) await scheduler.run(report, async () => "ok");
    const { send } = failing(clock, new RateLimitError("429", { retryAfterMs: 1_000 }));
    await scheduler.run(report, send);
    expect(clock.now()).toBe(T0 + 1_000);
    // Five more fit in the first window (4 + the retry + 5 = 10).
    for (let i = 0; i < 5; i++) await scheduler.run(report, async () => "ok");
    expect(clock.now()).toBe(T0 + 1_000);
    expect((await scheduler.ledger.snapshot()).groups.reports.reducedLimit).toBeNull();
  });

  it("a 429 without Retry-After costs one backoff step and lowers nothing", async () => {
    const { clock, scheduler } = setup({ random: [0.5] });
    const { send, times } = failing(clock, new RateLimitError("429"));
    await scheduler.run({ group: "access", retry: "safe", label: "token" }, send);
    expect(times.map((t) => t - T0)).toEqual([0, 500]);
    expect((await scheduler.ledger.snapshot()).groups.access.reducedLimit).toBeNull();
  });

  it("lowers the budget after three 429s in a window that the budget allowed, to what the service accepted", async () => {
    const { clock, scheduler } = setup();
    for (let i = 0; i < 4; i++) await scheduler.run(report, async () => "ok");
    const errors = [1, 2, 3].map(() => new RateLimitError("429", { retryAfterMs: 1_000 }));
    const { send } = failing(clock, ...errors);
    await scheduler.run(report, send);
    expect((await scheduler.ledger.snapshot()).groups.reports.reducedLimit).toBe(4);
  });

  it("gives back the slot of a request that was never sent (refused connection)", async () => {
    const { clock, scheduler } = setup();
    const { send } = failing(clock, new ServiceError("connection refused", { delivery: "not-sent" }));
    await scheduler.run(report, send);
    // Only the retry (after one 500 ms backoff step) holds a slot.
    expect((await scheduler.ledger.snapshot()).groups.reports.sends).toEqual([T0 + 500]);
  });
});

describe("Scheduler deadline", () => {
  it("stops retrying when the next backoff would pass the deadline", async () => {
    const { clock, scheduler } = setup({ deadlineMs: 5_000, retries: 10, random: [0.99] });
    const errors = Array.from({ length: 10 }, (_, n) => new ServiceError(`503 #${n + 1}`));
    const { send, times } = failing(clock, ...errors);
    // Waits 990, 1980 (t = 2970); the next, 3960, would end after 5 s.
    await expect(scheduler.run(report, send)).rejects.toBe(errors[2]);
    expect(times.map((t) => t - T0)).toEqual([0, 990, 2_970]);
  });

  it("does not wait for a Retry-After beyond the deadline", async () => {
    const { clock, scheduler } = setup({ deadlineMs: 60_000 });
    const error = new RateLimitError("429", { retryAfterMs: 120_000 });
    const { send, times } = failing(clock, error);
    const run = scheduler.run(report, send);
    await expect(run).rejects.toMatchObject({
      exitCode: 7,
      message:
        "report syms: the service asks to wait 2m (Retry-After, until 2026-11-21T00:02:00.000Z), longer than this request may take",
      hint: "try again after 2026-11-21T00:02:00.000Z",
    });
    expect(times).toHaveLength(1);
    expect(clock.now()).toBe(T0);
    // What later runs see is one window, not the 120 s (issue 12 item 5).
    expect((await scheduler.ledger.snapshot()).groups.reports.blockedUntil).toBe(T0 + 60_000);
  });

  it("does not queue for a budget slot beyond the deadline, and sends nothing", async () => {
    const { scheduler } = setup({ deadlineMs: 30_000 });
    for (let i = 0; i < 10; i++) await scheduler.run(report, async () => "ok");
    let sent = false;
    const run = scheduler.run(report, async () => {
      sent = true;
    });
    // No 429 was received: not exit 7 (issue 12 item 10).
    await expect(run).rejects.toThrow(ServiceError);
    await expect(run).rejects.toThrow(
      /no reports request slot within this request's time limit \(next in 1m 1s; budget 10\/60s, memory\); nothing was sent/,
    );
    await expect(run).rejects.toMatchObject({
      exitCode: 8,
      delivery: "not-sent",
      hint: "other simadmin runs sharing this budget are queued ahead; try again later",
    });
    expect(sent).toBe(false);
    // The refused request took no slot: the next one that may wait longer gets the first free one.
    const state = await scheduler.ledger.snapshot();
    expect(state.groups.reports.sends).toHaveLength(10);
  });
});

describe("Scheduler interruption", () => {
  /** A clock whose sleeps last until aborted, like a real one during a long wait. */
  function stuckClock(): Clock & { sleeping: Promise<void> } {
    const fake = createFakeClock(T0);
    let started: () => void = () => undefined;
    const sleeping = new Promise<void>((resolve) => (started = resolve));
    return {
      now: fake.now,
      random: fake.random,
      sleeping,
      sleep: (_ms, signal) =>
        new Promise<void>((_resolve, reject) => {
          started();
          signal?.addEventListener("abort", () => reject(new InterruptedError()), { once: true });
        }),
    };
  }

  it("sends nothing when the signal has already fired", async () => {
    const controller = new AbortController();
    controller.abort();
    const { scheduler } = setup({ signal: controller.signal });
    let sent = false;
    await expect(scheduler.run(report, async () => (sent = true))).rejects.toThrow(InterruptedError);
    expect(sent).toBe(false);
  });

  it("ends a budget wait at once on Ctrl-C", async () => {
    const controller = new AbortController();
    const clock = stuckClock();
    const { scheduler } = setup({ signal: controller.signal, clock });
    for (let i = 0; i < 10; i++) await scheduler.run(report, async () => "ok");
    const run = scheduler.run(report, async () => "sent");
    await clock.sleeping;
    controller.abort();
    await expect(run).rejects.toThrow(InterruptedError);
    // The queued slot is given back: the next run does not wait for it (issue 12 item 10).
    expect((await scheduler.ledger.snapshot()).groups.reports.sends).toHaveLength(10);
  });

  it("ends a retry wait at once on Ctrl-C", async () => {
    const controller = new AbortController();
    const clock = stuckClock();
    const { scheduler } = setup({ signal: controller.signal, clock });
    const { send, times } = failing(clock, new ServiceError("503"));
    const run = scheduler.run(report, send);
    await clock.sleeping;
    controller.abort();
    await expect(run).rejects.toThrow(InterruptedError);
    expect(times).toHaveLength(1);
  });

  it("turns whatever a request aborted by Ctrl-C throws into an interruption, without retrying", async () => {
    const controller = new AbortController();
    const { clock, scheduler, events } = setup({ signal: controller.signal });
    const times: number[] = [];
    const run = scheduler.run(report, async () => {
      times.push(clock.now());
      controller.abort();
      throw new ServiceError("socket closed", { delivery: "maybe-received" });
    });
    await expect(run).rejects.toThrow(InterruptedError);
    expect(times).toHaveLength(1);
    // No retry was even announced.
    expect(events).toEqual([]);
  });

  it("an aborted request that failed in a way never retried is an interruption too", async () => {
    const controller = new AbortController();
    const { scheduler } = setup({ signal: controller.signal });
    const run = scheduler.run(report, async () => {
      controller.abort();
      throw new ServiceError("certificate not trusted", { retryable: false });
    });
    await expect(run).rejects.toBeInstanceOf(InterruptedError);
  });

  it("Ctrl-C while the slot is being reserved: nothing is sent and the slot is given back", async () => {
    const controller = new AbortController();
    const clock = createFakeClock(T0);
    const memory = new RateLedger({ limits: DEFAULT_RATE_LIMITS, clock });
    const released: number[] = [];
    const store: BudgetStore = {
      description: "memory",
      reserve: async (group, maxWaitMs) => {
        const reservation = await memory.reserve(group, maxWaitMs);
        controller.abort();
        return reservation;
      },
      settle: (group, slotAt) => memory.settle(group, slotAt),
      release: async (group, slotAt) => {
        released.push(slotAt - T0);
        await memory.release(group, slotAt);
      },
      noteRateLimited: (group, sentAt, retryAfterMs) => memory.noteRateLimited(group, sentAt, retryAfterMs),
      snapshot: () => memory.snapshot(),
      close: async () => undefined,
    };
    const { scheduler } = setup({ signal: controller.signal, clock, store });
    let sent = false;
    await expect(scheduler.run(report, async () => (sent = true))).rejects.toBeInstanceOf(InterruptedError);
    expect(sent).toBe(false);
    expect(released).toEqual([0]);
    expect((await memory.snapshot()).groups.reports.sends).toEqual([]);
  });
});

describe("Scheduler against a service stricter than published", () => {
  it("gets every request through, never sooner than Retry-After, with few 429s", async () => {
    // Published 10/60 s, but the service allows 6 per sliding 60 s and answers 429 with the
    // time until its oldest counted request leaves the window.
    const { clock, scheduler } = setup();
    const accepted: number[] = [];
    const rejections: { at: number; retryAfterMs: number }[] = [];
    const retriesTooSoon: number[] = [];
    const service = async (): Promise<number> => {
      const now = clock.now();
      const last = rejections.at(-1);
      if (last && now < last.at + last.retryAfterMs) retriesTooSoon.push(now);
      const inWindow = accepted.filter((t) => t > now - 60_000);
      if (inWindow.length >= 6) {
        const retryAfterMs = Math.ceil((inWindow[0]! + 60_000 - now) / 1_000) * 1_000;
        rejections.push({ at: now, retryAfterMs });
        throw new RateLimitError("429", { retryAfterMs });
      }
      accepted.push(now);
      return now;
    };
    for (let i = 0; i < 40; i++) await scheduler.run(report, service);
    expect(accepted).toHaveLength(40);
    expect(retriesTooSoon).toEqual([]);
    // Three 429s in a window teach the budget; the recovery probes that follow get rarer.
    expect(rejections.length).toBeLessThanOrEqual(6);
  });
});

describe("Scheduler edges (issue 27: survivors of npm run mutate on scheduler.ts)", () => {
  it("without a deadline a request queues for up to 10 minutes, not longer", async () => {
    // 1 per 9 min: the second request waits 9 min + 8.1 s margin, inside the 10 min.
    const nine = setup({ limits: { ...DEFAULT_RATE_LIMITS, reports: { limit: 1, windowMs: 540_000 } } });
    const nineTimes: number[] = [];
    for (let i = 0; i < 2; i++) await nine.scheduler.run(report, async () => nineTimes.push(nine.clock.now() - T0));
    expect(nineTimes).toEqual([0, 548_100]);
    // 1 per 15 min: the second would wait 15 min 13.5 s.
    const fifteen = setup({ limits: { ...DEFAULT_RATE_LIMITS, reports: { limit: 1, windowMs: 900_000 } } });
    await fifteen.scheduler.run(report, async () => "ok");
    await expect(fifteen.scheduler.run(report, async () => "ok")).rejects.toThrow(/next in 15m 14s; budget 1\/900s/);
  });

  it("waits for a Retry-After that ends exactly at the deadline", async () => {
    const { clock, scheduler } = setup({ deadlineMs: 5_000 });
    const { send, times } = failing(clock, new RateLimitError("429", { retryAfterMs: 5_000 }));
    await expect(scheduler.run(report, send)).resolves.toBe("ok");
    expect(times.map((t) => t - T0)).toEqual([0, 5_000]);
  });

  it("a retry whose budget slot lies beyond the deadline ends with the previous attempt's error", async () => {
    const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, access: { limit: 1, windowMs: 10_000 } };
    const { clock, scheduler } = setup({ limits, deadlineMs: 5_000, random: [0] });
    const error = new ServiceError("502", { status: 502 });
    const { send, times } = failing(clock, error);
    await expect(scheduler.run({ group: "access", retry: "safe", label: "token" }, send)).rejects.toBe(error);
    expect(times).toEqual([T0]);
  });

  it("runs without an onWait listener through budget waits and retries", async () => {
    const clock = createFakeClock(T0, [0]);
    const scheduler = new Scheduler({
      limits: { ...DEFAULT_RATE_LIMITS, reports: { limit: 1, windowMs: 10_000 } },
      retries: 1,
      clock,
    });
    const { send, times } = failing(clock, new ServiceError("503"));
    await expect(scheduler.run(report, send)).resolves.toBe("ok");
    expect(times.map((t) => t - T0)).toEqual([0, 10_150]);
  });

  it("caps the backoff at maxBackoffMs", async () => {
    const { clock, scheduler, events } = setup({ retries: 3, random: [0.999_9], maxBackoffMs: 2_000 });
    const { send } = failing(clock, new ServiceError("503"), new ServiceError("503"), new ServiceError("503"));
    await expect(scheduler.run(report, send)).resolves.toBe("ok");
    expect(events.map((e) => e.waitMs)).toEqual([999, 1_999, 1_999]);
  });

  it("a 429 given up on without a Retry-After, or with one of 0, is thrown as it came (no time to try again)", async () => {
    for (const error of [new RateLimitError("429"), new RateLimitError("429", { retryAfterMs: 0 })]) {
      const { clock, scheduler } = setup({ retries: 0 });
      const { send } = failing(clock, error);
      await expect(scheduler.run(report, send)).rejects.toBe(error);
    }
  });
});
