// @ts-nocheck
// Bytes to records for users files: the generic CSV reader (domain/csv-input/reader.ts) does
// the decoding, dialect and parsing; this file only keeps the users-facing names.
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
import type { Options as CsvParseOptions } from "csv-parse";
import { csvParseOptions, type CsvSourceInfo, type Delimiter } from "../csv-input/reader.js";

/**
 * The csv-parse options for a users file with LF/CRLF line ends, exported so that the
 * benchmark measures bare csv-parse with exactly what the reader uses.
 * @public bench/users-validate.mjs imports it from dist/, where knip does not look.
 */
export function usersCsvParseOptions(delimiter: Delimiter): CsvParseOptions {
  if (stryMutAct_9fa48("5433")) {
    {}
  } else {
    stryCov_9fa48("5433");
    return csvParseOptions(stryMutAct_9fa48("5434") ? {} : (stryCov_9fa48("5434"), {
      delimiter,
      lineEnding: stryMutAct_9fa48("5435") ? "" : (stryCov_9fa48("5435"), "lf")
    }));
  }
}
export type SourceInfo = CsvSourceInfo;