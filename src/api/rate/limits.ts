import { UsageError } from "../../errors.js";

// The service limits requests per IP address in two groups (docs/service-spec.md §8). Every request
// the client sends belongs to exactly one of them.
export type RequestGroup = "reports" | "access";

export const REQUEST_GROUPS: readonly RequestGroup[] = ["reports", "access"];

export interface RateLimit {
  /** Requests allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
}

export type RateLimits = Record<RequestGroup, RateLimit>;

/** Spec §8: reports 10 per minute, access 100 per 5 minutes. */
export const DEFAULT_RATE_LIMITS: RateLimits = Object.freeze({
  reports: Object.freeze({ limit: 10, windowMs: 60_000 }),
  access: Object.freeze({ limit: 100, windowMs: 300_000 }),
});

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000 } as const;

const PART = /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i;

function isRequestGroup(name: string): name is RequestGroup {
  return (REQUEST_GROUPS as readonly string[]).includes(name);
}

/**
 * Parses SIMADMIN_RATE_LIMITS, e.g. "reports=10/60s,access=100/300s". Units ms, s, m; one or
 * both groups; a group not named keeps its default. Empty or undefined gives the defaults.
 * Throws UsageError naming the bad part, because a typo here would otherwise silently send
 * the tool into 429s (or make it needlessly slow).
 */
export function parseRateLimits(text: string | undefined): RateLimits {
  const limits: RateLimits = {
    reports: { ...DEFAULT_RATE_LIMITS.reports },
    access: { ...DEFAULT_RATE_LIMITS.access },
  };
  if (text === undefined || text.trim() === "") return limits;

  const seen = new Set<RequestGroup>();
  for (const rawPart of text.split(",")) {
    const part = rawPart.trim();
    const match = PART.exec(part);
    if (!match) {
      throw new UsageError(`SIMADMIN_RATE_LIMITS: "${part}" is not <group>=<count>/<duration>, e.g. "reports=10/60s"`, {
        hint: 'groups: reports, access; duration units: ms, s, m; e.g. "reports=10/60s,access=100/300s"',
      });
    }
    // Every group of PART is mandatory: a match has all four (no defaults that never apply).
    const [, rawGroup, rawCount, rawAmount, rawUnit] = match as unknown as [string, string, string, string, string];
    const group = rawGroup.toLowerCase();
    if (!isRequestGroup(group)) {
      throw new UsageError(`SIMADMIN_RATE_LIMITS: unknown group "${rawGroup}" in "${part}"; known groups: reports, access`);
    }
    if (seen.has(group)) {
      throw new UsageError(`SIMADMIN_RATE_LIMITS: group "${group}" is given more than once`);
    }
    seen.add(group);
    const limit = Number(rawCount);
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new UsageError(`SIMADMIN_RATE_LIMITS: the count in "${part}" must be a whole number of at least 1`);
    }
    const windowMs = Math.round(Number(rawAmount) * UNIT_MS[rawUnit.toLowerCase() as keyof typeof UNIT_MS]);
    if (!Number.isFinite(windowMs) || windowMs < 1) {
      throw new UsageError(`SIMADMIN_RATE_LIMITS: the duration in "${part}" must be longer than 0`);
    }
    limits[group] = { limit, windowMs };
  }
  return limits;
}

/** "10/60s" — for messages and progress lines. */
export function formatRateLimit(rate: RateLimit): string {
  const { limit, windowMs } = rate;
  if (windowMs % 1_000 === 0) return `${limit}/${windowMs / 1_000}s`;
  return `${limit}/${windowMs}ms`;
}
