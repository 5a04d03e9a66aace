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
import { UsageError } from "../../errors.js";

// The service limits requests per IP address in two groups (docs/service-spec.md §8). Every request
// the client sends belongs to exactly one of them.
export type RequestGroup = "reports" | "access";
export const REQUEST_GROUPS: readonly RequestGroup[] = stryMutAct_9fa48("488") ? [] : (stryCov_9fa48("488"), [stryMutAct_9fa48("489") ? "" : (stryCov_9fa48("489"), "reports"), stryMutAct_9fa48("490") ? "" : (stryCov_9fa48("490"), "access")]);
export interface RateLimit {
  /** Requests allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
}
export type RateLimits = Record<RequestGroup, RateLimit>;

/** Spec §8: reports 10 per minute, access 100 per 5 minutes. */
export const DEFAULT_RATE_LIMITS: RateLimits = Object.freeze(stryMutAct_9fa48("491") ? {} : (stryCov_9fa48("491"), {
  reports: Object.freeze(stryMutAct_9fa48("492") ? {} : (stryCov_9fa48("492"), {
    limit: 10,
    windowMs: 60_000
  })),
  access: Object.freeze(stryMutAct_9fa48("493") ? {} : (stryCov_9fa48("493"), {
    limit: 100,
    windowMs: 300_000
  }))
}));
const UNIT_MS = {
  ms: 1,
  s: 1_000,
  m: 60_000
} as const;
const PART = stryMutAct_9fa48("514") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\S*(ms|s|m)$/i : stryMutAct_9fa48("513") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s(ms|s|m)$/i : stryMutAct_9fa48("512") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\D+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("511") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("510") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+))\s*(ms|s|m)$/i : stryMutAct_9fa48("509") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\D+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("508") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("507") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\S*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("506") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("505") ? /^([a-z]+)\s*=\s*(\d+)\S*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("504") ? /^([a-z]+)\s*=\s*(\d+)\s\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("503") ? /^([a-z]+)\s*=\s*(\D+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("502") ? /^([a-z]+)\s*=\s*(\d)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("501") ? /^([a-z]+)\s*=\S*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("500") ? /^([a-z]+)\s*=\s(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("499") ? /^([a-z]+)\S*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("498") ? /^([a-z]+)\s=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("497") ? /^([^a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("496") ? /^([a-z])\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : stryMutAct_9fa48("495") ? /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)/i : stryMutAct_9fa48("494") ? /([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i : (stryCov_9fa48("494", "495", "496", "497", "498", "499", "500", "501", "502", "503", "504", "505", "506", "507", "508", "509", "510", "511", "512", "513", "514"), /^([a-z]+)\s*=\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)$/i);
function isRequestGroup(name: string): name is RequestGroup {
  if (stryMutAct_9fa48("515")) {
    {}
  } else {
    stryCov_9fa48("515");
    return (REQUEST_GROUPS as readonly string[]).includes(name);
  }
}

/**
 * Parses SIMADMIN_RATE_LIMITS, e.g. "reports=10/60s,access=100/300s". Units ms, s, m; one or
 * both groups; a group not named keeps its default. Empty or undefined gives the defaults.
 * Throws UsageError naming the bad part, because a typo here would otherwise silently send
 * the tool into 429s (or make it needlessly slow).
 */
export function parseRateLimits(text: string | undefined): RateLimits {
  if (stryMutAct_9fa48("516")) {
    {}
  } else {
    stryCov_9fa48("516");
    const limits: RateLimits = stryMutAct_9fa48("517") ? {} : (stryCov_9fa48("517"), {
      reports: stryMutAct_9fa48("518") ? {} : (stryCov_9fa48("518"), {
        ...DEFAULT_RATE_LIMITS.reports
      }),
      access: stryMutAct_9fa48("519") ? {} : (stryCov_9fa48("519"), {
        ...DEFAULT_RATE_LIMITS.access
      })
    });
    if (stryMutAct_9fa48("522") ? text === undefined && text.trim() === "" : stryMutAct_9fa48("521") ? false : stryMutAct_9fa48("520") ? true : (stryCov_9fa48("520", "521", "522"), (stryMutAct_9fa48("524") ? text !== undefined : stryMutAct_9fa48("523") ? false : (stryCov_9fa48("523", "524"), text === undefined)) || (stryMutAct_9fa48("526") ? text.trim() !== "" : stryMutAct_9fa48("525") ? false : (stryCov_9fa48("525", "526"), (stryMutAct_9fa48("527") ? text : (stryCov_9fa48("527"), text.trim())) === (stryMutAct_9fa48("528") ? "Stryker was here!" : (stryCov_9fa48("528"), "")))))) return limits;
    const seen = new Set<RequestGroup>();
    for (const rawPart of text.split(stryMutAct_9fa48("529") ? "" : (stryCov_9fa48("529"), ","))) {
      if (stryMutAct_9fa48("530")) {
        {}
      } else {
        stryCov_9fa48("530");
        const part = stryMutAct_9fa48("531") ? rawPart : (stryCov_9fa48("531"), rawPart.trim());
        const match = PART.exec(part);
        if (stryMutAct_9fa48("534") ? false : stryMutAct_9fa48("533") ? true : stryMutAct_9fa48("532") ? match : (stryCov_9fa48("532", "533", "534"), !match)) {
          if (stryMutAct_9fa48("535")) {
            {}
          } else {
            stryCov_9fa48("535");
            throw new UsageError(stryMutAct_9fa48("536") ? `` : (stryCov_9fa48("536"), `SIMADMIN_RATE_LIMITS: "${part}" is not <group>=<count>/<duration>, e.g. "reports=10/60s"`), stryMutAct_9fa48("537") ? {} : (stryCov_9fa48("537"), {
              hint: stryMutAct_9fa48("538") ? "" : (stryCov_9fa48("538"), 'groups: reports, access; duration units: ms, s, m; e.g. "reports=10/60s,access=100/300s"')
            }));
          }
        }
        const [, rawGroup = stryMutAct_9fa48("539") ? "Stryker was here!" : (stryCov_9fa48("539"), ""), rawCount = stryMutAct_9fa48("540") ? "Stryker was here!" : (stryCov_9fa48("540"), ""), rawAmount = stryMutAct_9fa48("541") ? "Stryker was here!" : (stryCov_9fa48("541"), ""), rawUnit = stryMutAct_9fa48("542") ? "Stryker was here!" : (stryCov_9fa48("542"), "")] = match;
        const group = stryMutAct_9fa48("543") ? rawGroup.toUpperCase() : (stryCov_9fa48("543"), rawGroup.toLowerCase());
        if (stryMutAct_9fa48("546") ? false : stryMutAct_9fa48("545") ? true : stryMutAct_9fa48("544") ? isRequestGroup(group) : (stryCov_9fa48("544", "545", "546"), !isRequestGroup(group))) {
          if (stryMutAct_9fa48("547")) {
            {}
          } else {
            stryCov_9fa48("547");
            throw new UsageError(stryMutAct_9fa48("548") ? `` : (stryCov_9fa48("548"), `SIMADMIN_RATE_LIMITS: unknown group "${rawGroup}" in "${part}"; known groups: reports, access`));
          }
        }
        if (stryMutAct_9fa48("550") ? false : stryMutAct_9fa48("549") ? true : (stryCov_9fa48("549", "550"), seen.has(group))) {
          if (stryMutAct_9fa48("551")) {
            {}
          } else {
            stryCov_9fa48("551");
            throw new UsageError(stryMutAct_9fa48("552") ? `` : (stryCov_9fa48("552"), `SIMADMIN_RATE_LIMITS: group "${group}" is given more than once`));
          }
        }
        seen.add(group);
        const limit = Number(rawCount);
        if (stryMutAct_9fa48("555") ? !Number.isSafeInteger(limit) && limit < 1 : stryMutAct_9fa48("554") ? false : stryMutAct_9fa48("553") ? true : (stryCov_9fa48("553", "554", "555"), (stryMutAct_9fa48("556") ? Number.isSafeInteger(limit) : (stryCov_9fa48("556"), !Number.isSafeInteger(limit))) || (stryMutAct_9fa48("559") ? limit >= 1 : stryMutAct_9fa48("558") ? limit <= 1 : stryMutAct_9fa48("557") ? false : (stryCov_9fa48("557", "558", "559"), limit < 1)))) {
          if (stryMutAct_9fa48("560")) {
            {}
          } else {
            stryCov_9fa48("560");
            throw new UsageError(stryMutAct_9fa48("561") ? `` : (stryCov_9fa48("561"), `SIMADMIN_RATE_LIMITS: the count in "${part}" must be a whole number of at least 1`));
          }
        }
        const windowMs = Math.round(stryMutAct_9fa48("562") ? Number(rawAmount) / UNIT_MS[rawUnit.toLowerCase() as keyof typeof UNIT_MS] : (stryCov_9fa48("562"), Number(rawAmount) * UNIT_MS[rawUnit.toLowerCase() as keyof typeof UNIT_MS]));
        if (stryMutAct_9fa48("565") ? !Number.isFinite(windowMs) && windowMs < 1 : stryMutAct_9fa48("564") ? false : stryMutAct_9fa48("563") ? true : (stryCov_9fa48("563", "564", "565"), (stryMutAct_9fa48("566") ? Number.isFinite(windowMs) : (stryCov_9fa48("566"), !Number.isFinite(windowMs))) || (stryMutAct_9fa48("569") ? windowMs >= 1 : stryMutAct_9fa48("568") ? windowMs <= 1 : stryMutAct_9fa48("567") ? false : (stryCov_9fa48("567", "568", "569"), windowMs < 1)))) {
          if (stryMutAct_9fa48("570")) {
            {}
          } else {
            stryCov_9fa48("570");
            throw new UsageError(stryMutAct_9fa48("571") ? `` : (stryCov_9fa48("571"), `SIMADMIN_RATE_LIMITS: the duration in "${part}" must be longer than 0`));
          }
        }
        limits[group] = stryMutAct_9fa48("572") ? {} : (stryCov_9fa48("572"), {
          limit,
          windowMs
        });
      }
    }
    return limits;
  }
}

/** "10/60s" — for messages and progress lines. */
export function formatRateLimit(rate: RateLimit): string {
  if (stryMutAct_9fa48("573")) {
    {}
  } else {
    stryCov_9fa48("573");
    const {
      limit,
      windowMs
    } = rate;
    if (stryMutAct_9fa48("576") ? windowMs % 1_000 !== 0 : stryMutAct_9fa48("575") ? false : stryMutAct_9fa48("574") ? true : (stryCov_9fa48("574", "575", "576"), (stryMutAct_9fa48("577") ? windowMs * 1_000 : (stryCov_9fa48("577"), windowMs % 1_000)) === 0)) return stryMutAct_9fa48("578") ? `` : (stryCov_9fa48("578"), `${limit}/${stryMutAct_9fa48("579") ? windowMs * 1_000 : (stryCov_9fa48("579"), windowMs / 1_000)}s`);
    return stryMutAct_9fa48("580") ? `` : (stryCov_9fa48("580"), `${limit}/${windowMs}ms`);
  }
}