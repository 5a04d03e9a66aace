// Per-client request budgets (docs/service-spec.md §8: reports 10 per minute, access 100 per 5 minutes,
// per IP address). Pure: the caller passes the time, so tests need no real waiting.

export type RateWindowKind = "sliding" | "fixed";

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

/**
 * Counts accepted requests per key (a client address). A refused request does not count,
 * so a client that waits for Retry-After is always let through afterwards.
 */
export class RateLimiter {
  private readonly sliding = new Map<string, number[]>();
  private readonly fixed = new Map<string, { windowStart: number; count: number }>();

  constructor(
    readonly rule: RateLimitRule,
    readonly kind: RateWindowKind = "sliding",
  ) {
    if (!Number.isInteger(rule.limit) || rule.limit < 1) throw new RangeError("rate limit must be an integer ≥ 1");
    if (!(rule.windowMs > 0)) throw new RangeError("rate window must be > 0 ms");
  }

  /** Takes one slot for `key` at time `now` if one is free. */
  tryAcquire(key: string, now: number): RateDecision {
    return this.kind === "sliding" ? this.acquireSliding(key, now) : this.acquireFixed(key, now);
  }

  /** Slots `key` still has at `now`, without taking one. */
  remaining(key: string, now: number): number {
    if (this.kind === "sliding") {
      return this.rule.limit - this.liveStamps(key, now).length;
    }
    const entry = this.fixed.get(key);
    const windowStart = this.windowStartOf(now);
    return entry && entry.windowStart === windowStart ? this.rule.limit - entry.count : this.rule.limit;
  }

  reset(): void {
    this.sliding.clear();
    this.fixed.clear();
  }

  private liveStamps(key: string, now: number): number[] {
    const stamps = this.sliding.get(key) ?? [];
    // A request made exactly windowMs ago has left the window.
    const live = stamps.filter((t) => t > now - this.rule.windowMs);
    this.sliding.set(key, live);
    return live;
  }

  private acquireSliding(key: string, now: number): RateDecision {
    const live = this.liveStamps(key, now);
    if (live.length < this.rule.limit) {
      live.push(now);
      return { allowed: true, remaining: this.rule.limit - live.length };
    }
    // The slot frees when the oldest request that keeps the window full leaves it.
    const oldestBlocking = live[live.length - this.rule.limit] ?? now;
    return { allowed: false, retryAfterMs: Math.max(1, oldestBlocking + this.rule.windowMs - now) };
  }

  private windowStartOf(now: number): number {
    return Math.floor(now / this.rule.windowMs) * this.rule.windowMs;
  }

  private acquireFixed(key: string, now: number): RateDecision {
    const windowStart = this.windowStartOf(now);
    let entry = this.fixed.get(key);
    if (!entry || entry.windowStart !== windowStart) {
      entry = { windowStart, count: 0 };
      this.fixed.set(key, entry);
    }
    if (entry.count < this.rule.limit) {
      entry.count += 1;
      return { allowed: true, remaining: this.rule.limit - entry.count };
    }
    return { allowed: false, retryAfterMs: Math.max(1, windowStart + this.rule.windowMs - now) };
  }
}

/** Retry-After in whole seconds: rounded up, at least 1 (RFC 9110 has no fractions). */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** Spec §8. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<"reports" | "access", RateLimitRule>> = {
  reports: { limit: 10, windowMs: 60_000 },
  access: { limit: 100, windowMs: 300_000 },
};

/** One limiter per route group: the spec's budgets or their overrides, windows multiplied by rateScale. */
export function createLimiters(
  rateScale: number,
  overrides: { reports?: RateLimitRule; access?: RateLimitRule } | undefined,
  windowKind: RateWindowKind,
): Record<"reports" | "access", RateLimiter> {
  if (!(rateScale > 0)) throw new RangeError("rateScale must be > 0");
  const scaled = (group: "reports" | "access"): RateLimitRule => {
    const rule = overrides?.[group] ?? DEFAULT_RATE_LIMITS[group];
    return { limit: rule.limit, windowMs: rule.windowMs * rateScale };
  };
  return { reports: new RateLimiter(scaled("reports"), windowKind), access: new RateLimiter(scaled("access"), windowKind) };
}
