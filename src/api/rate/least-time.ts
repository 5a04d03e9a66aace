import { formatDuration } from "../../domain/durations.js";
import { safetyMarginMs } from "./budget.js";
import type { RateLimit, RateLimits, RequestGroup } from "./limits.js";

// The one policy for "how long will these requests take" (services.budget()): the least time
// a number of requests needs under a budget, the time left of a run under way, and the one
// way these durations are written. `reports --dry-run`, `reports sync --dry-run`, the bulk
// commands, `users import --dry-run` and `progress` all say the same for the same requests
// because they all ask here (docs/ci-and-cron.md, "--dry-run: requests and the least time").

/**
 * The least time `requests` requests take under a fresh budget: the first `limit` go at once,
 * each further `limit` one window later plus the scheduler's safety margin (budget.ts), which
 * the scheduler really waits. 91 report requests at 10 per 60 s: 9 × 60.9 s = 9m 8s.
 */
export function leastTimeMs(requests: number, rate: RateLimit): number {
  // Up to `limit` requests the formula gives 0 already; only "no requests" needs a guard.
  if (requests <= 0) return 0;
  return Math.floor((requests - 1) / rate.limit) * (rate.windowMs + safetyMarginMs(rate.windowMs));
}

export interface RunPace {
  /** Requests sent so far by this run, and when it started. */
  sent: number;
  startedAt: number;
  now: number;
  /** Requests still to send. */
  left: number;
}

export class BudgetTimes {
  constructor(readonly limits: RateLimits) {}

  /** The least time `requests` requests of `group` take from a fresh budget. */
  leastMs(group: RequestGroup, requests: number): number {
    return leastTimeMs(requests, this.limits[group]);
  }

  /**
   * What is left of a run: the pace so far, but never less than the budget allows for the
   * requests still to send (the first `limit` go at once, so the pace alone promises too much).
   */
  timeLeftMs(group: RequestGroup, pace: RunPace): number {
    if (pace.left <= 0) return 0;
    const byPace = pace.sent > 0 ? ((pace.now - pace.startedAt) / pace.sent) * pace.left : 0;
    return Math.max(byPace, this.leastMs(group, pace.left));
  }

  /** "1h 5m", "9m 8s", "45s": the one way budget durations are written. */
  format(ms: number): string {
    return formatDuration(ms);
  }

  /** A wait still to go, in whole seconds rounded up ("4s", "1m 1s"): it never reads "0s" while it lasts. */
  countdown(ms: number): string {
    return formatDuration(Math.ceil(ms / 1000) * 1000);
  }

  /** "about 9m 8s left", or undefined under a second (not worth saying). */
  timeLeftText(ms: number): string | undefined {
    return ms >= 1000 ? `about ${formatDuration(ms)} left` : undefined;
  }
}
