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
import type { Cell } from "../domain/records.js";
import { throwIfAborted } from "../errors.js";
import type { ChunkSink, RecordStreamOptions } from "./record-types.js";
import type { RowOutput } from "./tabular-writer.js";
import type { XlsxSheet, XlsxWorkbook } from "./xlsx.js";

// xlsx rows once the columns are known (tabular-writer.ts), into a sheet of its own workbook
// or of a shared one (reports all: a sheet per kind); exceljs loads only here.

export class XlsxRows implements RowOutput {
  private sheet: XlsxSheet | undefined;
  private own: XlsxWorkbook | undefined;
  constructor(private readonly sink: ChunkSink, private readonly options: RecordStreamOptions) {}
  async begin(columns: string[]): Promise<void> {
    if (stryMutAct_9fa48("7388")) {
      {}
    } else {
      stryCov_9fa48("7388");
      let workbook = this.options.workbook;
      if (stryMutAct_9fa48("7391") ? false : stryMutAct_9fa48("7390") ? true : stryMutAct_9fa48("7389") ? workbook : (stryCov_9fa48("7389", "7390", "7391"), !workbook)) {
        if (stryMutAct_9fa48("7392")) {
          {}
        } else {
          stryCov_9fa48("7392");
          const {
            openXlsxWorkbook
          } = await import("./xlsx.js");
          workbook = this.own = await openXlsxWorkbook(this.sink);
        }
      }
      this.sheet = workbook.addSheet(stryMutAct_9fa48("7393") ? this.options.sheetName && "Sheet1" : (stryCov_9fa48("7393"), this.options.sheetName ?? (stryMutAct_9fa48("7394") ? "" : (stryCov_9fa48("7394"), "Sheet1"))));
      await this.sheet.header(columns);
    }
  }
  row(cells: readonly (Cell | undefined)[]): Promise<void> {
    if (stryMutAct_9fa48("7395")) {
      {}
    } else {
      stryCov_9fa48("7395");
      return this.sheet!.row(cells);
    }
  }
  async end(): Promise<void> {
    if (stryMutAct_9fa48("7396")) {
      {}
    } else {
      stryCov_9fa48("7396");
      throwIfAborted(this.options.signal);
      await this.sheet!.end();
      await (stryMutAct_9fa48("7397") ? this.own.commit() : (stryCov_9fa48("7397"), this.own?.commit()));
    }
  }
  abort(): void {
    if (stryMutAct_9fa48("7398")) {
      {}
    } else {
      stryCov_9fa48("7398");
      stryMutAct_9fa48("7399") ? this.own.abort() : (stryCov_9fa48("7399"), this.own?.abort());
    }
  }
}