import { UsageError } from "../errors.js";

// Report ranges: which days a `reports` run covers, and the request windows it is split into.
// Pure: "today" is passed in by the caller (from the injected clock), so every rule here is
// tested without a clock, a network or a file system.
//
// Dates are calendar days in UTC, `YYYY-MM-DD`, as the service takes them (docs/service-spec.md §4.1). Inside
// this module a day is a whole number of days since 1970-01-01, so stepping by days never
// meets daylight-saving time or month lengths.

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;
const LAST_RE = /^(\d+)d$/;

/**
 * Spec §8: a report range is "at most 1 month (30 days)". Counted inclusively to be safe:
 * a window covers at most 30 calendar days, i.e. endDate − startDate ≤ 29 days — whichever
 * way the service counts, such a window is accepted.
 */
export const MAX_WINDOW_DAYS = 30;

/** `--last` longer than this is almost surely a typo (10 years of daily reports). */
export const MAX_LAST_DAYS = 3660;

export interface DateRange {
  /** First day, `YYYY-MM-DD`, included. */
  startDate: string;
  /** Last day, `YYYY-MM-DD`, included. */
  endDate: string;
}

/** Day number (days since 1970-01-01) of a real calendar date, or undefined ("2026-02-30" is not one). */
export function parseIsoDate(text: string): number | undefined {
  const match = DATE_RE.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const dayNumber = Math.round(Date.UTC(year, Number(match[2]) - 1, Number(match[3])) / DAY_MS);
  // Date.UTC rolls 2026-02-30 over to 2026-03-02, 2026-13-01 to 2027-01-01 and the years
  // 0..99 to 1900..1999: a real date is written back as it was given.
  if (formatIsoDate(dayNumber) !== text) return undefined;
  // Years before 1000 are not what anyone means.
  if (year < 1000) return undefined;
  return dayNumber;
}

