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

// Durations for --interval and --wait-timeout: one or more <integer><unit> parts, largest
// unit first, each unit at most once — `90s`, `5m`, `2h`, `1h30m`, `250ms`. A bare number is
// refused rather than guessed: "30" could mean seconds or minutes, and a wrong guess turns a
// 30-minute wait into a 30-second one.

const UNIT_MS = {
  h: 3_600_000,
  m: 60_000,
  s: 1_000,
  ms: 1
} as const;
type Unit = keyof typeof UNIT_MS;
const UNIT_ORDER: readonly Unit[] = stryMutAct_9fa48("2930") ? [] : (stryCov_9fa48("2930"), [stryMutAct_9fa48("2931") ? "" : (stryCov_9fa48("2931"), "h"), stryMutAct_9fa48("2932") ? "" : (stryCov_9fa48("2932"), "m"), stryMutAct_9fa48("2933") ? "" : (stryCov_9fa48("2933"), "s"), stryMutAct_9fa48("2934") ? "" : (stryCov_9fa48("2934"), "ms")]);

// `ms` before `m`/`s` so that "250ms" is not read as 250 minutes followed by garbage.
const PART = stryMutAct_9fa48("2936") ? /(\D+)(ms|h|m|s)/gy : stryMutAct_9fa48("2935") ? /(\d)(ms|h|m|s)/gy : (stryCov_9fa48("2935", "2936"), /(\d+)(ms|h|m|s)/gy);
export const DURATION_EXAMPLES = stryMutAct_9fa48("2937") ? "" : (stryCov_9fa48("2937"), "e.g. 30s, 5m, 2h or 1h30m");

/** Milliseconds in `text`; UsageError naming `flag` when it is not a duration. */
export function parseDuration(text: string, flag: string): number {
  if (stryMutAct_9fa48("2938")) {
    {}
  } else {
    stryCov_9fa48("2938");
    const input = stryMutAct_9fa48("2940") ? text.toLowerCase() : stryMutAct_9fa48("2939") ? text.trim().toUpperCase() : (stryCov_9fa48("2939", "2940"), text.trim().toLowerCase());
    const bad = stryMutAct_9fa48("2941") ? () => undefined : (stryCov_9fa48("2941"), (() => {
      const bad = (why = stryMutAct_9fa48("2942") ? "Stryker was here!" : (stryCov_9fa48("2942"), "")): UsageError => new UsageError(stryMutAct_9fa48("2943") ? `` : (stryCov_9fa48("2943"), `${flag}: ${JSON.stringify(text)} is not a duration${why}; use ${DURATION_EXAMPLES}`));
      return bad;
    })());
    if (stryMutAct_9fa48("2946") ? input !== "" : stryMutAct_9fa48("2945") ? false : stryMutAct_9fa48("2944") ? true : (stryCov_9fa48("2944", "2945", "2946"), input === (stryMutAct_9fa48("2947") ? "Stryker was here!" : (stryCov_9fa48("2947"), "")))) throw bad();
    if (stryMutAct_9fa48("2949") ? false : stryMutAct_9fa48("2948") ? true : (stryCov_9fa48("2948", "2949"), (stryMutAct_9fa48("2953") ? /^\D+$/ : stryMutAct_9fa48("2952") ? /^\d$/ : stryMutAct_9fa48("2951") ? /^\d+/ : stryMutAct_9fa48("2950") ? /\d+$/ : (stryCov_9fa48("2950", "2951", "2952", "2953"), /^\d+$/)).test(input))) throw bad(stryMutAct_9fa48("2954") ? "" : (stryCov_9fa48("2954"), " (a unit is needed)"));
    PART.lastIndex = 0;
    let total = 0;
    let position = 0;
    let lastUnitIndex = stryMutAct_9fa48("2955") ? +1 : (stryCov_9fa48("2955"), -1);
    for (let match = PART.exec(input); stryMutAct_9fa48("2956") ? false : (stryCov_9fa48("2956"), match); match = PART.exec(input)) {
      if (stryMutAct_9fa48("2957")) {
        {}
      } else {
        stryCov_9fa48("2957");
        const [whole, digits = stryMutAct_9fa48("2958") ? "Stryker was here!" : (stryCov_9fa48("2958"), ""), unit = stryMutAct_9fa48("2959") ? "Stryker was here!" : (stryCov_9fa48("2959"), "")] = match;
        const unitIndex = UNIT_ORDER.indexOf(unit as Unit);
        if (stryMutAct_9fa48("2963") ? unitIndex > lastUnitIndex : stryMutAct_9fa48("2962") ? unitIndex < lastUnitIndex : stryMutAct_9fa48("2961") ? false : stryMutAct_9fa48("2960") ? true : (stryCov_9fa48("2960", "2961", "2962", "2963"), unitIndex <= lastUnitIndex)) throw bad(stryMutAct_9fa48("2964") ? "" : (stryCov_9fa48("2964"), " (units go from largest to smallest, each once)"));
        lastUnitIndex = unitIndex;
        stryMutAct_9fa48("2965") ? total -= Number(digits) * UNIT_MS[unit as Unit] : (stryCov_9fa48("2965"), total += stryMutAct_9fa48("2966") ? Number(digits) / UNIT_MS[unit as Unit] : (stryCov_9fa48("2966"), Number(digits) * UNIT_MS[unit as Unit]));
        stryMutAct_9fa48("2967") ? position -= whole.length : (stryCov_9fa48("2967"), position += whole.length);
      }
    }
    if (stryMutAct_9fa48("2970") ? position === input.length : stryMutAct_9fa48("2969") ? false : stryMutAct_9fa48("2968") ? true : (stryCov_9fa48("2968", "2969", "2970"), position !== input.length)) throw bad();
    if (stryMutAct_9fa48("2973") ? false : stryMutAct_9fa48("2972") ? true : stryMutAct_9fa48("2971") ? Number.isSafeInteger(total) : (stryCov_9fa48("2971", "2972", "2973"), !Number.isSafeInteger(total))) throw bad(stryMutAct_9fa48("2974") ? "" : (stryCov_9fa48("2974"), " (too long)"));
    return total;
  }
}

