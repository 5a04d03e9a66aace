// @ts-nocheck
import { InterruptedError } from "./errors.js";

// Time and chance are injected so that budgets, backoff and polling are tested with a fake
// clock instead of real sleeps (house style: "an injected clock instead of sleeps").
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with InterruptedError as soon as `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1), for jitter. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new InterruptedError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** A clock for tests: time moves only when sleep() is called or advance() is used. */
export function createFakeClock(
  start = Date.UTC(2026, 10, 21),
  randomValues: number[] = [],
): Clock & {
  advance(ms: number): void;
  sleeps: number[];
} {
  let t = start;
  let i = 0;
  const sleeps: number[] = [];
  return {
    now: () => t,
    random: () => (randomValues.length ? (randomValues[i++ % randomValues.length] ?? 0.5) : 0.5),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new InterruptedError();
      sleeps.push(ms);
      t += Math.max(0, ms);
    },
    advance: (ms) => {
      t += ms;
    },
    sleeps,
  };
}
