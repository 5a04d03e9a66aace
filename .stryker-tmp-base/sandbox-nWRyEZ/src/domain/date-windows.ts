// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { UsageError } from "../errors.js";

// Report ranges: which days a `reports` run covers, and the request windows it is split into.
// Pure: "today" is passed in by the caller (from the injected clock), so every rule here is
// tested without a clock, a network or a file system.
//
// Dates are calendar days in UTC, `YYYY-MM-DD`, as the service takes them (docs/service-spec.md §4.1). Inside
// this module a day is a whole number of days since 1970-01-01, so stepping by days never
// meets daylight-saving time or month lengths.

const DAY_MS = 86_400_000;
const DATE_RE = stryMutAct_9fa48("2703") ? /^(\d{4})-(\d{2})-(\D{2})$/ : stryMutAct_9fa48("2702") ? /^(\d{4})-(\d{2})-(\d)$/ : stryMutAct_9fa48("2701") ? /^(\d{4})-(\D{2})-(\d{2})$/ : stryMutAct_9fa48("2700") ? /^(\d{4})-(\d)-(\d{2})$/ : stryMutAct_9fa48("2699") ? /^(\D{4})-(\d{2})-(\d{2})$/ : stryMutAct_9fa48("2698") ? /^(\d)-(\d{2})-(\d{2})$/ : stryMutAct_9fa48("2697") ? /^(\d{4})-(\d{2})-(\d{2})/ : stryMutAct_9fa48("2696") ? /(\d{4})-(\d{2})-(\d{2})$/ : (stryCov_9fa48("2696", "2697", "2698", "2699", "2700", "2701", "2702", "2703"), /^(\d{4})-(\d{2})-(\d{2})$/);
const MONTH_RE = stryMutAct_9fa48("2709") ? /^(\d{4})-(\D{2})$/ : stryMutAct_9fa48("2708") ? /^(\d{4})-(\d)$/ : stryMutAct_9fa48("2707") ? /^(\D{4})-(\d{2})$/ : stryMutAct_9fa48("2706") ? /^(\d)-(\d{2})$/ : stryMutAct_9fa48("2705") ? /^(\d{4})-(\d{2})/ : stryMutAct_9fa48("2704") ? /(\d{4})-(\d{2})$/ : (stryCov_9fa48("2704", "2705", "2706", "2707", "2708", "2709"), /^(\d{4})-(\d{2})$/);
const LAST_RE = stryMutAct_9fa48("2713") ? /^(\D+)d$/ : stryMutAct_9fa48("2712") ? /^(\d)d$/ : stryMutAct_9fa48("2711") ? /^(\d+)d/ : stryMutAct_9fa48("2710") ? /(\d+)d$/ : (stryCov_9fa48("2710", "2711", "2712", "2713"), /^(\d+)d$/);

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
  if (stryMutAct_9fa48("2714")) {
    {}
  } else {
    stryCov_9fa48("2714");
    const match = DATE_RE.exec(text);
    if (stryMutAct_9fa48("2717") ? false : stryMutAct_9fa48("2716") ? true : stryMutAct_9fa48("2715") ? match : (stryCov_9fa48("2715", "2716", "2717"), !match)) return undefined;
    const year = Number(match[1]);
    const month = Number(match[2]);
    const day = Number(match[3]);
    const ms = Date.UTC(year, stryMutAct_9fa48("2718") ? month + 1 : (stryCov_9fa48("2718"), month - 1), day);
    const date = new Date(ms);
    // Date.UTC rolls 2026-02-30 over to 2026-03-02: a real date survives the round trip.
    if (stryMutAct_9fa48("2721") ? (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) && date.getUTCDate() !== day : stryMutAct_9fa48("2720") ? false : stryMutAct_9fa48("2719") ? true : (stryCov_9fa48("2719", "2720", "2721"), (stryMutAct_9fa48("2723") ? date.getUTCFullYear() !== year && date.getUTCMonth() !== month - 1 : stryMutAct_9fa48("2722") ? false : (stryCov_9fa48("2722", "2723"), (stryMutAct_9fa48("2725") ? date.getUTCFullYear() === year : stryMutAct_9fa48("2724") ? false : (stryCov_9fa48("2724", "2725"), date.getUTCFullYear() !== year)) || (stryMutAct_9fa48("2727") ? date.getUTCMonth() === month - 1 : stryMutAct_9fa48("2726") ? false : (stryCov_9fa48("2726", "2727"), date.getUTCMonth() !== (stryMutAct_9fa48("2728") ? month + 1 : (stryCov_9fa48("2728"), month - 1)))))) || (stryMutAct_9fa48("2730") ? date.getUTCDate() === day : stryMutAct_9fa48("2729") ? false : (stryCov_9fa48("2729", "2730"), date.getUTCDate() !== day)))) return undefined;
    // Date.UTC maps years 0..99 to 1900..1999; such dates are not what anyone means.
    if (stryMutAct_9fa48("2734") ? year >= 1000 : stryMutAct_9fa48("2733") ? year <= 1000 : stryMutAct_9fa48("2732") ? false : stryMutAct_9fa48("2731") ? true : (stryCov_9fa48("2731", "2732", "2733", "2734"), year < 1000)) return undefined;
    return Math.round(stryMutAct_9fa48("2735") ? ms * DAY_MS : (stryCov_9fa48("2735"), ms / DAY_MS));
  }
}
export function formatIsoDate(dayNumber: number): string {
  if (stryMutAct_9fa48("2736")) {
    {}
  } else {
    stryCov_9fa48("2736");
    return stryMutAct_9fa48("2737") ? new Date(dayNumber * DAY_MS).toISOString() : (stryCov_9fa48("2737"), new Date(stryMutAct_9fa48("2738") ? dayNumber / DAY_MS : (stryCov_9fa48("2738"), dayNumber * DAY_MS)).toISOString().slice(0, 10));
  }
}

