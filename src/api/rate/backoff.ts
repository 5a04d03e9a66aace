// Delays between retries. Pure: the random source and the current time are passed in.

export const DEFAULT_BASE_BACKOFF_MS = 1_000;
export const DEFAULT_MAX_BACKOFF_MS = 30_000;

/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And
 * Jitter"): a uniform delay in [0, min(cap, base · 2^(retry−1))). Full jitter spreads the
 * retries of concurrent clients (two cron jobs hit by the same outage) instead of having them
 * retry in lock-step.
 *
 * @param retry 1 for the first retry, 2 for the second, …
 * @param random uniform in [0, 1)
 */
export function backoffDelayMs(
  retry: number,
  random: number,
  baseMs = DEFAULT_BASE_BACKOFF_MS,
  capMs = DEFAULT_MAX_BACKOFF_MS,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(Math.min(Math.max(random, 0), 1) * ceiling);
}

/**
 * The Retry-After header as a delay in ms (RFC 9110 §10.2.3): either delay-seconds or an
 * HTTP date. Undefined when absent or unreadable — the caller then backs off on its own.
 * A date in the past gives 0. Pass the response's Date header when there is one: an HTTP
 * date is then measured against the service's own clock, so our clock's skew does not
 * make us retry early.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
  responseDate?: string | null,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  // Only the HTTP-date forms: Date.parse alone would also accept "5" or "1.5" as years.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  // No Date header ("undefined", "null") or an unreadable one parses as NaN: then our own
  // clock is the measure.
  const serverNow = Date.parse(String(responseDate));
  return Math.max(0, at - (Number.isNaN(serverNow) ? nowMs : serverNow));
}