/** A positive duration: zero would mean "poll without pause" or "give up at once". */
export function parsePositiveDuration(text: string, flag: string): number {
  if (stryMutAct_9fa48("2975")) {
    {}
  } else {
    stryCov_9fa48("2975");
    const ms = parseDuration(text, flag);
    if (stryMutAct_9fa48("2979") ? ms > 0 : stryMutAct_9fa48("2978") ? ms < 0 : stryMutAct_9fa48("2977") ? false : stryMutAct_9fa48("2976") ? true : (stryCov_9fa48("2976", "2977", "2978", "2979"), ms <= 0)) throw new UsageError(stryMutAct_9fa48("2980") ? `` : (stryCov_9fa48("2980"), `${flag}: must be longer than zero; use ${DURATION_EXAMPLES}`));
    return ms;
  }
}

/** "1h 5m", "11m 42s", "45s", "250ms": for people (tables, spinners, messages). */
export function formatDuration(ms: number): string {
  if (stryMutAct_9fa48("2981")) {
    {}
  } else {
    stryCov_9fa48("2981");
    if (stryMutAct_9fa48("2984") ? !Number.isFinite(ms) && ms < 0 : stryMutAct_9fa48("2983") ? false : stryMutAct_9fa48("2982") ? true : (stryCov_9fa48("2982", "2983", "2984"), (stryMutAct_9fa48("2985") ? Number.isFinite(ms) : (stryCov_9fa48("2985"), !Number.isFinite(ms))) || (stryMutAct_9fa48("2988") ? ms >= 0 : stryMutAct_9fa48("2987") ? ms <= 0 : stryMutAct_9fa48("2986") ? false : (stryCov_9fa48("2986", "2987", "2988"), ms < 0)))) return String(ms);
    if (stryMutAct_9fa48("2992") ? ms >= 1000 : stryMutAct_9fa48("2991") ? ms <= 1000 : stryMutAct_9fa48("2990") ? false : stryMutAct_9fa48("2989") ? true : (stryCov_9fa48("2989", "2990", "2991", "2992"), ms < 1000)) return (stryMutAct_9fa48("2995") ? ms !== 0 : stryMutAct_9fa48("2994") ? false : stryMutAct_9fa48("2993") ? true : (stryCov_9fa48("2993", "2994", "2995"), ms === 0)) ? stryMutAct_9fa48("2996") ? "" : (stryCov_9fa48("2996"), "0s") : stryMutAct_9fa48("2997") ? `` : (stryCov_9fa48("2997"), `${Math.round(ms)}ms`);
    let seconds = Math.round(stryMutAct_9fa48("2998") ? ms * 1000 : (stryCov_9fa48("2998"), ms / 1000));
    const hours = Math.floor(stryMutAct_9fa48("2999") ? seconds * 3600 : (stryCov_9fa48("2999"), seconds / 3600));
    stryMutAct_9fa48("3000") ? seconds += hours * 3600 : (stryCov_9fa48("3000"), seconds -= stryMutAct_9fa48("3001") ? hours / 3600 : (stryCov_9fa48("3001"), hours * 3600));
    const minutes = Math.floor(stryMutAct_9fa48("3002") ? seconds * 60 : (stryCov_9fa48("3002"), seconds / 60));
    stryMutAct_9fa48("3003") ? seconds += minutes * 60 : (stryCov_9fa48("3003"), seconds -= stryMutAct_9fa48("3004") ? minutes / 60 : (stryCov_9fa48("3004"), minutes * 60));
    const parts: string[] = stryMutAct_9fa48("3005") ? ["Stryker was here"] : (stryCov_9fa48("3005"), []);
    if (stryMutAct_9fa48("3007") ? false : stryMutAct_9fa48("3006") ? true : (stryCov_9fa48("3006", "3007"), hours)) parts.push(stryMutAct_9fa48("3008") ? `` : (stryCov_9fa48("3008"), `${hours}h`));
    if (stryMutAct_9fa48("3010") ? false : stryMutAct_9fa48("3009") ? true : (stryCov_9fa48("3009", "3010"), minutes)) parts.push(stryMutAct_9fa48("3011") ? `` : (stryCov_9fa48("3011"), `${minutes}m`));
    // Seconds are noise next to hours ("2h 0m 3s"), but not next to minutes ("11m 42s").
    if (stryMutAct_9fa48("3014") ? seconds || !hours : stryMutAct_9fa48("3013") ? false : stryMutAct_9fa48("3012") ? true : (stryCov_9fa48("3012", "3013", "3014"), seconds && (stryMutAct_9fa48("3015") ? hours : (stryCov_9fa48("3015"), !hours)))) parts.push(stryMutAct_9fa48("3016") ? `` : (stryCov_9fa48("3016"), `${seconds}s`));
    return (stryMutAct_9fa48("3020") ? parts.length <= 0 : stryMutAct_9fa48("3019") ? parts.length >= 0 : stryMutAct_9fa48("3018") ? false : stryMutAct_9fa48("3017") ? true : (stryCov_9fa48("3017", "3018", "3019", "3020"), parts.length > 0)) ? parts.join(stryMutAct_9fa48("3021") ? "" : (stryCov_9fa48("3021"), " ")) : stryMutAct_9fa48("3022") ? "" : (stryCov_9fa48("3022"), "0s");
  }
}