/** The UTC calendar day of an instant (milliseconds since the epoch). */
export function utcDay(epochMs: number): number {
  if (stryMutAct_9fa48("2739")) {
    {}
  } else {
    stryCov_9fa48("2739");
    return Math.floor(stryMutAct_9fa48("2740") ? epochMs * DAY_MS : (stryCov_9fa48("2740"), epochMs / DAY_MS));
  }
}

/** Number of days in a range, both ends included. */
export function rangeDays(range: DateRange): number {
  if (stryMutAct_9fa48("2741")) {
    {}
  } else {
    stryCov_9fa48("2741");
    return stryMutAct_9fa48("2742") ? requireDate(range.endDate, "endDate") - requireDate(range.startDate, "startDate") - 1 : (stryCov_9fa48("2742"), (stryMutAct_9fa48("2743") ? requireDate(range.endDate, "endDate") + requireDate(range.startDate, "startDate") : (stryCov_9fa48("2743"), requireDate(range.endDate, stryMutAct_9fa48("2744") ? "" : (stryCov_9fa48("2744"), "endDate")) - requireDate(range.startDate, stryMutAct_9fa48("2745") ? "" : (stryCov_9fa48("2745"), "startDate")))) + 1);
  }
}
function requireDate(text: string, what: string): number {
  if (stryMutAct_9fa48("2746")) {
    {}
  } else {
    stryCov_9fa48("2746");
    const day = parseIsoDate(text);
    if (stryMutAct_9fa48("2749") ? day !== undefined : stryMutAct_9fa48("2748") ? false : stryMutAct_9fa48("2747") ? true : (stryCov_9fa48("2747", "2748", "2749"), day === undefined)) throw new RangeError(stryMutAct_9fa48("2750") ? `` : (stryCov_9fa48("2750"), `${what} must be a real date YYYY-MM-DD, got ${JSON.stringify(text)}`));
    return day;
  }
}
function parseDateFlag(flag: string, text: string): number {
  if (stryMutAct_9fa48("2751")) {
    {}
  } else {
    stryCov_9fa48("2751");
    const day = parseIsoDate(stryMutAct_9fa48("2752") ? text : (stryCov_9fa48("2752"), text.trim()));
    if (stryMutAct_9fa48("2755") ? day !== undefined : stryMutAct_9fa48("2754") ? false : stryMutAct_9fa48("2753") ? true : (stryCov_9fa48("2753", "2754", "2755"), day === undefined)) {
      if (stryMutAct_9fa48("2756")) {
        {}
      } else {
        stryCov_9fa48("2756");
        const hint = DATE_RE.test(stryMutAct_9fa48("2757") ? text : (stryCov_9fa48("2757"), text.trim())) ? stryMutAct_9fa48("2758") ? "" : (stryCov_9fa48("2758"), "not a real calendar date") : stryMutAct_9fa48("2759") ? "" : (stryCov_9fa48("2759"), "expected YYYY-MM-DD, e.g. 2026-10-01");
        throw new UsageError(stryMutAct_9fa48("2760") ? `` : (stryCov_9fa48("2760"), `${flag} ${JSON.stringify(text)}: ${hint}`));
      }
    }
    return day;
  }
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
  if (stryMutAct_9fa48("2761")) {
    {}
  } else {
    stryCov_9fa48("2761");
    return resolveRangeSpec(rangeSpecOf(options), today);
  }
}

