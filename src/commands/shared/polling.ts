import type { RateLimit } from "../../api/rate/limits.js";
import type { Clock } from "../../clock.js";

// The one polling loop of simadmin: `completion --wait` (attempts), `import-status --wait`
// and `users import --wait` (bulk-import tasks). The service tells about neither by any
// other means than being asked again (docs/service-spec.md §6). The loop runs on the
// injected clock, so tests drive hours of waiting without sleeping; what is polled, how
// often and what progress says are the caller's.

/**
 * A wait may take at most this share of the access budget. Polls go through the shared
 * budget anyway (they can never cause a 429), but a wait runs for hours beside other work
 * on the same key and address — assignments, links, an import's status polls, other
 * runs — so it leaves them most of it. With the spec's 100 requests per 5 minutes the
 * shortest interval is 10 s (30 polls per window). The floor follows SIMADMIN_RATE_LIMITS,
 * so a larger budget (or a fast test budget) allows shorter intervals.
 */
export const POLL_SHARE_OF_ACCESS_BUDGET = 0.3;

/** The shortest average time between two polls that keeps a wait within its share. */
export function minimumPollIntervalMs(access: RateLimit): number {
  return Math.ceil(access.windowMs / (access.limit * POLL_SHARE_OF_ACCESS_BUDGET));
}

export interface PollLoop<T> {
  clock: Clock;
  signal: AbortSignal;
  /** The loop gives up this long after it started. */
  timeoutMs: number;
  /** The wait before round `round` (0-based); 0 in round 0 polls at once. */
  delayMs(round: number): number;
  /** One round of polling (`poll` counts the rounds from 1); a value ends the loop. */
  poll(poll: number): Promise<T | undefined>;
  /** About once a second while waiting: the time to the next round and to the deadline. */
  onCountdown?(untilNextMs: number, untilDeadlineMs: number): void;
}

export type PollOutcome<T> = { done: true; value: T; polls: number } | { done: false; polls: number };

/**
 * Polls until `poll` returns a value, or the deadline passes before the next round. Sleeps
 * at most a second at a time, so a countdown can be shown and Ctrl-C (the signal) ends the
 * wait at once.
 */
export async function pollUntil<T>(loop: PollLoop<T>): Promise<PollOutcome<T>> {
  const { clock, signal } = loop;
  const deadline = clock.now() + loop.timeoutMs;
  let polls = 0;
  for (let round = 0; ; round++) {
    const delay = loop.delayMs(round);
    if (round > 0 || delay > 0) {
      const left = deadline - clock.now();
      if (left <= 0) return { done: false, polls };
      const next = clock.now() + Math.min(delay, left);
      for (let remaining = next - clock.now(); remaining > 0; remaining = next - clock.now()) {
        loop.onCountdown?.(remaining, deadline - clock.now());
        await clock.sleep(Math.min(1000, remaining), signal);
      }
    }
    polls += 1;
    const value = await loop.poll(polls);
    if (value !== undefined) return { done: true, value, polls };
  }
}
