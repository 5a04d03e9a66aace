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
import { isPlainObject } from "../domain/records.js";

// JSON text as every format writes it: one place that escapes what JSON.stringify leaves raw.

/**
 * JSON.stringify escapes C0 controls but leaves DEL and C1 controls (e.g. 0x9b, a CSI) raw;
 * escaping them too keeps the document valid and harmless on a terminal.
 */
export function jsonText(value: unknown, indent?: number): string {
  if (stryMutAct_9fa48("6299")) {
    {}
  } else {
    stryCov_9fa48("6299");
    return JSON.stringify(value, null, indent).replace(stryMutAct_9fa48("6300") ? /[^\u007f-\u009f]/g : (stryCov_9fa48("6300"), /[\u007f-\u009f]/g), stryMutAct_9fa48("6301") ? () => undefined : (stryCov_9fa48("6301"), ch => stryMutAct_9fa48("6302") ? `` : (stryCov_9fa48("6302"), `\\u${ch.charCodeAt(0).toString(16).padStart(4, stryMutAct_9fa48("6303") ? "" : (stryCov_9fa48("6303"), "0"))}`)));
  }
}

/**
 * JSON text of `value` in pieces, identical when joined to `jsonText(value)`: arrays and
 * objects down to `depth` levels are split into their members, so a window's response of
 * tens of megabytes is written without ever being one string.
 */