/** The one way the range was given, its flags already checked (rangeSpecOf). */
export type RangeSpec = {
  month: string;
} | {
  last: string;
} | {
  from: string;
  to: string;
};

/**
 * A checked range spec against today: the dates themselves (the flags were checked once, by
 * the option schema; issue 27 item 1).
 */
export function resolveRangeSpec(spec: RangeSpec, today: number): ResolvedRange {
  if (stryMutAct_9fa48("2762")) {
    {}
  } else {
    stryCov_9fa48("2762");
    if (stryMutAct_9fa48("2764") ? false : stryMutAct_9fa48("2763") ? true : (stryCov_9fa48("2763", "2764"), (stryMutAct_9fa48("2765") ? "" : (stryCov_9fa48("2765"), "month")) in spec)) return monthRange(spec.month, today);
    if (stryMutAct_9fa48("2767") ? false : stryMutAct_9fa48("2766") ? true : (stryCov_9fa48("2766", "2767"), (stryMutAct_9fa48("2768") ? "" : (stryCov_9fa48("2768"), "last")) in spec)) return lastRange(spec.last, today);
    const start = parseDateFlag(stryMutAct_9fa48("2769") ? "" : (stryCov_9fa48("2769"), "--from"), spec.from);
    const end = parseDateFlag(stryMutAct_9fa48("2770") ? "" : (stryCov_9fa48("2770"), "--to"), spec.to);
    if (stryMutAct_9fa48("2774") ? start <= end : stryMutAct_9fa48("2773") ? start >= end : stryMutAct_9fa48("2772") ? false : stryMutAct_9fa48("2771") ? true : (stryCov_9fa48("2771", "2772", "2773", "2774"), start > end)) {
      if (stryMutAct_9fa48("2775")) {
        {}
      } else {
        stryCov_9fa48("2775");
        throw new UsageError(stryMutAct_9fa48("2776") ? `` : (stryCov_9fa48("2776"), `--from ${formatIsoDate(start)} is after --to ${formatIsoDate(end)}: the range is reversed`));
      }
    }
    if (stryMutAct_9fa48("2780") ? end <= today : stryMutAct_9fa48("2779") ? end >= today : stryMutAct_9fa48("2778") ? false : stryMutAct_9fa48("2777") ? true : (stryCov_9fa48("2777", "2778", "2779", "2780"), end > today)) {
      if (stryMutAct_9fa48("2781")) {
        {}
      } else {
        stryCov_9fa48("2781");
        throw new UsageError(stryMutAct_9fa48("2782") ? `` : (stryCov_9fa48("2782"), `--to ${formatIsoDate(end)} is in the future (today is ${formatIsoDate(today)} UTC)`));
      }
    }
    return stryMutAct_9fa48("2783") ? {} : (stryCov_9fa48("2783"), {
      startDate: formatIsoDate(start),
      endDate: formatIsoDate(end)
    });
  }
}

/**
 * The range flags without the dates: exactly one way of giving the range, and --from with
 * --to. Needs no clock, so the option schema of `reports` checks it before anything else
 * and hands the command the spec it found.
 */