/** A completion record's `completionTime` (seconds, docs/service-spec.md §2) for people; null stays empty. */
export function formatSeconds(seconds: number | null | undefined): string | null {
  if (stryMutAct_9fa48("3023")) {
    {}
  } else {
    stryCov_9fa48("3023");
    if (stryMutAct_9fa48("3026") ? (seconds === null || seconds === undefined) && !Number.isFinite(seconds) : stryMutAct_9fa48("3025") ? false : stryMutAct_9fa48("3024") ? true : (stryCov_9fa48("3024", "3025", "3026"), (stryMutAct_9fa48("3028") ? seconds === null && seconds === undefined : stryMutAct_9fa48("3027") ? false : (stryCov_9fa48("3027", "3028"), (stryMutAct_9fa48("3030") ? seconds !== null : stryMutAct_9fa48("3029") ? false : (stryCov_9fa48("3029", "3030"), seconds === null)) || (stryMutAct_9fa48("3032") ? seconds !== undefined : stryMutAct_9fa48("3031") ? false : (stryCov_9fa48("3031", "3032"), seconds === undefined)))) || (stryMutAct_9fa48("3033") ? Number.isFinite(seconds) : (stryCov_9fa48("3033"), !Number.isFinite(seconds))))) return null;
    return formatDuration(stryMutAct_9fa48("3034") ? seconds / 1000 : (stryCov_9fa48("3034"), seconds * 1000));
  }
}