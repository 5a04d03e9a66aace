// @ts-nocheck
// The one error for a CSV file that cannot be read as a whole (docs/cli-contract.md "Users CSV",
// "Bulk operations"): exit 6 like every local validation failure, nothing is sent.
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
import { InvalidDataError } from "../../errors.js";
export type CsvFileErrorCode = "EMPTY" | "NO_ROWS" | "ENCODING" | "MISSING_COLUMN" | "DUPLICATE_COLUMN" | "MALFORMED" | "CHANGED";

/**
 * A problem with the file as a whole: nothing in it can be trusted, so no row is checked
 * further. Messages quote at most a short excerpt of the file (see excerpt()), never a
 * whole row: rows hold personal data and a broken file can be one huge "row".
 */
export class CsvFileError extends InvalidDataError {
  readonly code: CsvFileErrorCode;
  /** Spreadsheet row where the problem was found, when it has one. */
  readonly row: number | undefined;
  /** 0-based byte offset in the file, for encoding problems. */
  readonly byteOffset: number | undefined;
  /** Canonical names of the missing or duplicated columns. */
  readonly columns: readonly string[];
  constructor(code: CsvFileErrorCode, message: string, details: {
    row?: number;
    byteOffset?: number;
    columns?: readonly string[];
    hint?: string;
    cause?: unknown;
  } = {}) {
    if (stryMutAct_9fa48("1936")) {
      {}
    } else {
      stryCov_9fa48("1936");
      const options: {
        hint?: string;
        cause?: unknown;
      } = {};
      if (stryMutAct_9fa48("1939") ? details.hint === undefined : stryMutAct_9fa48("1938") ? false : stryMutAct_9fa48("1937") ? true : (stryCov_9fa48("1937", "1938", "1939"), details.hint !== undefined)) options.hint = details.hint;
      if (stryMutAct_9fa48("1942") ? details.cause === undefined : stryMutAct_9fa48("1941") ? false : stryMutAct_9fa48("1940") ? true : (stryCov_9fa48("1940", "1941", "1942"), details.cause !== undefined)) options.cause = details.cause;
      super(message, options);
      this.code = code;
      this.row = details.row;
      this.byteOffset = details.byteOffset;
      this.columns = stryMutAct_9fa48("1943") ? details.columns && [] : (stryCov_9fa48("1943"), details.columns ?? (stryMutAct_9fa48("1944") ? ["Stryker was here"] : (stryCov_9fa48("1944"), [])));
    }
  }
}

/** Longest excerpt of file content that a message quotes (docs/cli-contract.md "Users CSV"). */
export const EXCERPT_CHARS = 60;

/**
 * `text` quoted for a message: at most `max` characters (an ellipsis marks a cut), line
 * breaks and other control characters escaped so that one cell cannot break or flood a
 * terminal line.
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  if (stryMutAct_9fa48("1945")) {
    {}
  } else {
    stryCov_9fa48("1945");
    const cut = (stryMutAct_9fa48("1949") ? text.length <= max : stryMutAct_9fa48("1948") ? text.length >= max : stryMutAct_9fa48("1947") ? false : stryMutAct_9fa48("1946") ? true : (stryCov_9fa48("1946", "1947", "1948", "1949"), text.length > max)) ? stryMutAct_9fa48("1950") ? `` : (stryCov_9fa48("1950"), `${stryMutAct_9fa48("1951") ? text : (stryCov_9fa48("1951"), text.slice(0, stryMutAct_9fa48("1952") ? max + 1 : (stryCov_9fa48("1952"), max - 1)))}…`) : text;
    return JSON.stringify(cut);
  }
}

/** Like excerpt(), but keeps the end of `text`: what comes just before a problem. */
export function excerptEnd(text: string, max = EXCERPT_CHARS): string {
  if (stryMutAct_9fa48("1953")) {
    {}
  } else {
    stryCov_9fa48("1953");
    const cut = (stryMutAct_9fa48("1957") ? text.length <= max : stryMutAct_9fa48("1956") ? text.length >= max : stryMutAct_9fa48("1955") ? false : stryMutAct_9fa48("1954") ? true : (stryCov_9fa48("1954", "1955", "1956", "1957"), text.length > max)) ? stryMutAct_9fa48("1958") ? `` : (stryCov_9fa48("1958"), `…${stryMutAct_9fa48("1959") ? text : (stryCov_9fa48("1959"), text.slice(stryMutAct_9fa48("1960") ? text.length - max - 1 : (stryCov_9fa48("1960"), (stryMutAct_9fa48("1961") ? text.length + max : (stryCov_9fa48("1961"), text.length - max)) + 1)))}`) : text;
    return JSON.stringify(cut);
  }
}