export function rangeSpecOf(options: RangeOptions): RangeSpec {
  if (stryMutAct_9fa48("2784")) {
    {}
  } else {
    stryCov_9fa48("2784");
    const given = stryMutAct_9fa48("2785") ? [options.from !== undefined || options.to !== undefined ? "--from/--to" : undefined, options.month !== undefined ? "--month" : undefined, options.last !== undefined ? "--last" : undefined] : (stryCov_9fa48("2785"), (stryMutAct_9fa48("2786") ? [] : (stryCov_9fa48("2786"), [(stryMutAct_9fa48("2789") ? options.from !== undefined && options.to !== undefined : stryMutAct_9fa48("2788") ? false : stryMutAct_9fa48("2787") ? true : (stryCov_9fa48("2787", "2788", "2789"), (stryMutAct_9fa48("2791") ? options.from === undefined : stryMutAct_9fa48("2790") ? false : (stryCov_9fa48("2790", "2791"), options.from !== undefined)) || (stryMutAct_9fa48("2793") ? options.to === undefined : stryMutAct_9fa48("2792") ? false : (stryCov_9fa48("2792", "2793"), options.to !== undefined)))) ? stryMutAct_9fa48("2794") ? "" : (stryCov_9fa48("2794"), "--from/--to") : undefined, (stryMutAct_9fa48("2797") ? options.month === undefined : stryMutAct_9fa48("2796") ? false : stryMutAct_9fa48("2795") ? true : (stryCov_9fa48("2795", "2796", "2797"), options.month !== undefined)) ? stryMutAct_9fa48("2798") ? "" : (stryCov_9fa48("2798"), "--month") : undefined, (stryMutAct_9fa48("2801") ? options.last === undefined : stryMutAct_9fa48("2800") ? false : stryMutAct_9fa48("2799") ? true : (stryCov_9fa48("2799", "2800", "2801"), options.last !== undefined)) ? stryMutAct_9fa48("2802") ? "" : (stryCov_9fa48("2802"), "--last") : undefined])).filter(stryMutAct_9fa48("2803") ? () => undefined : (stryCov_9fa48("2803"), (g): g is string => stryMutAct_9fa48("2806") ? g === undefined : stryMutAct_9fa48("2805") ? false : stryMutAct_9fa48("2804") ? true : (stryCov_9fa48("2804", "2805", "2806"), g !== undefined))));
    if (stryMutAct_9fa48("2809") ? given.length !== 0 : stryMutAct_9fa48("2808") ? false : stryMutAct_9fa48("2807") ? true : (stryCov_9fa48("2807", "2808", "2809"), given.length === 0)) {
      if (stryMutAct_9fa48("2810")) {
        {}
      } else {
        stryCov_9fa48("2810");
        throw new UsageError(stryMutAct_9fa48("2811") ? "" : (stryCov_9fa48("2811"), "a date range is required: --from <date> --to <date>, --month <YYYY-MM> or --last <N>d"), stryMutAct_9fa48("2812") ? {} : (stryCov_9fa48("2812"), {
          hint: stryMutAct_9fa48("2813") ? "" : (stryCov_9fa48("2813"), "e.g. --month 2026-10 or --last 7d")
        }));
      }
    }
    if (stryMutAct_9fa48("2817") ? given.length <= 1 : stryMutAct_9fa48("2816") ? given.length >= 1 : stryMutAct_9fa48("2815") ? false : stryMutAct_9fa48("2814") ? true : (stryCov_9fa48("2814", "2815", "2816", "2817"), given.length > 1)) {
      if (stryMutAct_9fa48("2818")) {
        {}
      } else {
        stryCov_9fa48("2818");
        throw new UsageError(stryMutAct_9fa48("2819") ? `` : (stryCov_9fa48("2819"), `give one date range, not ${given.join(stryMutAct_9fa48("2820") ? "" : (stryCov_9fa48("2820"), " and "))}`));
      }
    }
    if (stryMutAct_9fa48("2823") ? options.month === undefined : stryMutAct_9fa48("2822") ? false : stryMutAct_9fa48("2821") ? true : (stryCov_9fa48("2821", "2822", "2823"), options.month !== undefined)) return stryMutAct_9fa48("2824") ? {} : (stryCov_9fa48("2824"), {
      month: options.month
    });
    if (stryMutAct_9fa48("2827") ? options.last === undefined : stryMutAct_9fa48("2826") ? false : stryMutAct_9fa48("2825") ? true : (stryCov_9fa48("2825", "2826", "2827"), options.last !== undefined)) return stryMutAct_9fa48("2828") ? {} : (stryCov_9fa48("2828"), {
      last: options.last
    });
    if (stryMutAct_9fa48("2831") ? options.from !== undefined : stryMutAct_9fa48("2830") ? false : stryMutAct_9fa48("2829") ? true : (stryCov_9fa48("2829", "2830", "2831"), options.from === undefined)) throw new UsageError(stryMutAct_9fa48("2832") ? "" : (stryCov_9fa48("2832"), "--to needs --from: give both, e.g. --from 2026-01-01 --to 2026-03-31"));
    if (stryMutAct_9fa48("2835") ? options.to !== undefined : stryMutAct_9fa48("2834") ? false : stryMutAct_9fa48("2833") ? true : (stryCov_9fa48("2833", "2834", "2835"), options.to === undefined)) throw new UsageError(stryMutAct_9fa48("2836") ? "" : (stryCov_9fa48("2836"), "--from needs --to: give both, e.g. --from 2026-01-01 --to 2026-03-31"));
    return stryMutAct_9fa48("2837") ? {} : (stryCov_9fa48("2837"), {
      from: options.from,
      to: options.to
    });
  }
}
function monthRange(text: string, today: number): ResolvedRange {
  if (stryMutAct_9fa48("2838")) {
    {}
  } else {
    stryCov_9fa48("2838");
    const match = MONTH_RE.exec(stryMutAct_9fa48("2839") ? text : (stryCov_9fa48("2839"), text.trim()));
    const year = Number(stryMutAct_9fa48("2840") ? match[1] : (stryCov_9fa48("2840"), match?.[1]));
    const month = Number(stryMutAct_9fa48("2841") ? match[2] : (stryCov_9fa48("2841"), match?.[2]));
    if (stryMutAct_9fa48("2844") ? (!match || month < 1 || month > 12) && year < 1000 : stryMutAct_9fa48("2843") ? false : stryMutAct_9fa48("2842") ? true : (stryCov_9fa48("2842", "2843", "2844"), (stryMutAct_9fa48("2846") ? (!match || month < 1) && month > 12 : stryMutAct_9fa48("2845") ? false : (stryCov_9fa48("2845", "2846"), (stryMutAct_9fa48("2848") ? !match && month < 1 : stryMutAct_9fa48("2847") ? false : (stryCov_9fa48("2847", "2848"), (stryMutAct_9fa48("2849") ? match : (stryCov_9fa48("2849"), !match)) || (stryMutAct_9fa48("2852") ? month >= 1 : stryMutAct_9fa48("2851") ? month <= 1 : stryMutAct_9fa48("2850") ? false : (stryCov_9fa48("2850", "2851", "2852"), month < 1)))) || (stryMutAct_9fa48("2855") ? month <= 12 : stryMutAct_9fa48("2854") ? month >= 12 : stryMutAct_9fa48("2853") ? false : (stryCov_9fa48("2853", "2854", "2855"), month > 12)))) || (stryMutAct_9fa48("2858") ? year >= 1000 : stryMutAct_9fa48("2857") ? year <= 1000 : stryMutAct_9fa48("2856") ? false : (stryCov_9fa48("2856", "2857", "2858"), year < 1000)))) {
      if (stryMutAct_9fa48("2859")) {
        {}
      } else {
        stryCov_9fa48("2859");
        throw new UsageError(stryMutAct_9fa48("2860") ? `` : (stryCov_9fa48("2860"), `--month ${JSON.stringify(text)}: expected YYYY-MM, e.g. 2026-10`));
      }
    }
    const start = Math.round(stryMutAct_9fa48("2861") ? Date.UTC(year, month - 1, 1) * DAY_MS : (stryCov_9fa48("2861"), Date.UTC(year, stryMutAct_9fa48("2862") ? month + 1 : (stryCov_9fa48("2862"), month - 1), 1) / DAY_MS));
    // Day 0 of the next month is the last day of this one (leap years included).
    const end = Math.round(stryMutAct_9fa48("2863") ? Date.UTC(year, month, 0) * DAY_MS : (stryCov_9fa48("2863"), Date.UTC(year, month, 0) / DAY_MS));
    if (stryMutAct_9fa48("2867") ? start <= today : stryMutAct_9fa48("2866") ? start >= today : stryMutAct_9fa48("2865") ? false : stryMutAct_9fa48("2864") ? true : (stryCov_9fa48("2864", "2865", "2866", "2867"), start > today)) {
      if (stryMutAct_9fa48("2868")) {
        {}
      } else {
        stryCov_9fa48("2868");
        throw new UsageError(stryMutAct_9fa48("2869") ? `` : (stryCov_9fa48("2869"), `--month ${stryMutAct_9fa48("2870") ? text : (stryCov_9fa48("2870"), text.trim())} has not begun yet (today is ${formatIsoDate(today)} UTC)`));
      }
    }
    if (stryMutAct_9fa48("2874") ? end <= today : stryMutAct_9fa48("2873") ? end >= today : stryMutAct_9fa48("2872") ? false : stryMutAct_9fa48("2871") ? true : (stryCov_9fa48("2871", "2872", "2873", "2874"), end > today)) {
      if (stryMutAct_9fa48("2875")) {
        {}
      } else {
        stryCov_9fa48("2875");
        return stryMutAct_9fa48("2876") ? {} : (stryCov_9fa48("2876"), {
          startDate: formatIsoDate(start),
          endDate: formatIsoDate(today),
          note: stryMutAct_9fa48("2877") ? `` : (stryCov_9fa48("2877"), `${stryMutAct_9fa48("2878") ? text : (stryCov_9fa48("2878"), text.trim())} is not over yet: reporting ${formatIsoDate(start)}..${formatIsoDate(today)} (today, UTC, is partial)`)
        });
      }
    }
    return stryMutAct_9fa48("2879") ? {} : (stryCov_9fa48("2879"), {
      startDate: formatIsoDate(start),
      endDate: formatIsoDate(end)
    });
  }
}
function lastRange(text: string, today: number): ResolvedRange {
  if (stryMutAct_9fa48("2880")) {
    {}
  } else {
    stryCov_9fa48("2880");
    const match = LAST_RE.exec(stryMutAct_9fa48("2881") ? text : (stryCov_9fa48("2881"), text.trim()));
    const days = Number(stryMutAct_9fa48("2882") ? match[1] : (stryCov_9fa48("2882"), match?.[1]));
    if (stryMutAct_9fa48("2885") ? (!match || !Number.isSafeInteger(days) || days < 1) && days > MAX_LAST_DAYS : stryMutAct_9fa48("2884") ? false : stryMutAct_9fa48("2883") ? true : (stryCov_9fa48("2883", "2884", "2885"), (stryMutAct_9fa48("2887") ? (!match || !Number.isSafeInteger(days)) && days < 1 : stryMutAct_9fa48("2886") ? false : (stryCov_9fa48("2886", "2887"), (stryMutAct_9fa48("2889") ? !match && !Number.isSafeInteger(days) : stryMutAct_9fa48("2888") ? false : (stryCov_9fa48("2888", "2889"), (stryMutAct_9fa48("2890") ? match : (stryCov_9fa48("2890"), !match)) || (stryMutAct_9fa48("2891") ? Number.isSafeInteger(days) : (stryCov_9fa48("2891"), !Number.isSafeInteger(days))))) || (stryMutAct_9fa48("2894") ? days >= 1 : stryMutAct_9fa48("2893") ? days <= 1 : stryMutAct_9fa48("2892") ? false : (stryCov_9fa48("2892", "2893", "2894"), days < 1)))) || (stryMutAct_9fa48("2897") ? days <= MAX_LAST_DAYS : stryMutAct_9fa48("2896") ? days >= MAX_LAST_DAYS : stryMutAct_9fa48("2895") ? false : (stryCov_9fa48("2895", "2896", "2897"), days > MAX_LAST_DAYS)))) {
      if (stryMutAct_9fa48("2898")) {
        {}
      } else {
        stryCov_9fa48("2898");
        throw new UsageError(stryMutAct_9fa48("2899") ? `` : (stryCov_9fa48("2899"), `--last ${JSON.stringify(text)}: expected a number of days from 1 to ${MAX_LAST_DAYS} written Nd, e.g. 7d`));
      }
    }
    const end = stryMutAct_9fa48("2900") ? today + 1 : (stryCov_9fa48("2900"), today - 1);
    return stryMutAct_9fa48("2901") ? {} : (stryCov_9fa48("2901"), {
      startDate: formatIsoDate(stryMutAct_9fa48("2902") ? end - days - 1 : (stryCov_9fa48("2902"), (stryMutAct_9fa48("2903") ? end + days : (stryCov_9fa48("2903"), end - days)) + 1)),
      endDate: formatIsoDate(end)
    });
  }
}

