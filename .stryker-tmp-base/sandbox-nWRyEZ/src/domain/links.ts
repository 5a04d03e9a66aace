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
import { UnexpectedResponseError } from "../errors.js";

// The complete link a user opens: the deep link with `token=<USER_TOKEN>` as a query
// parameter (docs/service-spec.md §2, §5.5; docs/cli-contract.md `link`).
//
// Why not simply `url.searchParams.set("token", token)`: that re-serialises the WHOLE query
// as application/x-www-form-urlencoded, so a deep link's own `?next=/a%20b` would come back
// as `?next=%2Fa+b` — equal to a form decoder, not byte-equal, and not every web application
// decodes `+` as a space. So the existing query is kept byte for byte, a `token` parameter
// already in it is replaced (a stale token must not win), and only the token is encoded,
// with encodeURIComponent (`+` → %2B, `/` → %2F, `=` → %3D), which every decoder reads back
// to the same string. The fragment, if any, stays last where it belongs.

const TOKEN_PARAMETER = stryMutAct_9fa48("3035") ? "" : (stryCov_9fa48("3035"), "token");
function decodeKey(part: string): string {
  if (stryMutAct_9fa48("3036")) {
    {}
  } else {
    stryCov_9fa48("3036");
    const rawKey = stryMutAct_9fa48("3037") ? part.split("=", 1)[0] && "" : (stryCov_9fa48("3037"), part.split(stryMutAct_9fa48("3038") ? "" : (stryCov_9fa48("3038"), "="), 1)[0] ?? (stryMutAct_9fa48("3039") ? "Stryker was here!" : (stryCov_9fa48("3039"), "")));
    try {
      if (stryMutAct_9fa48("3040")) {
        {}
      } else {
        stryCov_9fa48("3040");
        return decodeURIComponent(rawKey.replace(/\+/g, stryMutAct_9fa48("3041") ? "" : (stryCov_9fa48("3041"), " ")));
      }
    } catch {
      if (stryMutAct_9fa48("3042")) {
        {}
      } else {
        stryCov_9fa48("3042");
        return rawKey; // a malformed escape in the service's own query: keep it, compare raw
      }
    }
  }
}

/** `<deepLink>?token=<token>`, or `&token=` when the deep link already has a query. */
export function composeUserLink(deepLink: string, token: string): string {
  if (stryMutAct_9fa48("3043")) {
    {}
  } else {
    stryCov_9fa48("3043");
    let url: URL;
    try {
      if (stryMutAct_9fa48("3044")) {
        {}
      } else {
        stryCov_9fa48("3044");
        url = new URL(deepLink);
      }
    } catch {
      if (stryMutAct_9fa48("3045")) {
        {}
      } else {
        stryCov_9fa48("3045");
        throw new UnexpectedResponseError(stryMutAct_9fa48("3046") ? `` : (stryCov_9fa48("3046"), `the service's deep link is not a URL: ${JSON.stringify(stryMutAct_9fa48("3047") ? deepLink : (stryCov_9fa48("3047"), deepLink.slice(0, 200)))}`));
      }
    }
    const kept = stryMutAct_9fa48("3049") ? url.search.split("&").filter(part => part !== "" && decodeKey(part) !== TOKEN_PARAMETER) : stryMutAct_9fa48("3048") ? url.search.slice(1).split("&") : (stryCov_9fa48("3048", "3049"), url.search.slice(1).split(stryMutAct_9fa48("3050") ? "" : (stryCov_9fa48("3050"), "&")).filter(stryMutAct_9fa48("3051") ? () => undefined : (stryCov_9fa48("3051"), part => stryMutAct_9fa48("3054") ? part !== "" || decodeKey(part) !== TOKEN_PARAMETER : stryMutAct_9fa48("3053") ? false : stryMutAct_9fa48("3052") ? true : (stryCov_9fa48("3052", "3053", "3054"), (stryMutAct_9fa48("3056") ? part === "" : stryMutAct_9fa48("3055") ? true : (stryCov_9fa48("3055", "3056"), part !== (stryMutAct_9fa48("3057") ? "Stryker was here!" : (stryCov_9fa48("3057"), "")))) && (stryMutAct_9fa48("3059") ? decodeKey(part) === TOKEN_PARAMETER : stryMutAct_9fa48("3058") ? true : (stryCov_9fa48("3058", "3059"), decodeKey(part) !== TOKEN_PARAMETER))))));
    kept.push(stryMutAct_9fa48("3060") ? `` : (stryCov_9fa48("3060"), `${TOKEN_PARAMETER}=${encodeURIComponent(token)}`));
    url.search = stryMutAct_9fa48("3061") ? `` : (stryCov_9fa48("3061"), `?${kept.join(stryMutAct_9fa48("3062") ? "" : (stryCov_9fa48("3062"), "&"))}`);
    return url.href;
  }
}