// @ts-nocheck
// Delays between retries. Pure: the random source and the current time are passed in.
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
export function backoffDelayMs(retry: number, random: number, baseMs = DEFAULT_BASE_BACKOFF_MS, capMs = DEFAULT_MAX_BACKOFF_MS): number {
  if (stryMutAct_9fa48("0")) {
    {}
  } else {
    stryCov_9fa48("0");
    const ceiling = stryMutAct_9fa48("1") ? Math.max(capMs, baseMs * 2 ** Math.max(0, retry - 1)) : (stryCov_9fa48("1"), Math.min(capMs, stryMutAct_9fa48("2") ? baseMs / 2 ** Math.max(0, retry - 1) : (stryCov_9fa48("2"), baseMs * 2 ** (stryMutAct_9fa48("3") ? Math.min(0, retry - 1) : (stryCov_9fa48("3"), Math.max(0, stryMutAct_9fa48("4") ? retry + 1 : (stryCov_9fa48("4"), retry - 1)))))));
    return Math.floor(stryMutAct_9fa48("5") ? Math.min(Math.max(random, 0), 1) / ceiling : (stryCov_9fa48("5"), (stryMutAct_9fa48("6") ? Math.max(Math.max(random, 0), 1) : (stryCov_9fa48("6"), Math.min(stryMutAct_9fa48("7") ? Math.min(random, 0) : (stryCov_9fa48("7"), Math.max(random, 0)), 1))) * ceiling));
  }
}

/**
 * The Retry-After header as a delay in ms (RFC 9110 §10.2.3): either delay-seconds or an
 * HTTP date. Undefined when absent or unreadable — the caller then backs off on its own.
 * A date in the past gives 0. Pass the response's Date header when there is one: an HTTP
 * date is then measured against the service's own clock, so our clock's skew does not
 * make us retry early.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number, responseDate?: string | null): number | undefined {
  if (stryMutAct_9fa48("8")) {
    {}
  } else {
    stryCov_9fa48("8");
    if (stryMutAct_9fa48("11") ? value === null && value === undefined : stryMutAct_9fa48("10") ? false : stryMutAct_9fa48("9") ? true : (stryCov_9fa48("9", "10", "11"), (stryMutAct_9fa48("13") ? value !== null : stryMutAct_9fa48("12") ? false : (stryCov_9fa48("12", "13"), value === null)) || (stryMutAct_9fa48("15") ? value !== undefined : stryMutAct_9fa48("14") ? false : (stryCov_9fa48("14", "15"), value === undefined)))) return undefined;
    const text = stryMutAct_9fa48("16") ? value : (stryCov_9fa48("16"), value.trim());
    if (stryMutAct_9fa48("19") ? text !== "" : stryMutAct_9fa48("18") ? false : stryMutAct_9fa48("17") ? true : (stryCov_9fa48("17", "18", "19"), text === (stryMutAct_9fa48("20") ? "Stryker was here!" : (stryCov_9fa48("20"), "")))) return undefined;
    if (stryMutAct_9fa48("22") ? false : stryMutAct_9fa48("21") ? true : (stryCov_9fa48("21", "22"), (stryMutAct_9fa48("26") ? /^\D+$/ : stryMutAct_9fa48("25") ? /^\d$/ : stryMutAct_9fa48("24") ? /^\d+/ : stryMutAct_9fa48("23") ? /\d+$/ : (stryCov_9fa48("23", "24", "25", "26"), /^\d+$/)).test(text))) return stryMutAct_9fa48("27") ? Number(text) / 1_000 : (stryCov_9fa48("27"), Number(text) * 1_000);
    // Only the HTTP-date forms: Date.parse alone would also accept "5" or "1.5" as years.
    if (stryMutAct_9fa48("30") ? false : stryMutAct_9fa48("29") ? true : stryMutAct_9fa48("28") ? /[a-z]{3}/i.test(text) : (stryCov_9fa48("28", "29", "30"), !(stryMutAct_9fa48("32") ? /[^a-z]{3}/i : stryMutAct_9fa48("31") ? /[a-z]/i : (stryCov_9fa48("31", "32"), /[a-z]{3}/i)).test(text))) return undefined;
    const at = Date.parse(text);
    if (stryMutAct_9fa48("34") ? false : stryMutAct_9fa48("33") ? true : (stryCov_9fa48("33", "34"), Number.isNaN(at))) return undefined;
    const serverNow = responseDate ? Date.parse(responseDate) : Number.NaN;
    return stryMutAct_9fa48("35") ? Math.min(0, at - (Number.isNaN(serverNow) ? nowMs : serverNow)) : (stryCov_9fa48("35"), Math.max(0, stryMutAct_9fa48("36") ? at + (Number.isNaN(serverNow) ? nowMs : serverNow) : (stryCov_9fa48("36"), at - (Number.isNaN(serverNow) ? nowMs : serverNow))));
  }
}