export function formatIsoDate(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC calendar day of an instant (milliseconds since the epoch). */
export function utcDay(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

/** Number of days in a range, both ends included. */
export function rangeDays(range: DateRange): number {
  return requireDate(range.endDate, "endDate") - requireDate(range.startDate, "startDate") + 1;
}

function requireDate(text: string, what: string): number {
  const day = parseIsoDate(text);
  if (day === undefined) throw new RangeError(`${what} must be a real date YYYY-MM-DD, got ${JSON.stringify(text)}`);
  return day;
}

function parseDateFlag(flag: string, text: string): number {
  const day = parseIsoDate(text.trim());
  if (day === undefined) {
    const hint = DATE_RE.test(text.trim()) ? "not a real calendar date" : "expected YYYY-MM-DD, e.g. 2026-10-01";
    throw new UsageError(`${flag} ${JSON.stringify(text)}: ${hint}`);
  }
  return day;
}

export interface RangeOptions {
  from?: string | undefined;
  to?: string | undefined;
  month?: string | undefined;
  last?: string | undefined;
}

export interface ResolvedRange extends DateRange {
  /** Set when a --month still in progress was cut at today: a line for the user. */
  note?: string;
}

/**
 * Turns --from/--to, --month or --last into one inclusive range, or throws a UsageError
 * naming the flag. `today` is the current UTC day number.
 *
 * Choices (documented in `reports --help`):
 * - exactly one of --from/--to (both), --month, --last;
 * - a range may not end after today (UTC): there is no data for days to come, and a date in
 *   the future is far more often a typo (2062 for 2026) than a wish;
 * - --month of the current month ends today — "this month so far" — and says so;
 * - --last Nd is the N whole days ending yesterday (UTC): report data lags behind by about a
 *   quarter of an hour and today is still partial, so a daily cron job running
 *   `--last 1d` gets yesterday complete, and the next day's run neither repeats nor skips
 *   a day.
 */
export function resolveRange(options: RangeOptions, today: number): ResolvedRange {
  return resolveRangeSpec(rangeSpecOf(options), today);
}

/** The one way the range was given, its flags already checked (rangeSpecOf). */
export type RangeSpec = { month: string } | { last: string } | { from: string; to: string };

/**
 * A checked range spec against today: the dates themselves (the flags were checked once, by
 * the option schema).
 */
export function resolveRangeSpec(spec: RangeSpec, today: number): ResolvedRange {
  if ("month" in spec) return monthRange(spec.month, today);
  if ("last" in spec) return lastRange(spec.last, today);

  const start = parseDateFlag("--from", spec.from);
  const end = parseDateFlag("--to", spec.to);
  if (start > end) {
    throw new UsageError(`--from ${formatIsoDate(start)} is after --to ${formatIsoDate(end)}: the range is reversed`);
  }
  if (end > today) {
    throw new UsageError(`--to ${formatIsoDate(end)} is in the future (today is ${formatIsoDate(today)} UTC)`);
  }
  return { startDate: formatIsoDate(start), endDate: formatIsoDate(end) };
}

/**
 * The range flags without the dates: exactly one way of giving the range, and --from with
 * --to. Needs no clock, so the option schema of `reports` checks it before anything else
 * and hands the command the spec it found.
 */
export function rangeSpecOf(options: RangeOptions): RangeSpec {
  const given = [
    options.from !== undefined || options.to !== undefined ? "--from/--to" : undefined,
    options.month !== undefined ? "--month" : undefined,
    options.last !== undefined ? "--last" : undefined,
  ].filter((g): g is string => g !== undefined);
  if (given.length === 0) {
    throw new UsageError("a date range is required: --from <date> --to <date>, --month <YYYY-MM> or --last <N>d", {
      hint: "e.g. --month 2026-10 or --last 7d",
    });
  }
  if (given.length > 1) {
    throw new UsageError(`give one date range, not ${given.join(" and ")}`);
  }
  if (options.month !== undefined) return { month: options.month };
  if (options.last !== undefined) return { last: options.last };
  if (options.from === undefined) throw new UsageError("--to needs --from: give both, e.g. --from 2026-01-01 --to 2026-03-31");
  if (options.to === undefined) throw new UsageError("--from needs --to: give both, e.g. --from 2026-01-01 --to 2026-03-31");
  return { from: options.from, to: options.to };
}

function monthRange(text: string, today: number): ResolvedRange {
  const match = MONTH_RE.exec(text.trim());
  const year = Number(match?.[1]);
  const month = Number(match?.[2]);
  if (!match || month < 1 || month > 12 || year < 1000) {
    throw new UsageError(`--month ${JSON.stringify(text)}: expected YYYY-MM, e.g. 2026-10`);
  }
  const start = Math.round(Date.UTC(year, month - 1, 1) / DAY_MS);
  // Day 0 of the next month is the last day of this one (leap years included).
  const end = Math.round(Date.UTC(year, month, 0) / DAY_MS);
  if (start > today) {
    throw new UsageError(`--month ${text.trim()} has not begun yet (today is ${formatIsoDate(today)} UTC)`);
  }
  if (end > today) {
    return {
      startDate: formatIsoDate(start),
      endDate: formatIsoDate(today),
      note: `${text.trim()} is not over yet: reporting ${formatIsoDate(start)}..${formatIsoDate(today)} (today, UTC, is partial)`,
    };
  }
  return { startDate: formatIsoDate(start), endDate: formatIsoDate(end) };
}

function lastRange(text: string, today: number): ResolvedRange {
  const match = LAST_RE.exec(text.trim());
  const days = Number(match?.[1]);
  // A number too long to be exact is far above MAX_LAST_DAYS: the bounds refuse it too.
  if (!match || days < 1 || days > MAX_LAST_DAYS) {
    throw new UsageError(
      `--last ${JSON.stringify(text)}: expected a number of days from 1 to ${MAX_LAST_DAYS} written Nd, e.g. 7d`,
    );
  }
  const end = today - 1;
  return { startDate: formatIsoDate(end - days + 1), endDate: formatIsoDate(end) };
}

/**
 * Consecutive, non-overlapping windows of at most `maxDays` days (both ends included) that
 * cover the range exactly, in order. The last window takes what is left.
 */
export function splitIntoWindows(range: DateRange, maxDays: number = MAX_WINDOW_DAYS): DateRange[] {
  if (!Number.isInteger(maxDays) || maxDays < 1)
    throw new RangeError(`window size must be a positive whole number of days, not ${maxDays}`);
  const start = requireDate(range.startDate, "startDate");
  const end = requireDate(range.endDate, "endDate");
  if (start > end) throw new RangeError(`startDate ${range.startDate} is after endDate ${range.endDate}`);
  const windows: DateRange[] = [];
  for (let first = start; first <= end; first += maxDays) {
    windows.push({ startDate: formatIsoDate(first), endDate: formatIsoDate(Math.min(first + maxDays - 1, end)) });
  }
  return windows;
}
