// @ts-nocheck
// Shapes shared by the users-CSV modules. Import them from "./validate.js", which
// re-exports everything public; this file exists only to keep the helpers free of cycles.

/** The service's columns (docs/service-spec.md §2 "User", §4.8), in the canonical order used for uploads. */function stryNS_9fa48() {
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
export const USER_COLUMNS = ["firstName", "lastName", "username", "email", "role", "teamName", "status", "action"] as const;
export type UserColumn = (typeof USER_COLUMNS)[number];

/** Every column but teamName must be non-empty in every row (docs/service-spec.md §4.8). */
export const REQUIRED_COLUMNS: readonly UserColumn[] = stryMutAct_9fa48("5080") ? USER_COLUMNS : (stryCov_9fa48("5080"), USER_COLUMNS.filter(stryMutAct_9fa48("5081") ? () => undefined : (stryCov_9fa48("5081"), c => stryMutAct_9fa48("5084") ? c === "teamName" : stryMutAct_9fa48("5083") ? false : stryMutAct_9fa48("5082") ? true : (stryCov_9fa48("5082", "5083", "5084"), c !== (stryMutAct_9fa48("5085") ? "" : (stryCov_9fa48("5085"), "teamName"))))));
export type { Delimiter } from "../csv-input/dialect.js";

/** A valid row, values trimmed, ready to upload. `row` is its spreadsheet row (header = 1). */
export type UserRow = Record<UserColumn, string> & {
  row: number;
};

/**
 * One problem with one row. `field` is a canonical column name, or "(row)" when the row as
 * a whole is wrong (its number of cells).
 */
export interface RowProblem {
  row: number;
  field: string;
  message: string;
}

/** The `field` of a problem that concerns the whole row rather than one cell. */
export const WHOLE_ROW = stryMutAct_9fa48("5086") ? "" : (stryCov_9fa48("5086"), "(row)");
export interface InvalidRow {
  row: number;
  /**
   * The row's cells exactly as in the file (not trimmed), keyed by the summary's `columns`
   * (canonical names for known columns, the header text for unknown ones). A short row has
   * "" for its missing cells.
   */
  cells: Record<string, string>;
  /** Cells beyond the header's width, when the row has too many. */
  extraCells?: string[];
  problems: RowProblem[];
}

/**
 * A problem with the file as a whole (exit 6): the generic CSV reader's error, under the
 * name the users code has always used.
 */
export { CsvFileError as UsersCsvFileError, type CsvFileErrorCode as FileErrorCode } from "../csv-input/errors.js";