/**
 * Consecutive, non-overlapping windows of at most `maxDays` days (both ends included) that
 * cover the range exactly, in order. The last window takes what is left.
 */
export function splitIntoWindows(range: DateRange, maxDays: number = MAX_WINDOW_DAYS): DateRange[] {
  if (stryMutAct_9fa48("2904")) {
    {}
  } else {
    stryCov_9fa48("2904");
    if (stryMutAct_9fa48("2907") ? !Number.isInteger(maxDays) && maxDays < 1 : stryMutAct_9fa48("2906") ? false : stryMutAct_9fa48("2905") ? true : (stryCov_9fa48("2905", "2906", "2907"), (stryMutAct_9fa48("2908") ? Number.isInteger(maxDays) : (stryCov_9fa48("2908"), !Number.isInteger(maxDays))) || (stryMutAct_9fa48("2911") ? maxDays >= 1 : stryMutAct_9fa48("2910") ? maxDays <= 1 : stryMutAct_9fa48("2909") ? false : (stryCov_9fa48("2909", "2910", "2911"), maxDays < 1)))) throw new RangeError(stryMutAct_9fa48("2912") ? `` : (stryCov_9fa48("2912"), `window size must be a positive whole number of days, not ${maxDays}`));
    const start = requireDate(range.startDate, stryMutAct_9fa48("2913") ? "" : (stryCov_9fa48("2913"), "startDate"));
    const end = requireDate(range.endDate, stryMutAct_9fa48("2914") ? "" : (stryCov_9fa48("2914"), "endDate"));
    if (stryMutAct_9fa48("2918") ? start <= end : stryMutAct_9fa48("2917") ? start >= end : stryMutAct_9fa48("2916") ? false : stryMutAct_9fa48("2915") ? true : (stryCov_9fa48("2915", "2916", "2917", "2918"), start > end)) throw new RangeError(stryMutAct_9fa48("2919") ? `` : (stryCov_9fa48("2919"), `startDate ${range.startDate} is after endDate ${range.endDate}`));
    const windows: DateRange[] = stryMutAct_9fa48("2920") ? ["Stryker was here"] : (stryCov_9fa48("2920"), []);
    for (let first = start; stryMutAct_9fa48("2923") ? first > end : stryMutAct_9fa48("2922") ? first < end : stryMutAct_9fa48("2921") ? false : (stryCov_9fa48("2921", "2922", "2923"), first <= end); stryMutAct_9fa48("2924") ? first -= maxDays : (stryCov_9fa48("2924"), first += maxDays)) {
      if (stryMutAct_9fa48("2925")) {
        {}
      } else {
        stryCov_9fa48("2925");
        windows.push(stryMutAct_9fa48("2926") ? {} : (stryCov_9fa48("2926"), {
          startDate: formatIsoDate(first),
          endDate: formatIsoDate(stryMutAct_9fa48("2927") ? Math.max(first + maxDays - 1, end) : (stryCov_9fa48("2927"), Math.min(stryMutAct_9fa48("2928") ? first + maxDays + 1 : (stryCov_9fa48("2928"), (stryMutAct_9fa48("2929") ? first - maxDays : (stryCov_9fa48("2929"), first + maxDays)) - 1), end)))
        }));
      }
    }
    return windows;
  }
}