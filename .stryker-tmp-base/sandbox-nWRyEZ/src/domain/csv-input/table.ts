// @ts-nocheck
// A whole table in memory: the header and every row with its spreadsheet row number, from
// the CSV reader (reader.ts) — for files that are read once and compared as a whole (an HR
// roster for `users sync`, an assignments list for `progress`), not streamed like an import.
// A workbook's first sheet reaches this reader as CSV text written by sheetToCsv (sheet.ts),
// so a CSV and an .xlsx are read by the same rules and give the same row numbers.
//
// Pure: the caller opens the file and hands over its chunks.
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
import { CsvFileError } from "./errors.js";
import { type CsvReadOptions, type CsvSourceInfo, streamCsvRecords } from "./reader.js";
export interface TableRow {
  /** Spreadsheet row number (header = 1 when it is the first line). */
  row: number;
  cells: string[];
}
export interface CsvTable {
  header: TableRow;
  /** Rows after the header, blank ones included (a caller decides what a blank row means). */
  rows: TableRow[];
  info: Partial<CsvSourceInfo>;
}

/** Reads every record; the first record with content is the header. Throws CsvFileError EMPTY for a file without one. */
export async function readCsvTable(source: AsyncIterable<Uint8Array>, options: CsvReadOptions = {}): Promise<CsvTable> {
  if (stryMutAct_9fa48("2490")) {
    {}
  } else {
    stryCov_9fa48("2490");
    let header: TableRow | undefined;
    const rows: TableRow[] = stryMutAct_9fa48("2491") ? ["Stryker was here"] : (stryCov_9fa48("2491"), []);
    const control = stryMutAct_9fa48("2492") ? {} : (stryCov_9fa48("2492"), {
      failure: (): Error | undefined => undefined,
      info: {} as Partial<CsvSourceInfo>
    });
    const sink = (cells: string[], row: number): void => {
      if (stryMutAct_9fa48("2493")) {
        {}
      } else {
        stryCov_9fa48("2493");
        if (stryMutAct_9fa48("2496") ? header !== undefined : stryMutAct_9fa48("2495") ? false : stryMutAct_9fa48("2494") ? true : (stryCov_9fa48("2494", "2495", "2496"), header === undefined)) {
          if (stryMutAct_9fa48("2497")) {
            {}
          } else {
            stryCov_9fa48("2497");
            if (stryMutAct_9fa48("2500") ? cells.some(c => c.trim() === "") : stryMutAct_9fa48("2499") ? false : stryMutAct_9fa48("2498") ? true : (stryCov_9fa48("2498", "2499", "2500"), cells.every(stryMutAct_9fa48("2501") ? () => undefined : (stryCov_9fa48("2501"), c => stryMutAct_9fa48("2504") ? c.trim() !== "" : stryMutAct_9fa48("2503") ? false : stryMutAct_9fa48("2502") ? true : (stryCov_9fa48("2502", "2503", "2504"), (stryMutAct_9fa48("2505") ? c : (stryCov_9fa48("2505"), c.trim())) === (stryMutAct_9fa48("2506") ? "Stryker was here!" : (stryCov_9fa48("2506"), ""))))))) return;
            header = stryMutAct_9fa48("2507") ? {} : (stryCov_9fa48("2507"), {
              row,
              cells
            });
            return;
          }
        }
        rows.push(stryMutAct_9fa48("2508") ? {} : (stryCov_9fa48("2508"), {
          row,
          cells
        }));
      }
    };
    for await (const _ of streamCsvRecords(source, sink, control, options)) {
      // Records are collected by the sink.
    }
    if (stryMutAct_9fa48("2511") ? header !== undefined : stryMutAct_9fa48("2510") ? false : stryMutAct_9fa48("2509") ? true : (stryCov_9fa48("2509", "2510", "2511"), header === undefined)) throw new CsvFileError(stryMutAct_9fa48("2512") ? "" : (stryCov_9fa48("2512"), "EMPTY"), stryMutAct_9fa48("2513") ? "" : (stryCov_9fa48("2513"), "file is empty: the first row must be the header"));
    return stryMutAct_9fa48("2514") ? {} : (stryCov_9fa48("2514"), {
      header,
      rows,
      info: control.info
    });
  }
}

/** Whether every cell of a row is empty or spaces. */
export function isBlankRow(cells: readonly string[]): boolean {
  if (stryMutAct_9fa48("2515")) {
    {}
  } else {
    stryCov_9fa48("2515");
    return stryMutAct_9fa48("2516") ? cells.some(c => c.trim() === "") : (stryCov_9fa48("2516"), cells.every(stryMutAct_9fa48("2517") ? () => undefined : (stryCov_9fa48("2517"), c => stryMutAct_9fa48("2520") ? c.trim() !== "" : stryMutAct_9fa48("2519") ? false : stryMutAct_9fa48("2518") ? true : (stryCov_9fa48("2518", "2519", "2520"), (stryMutAct_9fa48("2521") ? c : (stryCov_9fa48("2521"), c.trim())) === (stryMutAct_9fa48("2522") ? "Stryker was here!" : (stryCov_9fa48("2522"), ""))))));
  }
}