export function* jsonChunks(value: unknown, depth = 3): Generator<string> {
  if (stryMutAct_9fa48("6304")) {
    {}
  } else {
    stryCov_9fa48("6304");
    if (stryMutAct_9fa48("6307") ? depth > 0 || Array.isArray(value) : stryMutAct_9fa48("6306") ? false : stryMutAct_9fa48("6305") ? true : (stryCov_9fa48("6305", "6306", "6307"), (stryMutAct_9fa48("6310") ? depth <= 0 : stryMutAct_9fa48("6309") ? depth >= 0 : stryMutAct_9fa48("6308") ? true : (stryCov_9fa48("6308", "6309", "6310"), depth > 0)) && Array.isArray(value))) {
      if (stryMutAct_9fa48("6311")) {
        {}
      } else {
        stryCov_9fa48("6311");
        yield stryMutAct_9fa48("6312") ? "" : (stryCov_9fa48("6312"), "[");
        for (let i = 0; stryMutAct_9fa48("6315") ? i >= value.length : stryMutAct_9fa48("6314") ? i <= value.length : stryMutAct_9fa48("6313") ? false : (stryCov_9fa48("6313", "6314", "6315"), i < value.length); stryMutAct_9fa48("6316") ? i-- : (stryCov_9fa48("6316"), i++)) {
          if (stryMutAct_9fa48("6317")) {
            {}
          } else {
            stryCov_9fa48("6317");
            if (stryMutAct_9fa48("6321") ? i <= 0 : stryMutAct_9fa48("6320") ? i >= 0 : stryMutAct_9fa48("6319") ? false : stryMutAct_9fa48("6318") ? true : (stryCov_9fa48("6318", "6319", "6320", "6321"), i > 0)) yield stryMutAct_9fa48("6322") ? "" : (stryCov_9fa48("6322"), ",");
            // JSON.stringify writes null for array holes and undefined items.
            yield* (stryMutAct_9fa48("6325") ? value[i] !== undefined : stryMutAct_9fa48("6324") ? false : stryMutAct_9fa48("6323") ? true : (stryCov_9fa48("6323", "6324", "6325"), value[i] === undefined)) ? stryMutAct_9fa48("6326") ? [] : (stryCov_9fa48("6326"), [stryMutAct_9fa48("6327") ? "" : (stryCov_9fa48("6327"), "null")]) : jsonChunks(value[i], stryMutAct_9fa48("6328") ? depth + 1 : (stryCov_9fa48("6328"), depth - 1));
          }
        }
        yield stryMutAct_9fa48("6329") ? "" : (stryCov_9fa48("6329"), "]");
        return;
      }
    }
    if (stryMutAct_9fa48("6332") ? depth > 0 && isPlainObject(value) || typeof (value as {
      toJSON?: unknown;
    }).toJSON !== "function" : stryMutAct_9fa48("6331") ? false : stryMutAct_9fa48("6330") ? true : (stryCov_9fa48("6330", "6331", "6332"), (stryMutAct_9fa48("6334") ? depth > 0 || isPlainObject(value) : stryMutAct_9fa48("6333") ? true : (stryCov_9fa48("6333", "6334"), (stryMutAct_9fa48("6337") ? depth <= 0 : stryMutAct_9fa48("6336") ? depth >= 0 : stryMutAct_9fa48("6335") ? true : (stryCov_9fa48("6335", "6336", "6337"), depth > 0)) && isPlainObject(value))) && (stryMutAct_9fa48("6339") ? typeof (value as {
      toJSON?: unknown;
    }).toJSON === "function" : stryMutAct_9fa48("6338") ? true : (stryCov_9fa48("6338", "6339"), typeof (value as {
      toJSON?: unknown;
    }).toJSON !== (stryMutAct_9fa48("6340") ? "" : (stryCov_9fa48("6340"), "function")))))) {
      if (stryMutAct_9fa48("6341")) {
        {}
      } else {
        stryCov_9fa48("6341");
        yield stryMutAct_9fa48("6342") ? "" : (stryCov_9fa48("6342"), "{");
        let first = stryMutAct_9fa48("6343") ? false : (stryCov_9fa48("6343"), true);
        for (const [key, member] of Object.entries(value)) {
          if (stryMutAct_9fa48("6344")) {
            {}
          } else {
            stryCov_9fa48("6344");
            if (stryMutAct_9fa48("6347") ? (member === undefined || typeof member === "function") && typeof member === "symbol" : stryMutAct_9fa48("6346") ? false : stryMutAct_9fa48("6345") ? true : (stryCov_9fa48("6345", "6346", "6347"), (stryMutAct_9fa48("6349") ? member === undefined && typeof member === "function" : stryMutAct_9fa48("6348") ? false : (stryCov_9fa48("6348", "6349"), (stryMutAct_9fa48("6351") ? member !== undefined : stryMutAct_9fa48("6350") ? false : (stryCov_9fa48("6350", "6351"), member === undefined)) || (stryMutAct_9fa48("6353") ? typeof member !== "function" : stryMutAct_9fa48("6352") ? false : (stryCov_9fa48("6352", "6353"), typeof member === (stryMutAct_9fa48("6354") ? "" : (stryCov_9fa48("6354"), "function")))))) || (stryMutAct_9fa48("6356") ? typeof member !== "symbol" : stryMutAct_9fa48("6355") ? false : (stryCov_9fa48("6355", "6356"), typeof member === (stryMutAct_9fa48("6357") ? "" : (stryCov_9fa48("6357"), "symbol")))))) continue;
            yield stryMutAct_9fa48("6358") ? `` : (stryCov_9fa48("6358"), `${first ? stryMutAct_9fa48("6359") ? "Stryker was here!" : (stryCov_9fa48("6359"), "") : stryMutAct_9fa48("6360") ? "" : (stryCov_9fa48("6360"), ",")}${jsonText(key)}:`);
            first = stryMutAct_9fa48("6361") ? true : (stryCov_9fa48("6361"), false);
            yield* jsonChunks(member, stryMutAct_9fa48("6362") ? depth + 1 : (stryCov_9fa48("6362"), depth - 1));
          }
        }
        yield stryMutAct_9fa48("6363") ? "" : (stryCov_9fa48("6363"), "}");
        return;
      }
    }
    yield stryMutAct_9fa48("6364") ? jsonText(value) && "null" : (stryCov_9fa48("6364"), jsonText(value) ?? (stryMutAct_9fa48("6365") ? "" : (stryCov_9fa48("6365"), "null")));
  }
}