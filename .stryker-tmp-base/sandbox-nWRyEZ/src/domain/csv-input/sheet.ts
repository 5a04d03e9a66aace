// @ts-nocheck
// A spreadsheet's first sheet → CSV text that the CSV reader reads like any users file
// (docs/cli-contract.md "Sync": "an .xlsx workbook (first sheet)"). Every sheet row becomes
// one record, empty rows included, so row numbers in messages are the sheet's own.
//
// Cell values arrive as exceljs gives them; each is turned into the text a person sees:
// rich text joined, a hyperlink's text (an email typed into Excel becomes a mailto link),
// a formula's result, a date as YYYY-MM-DD (with the time when it has one), numbers as
// JavaScript prints them (no thousands separators: they would not survive a CSV).
//
// Pure: no exceljs import (the loader, output/table-file.ts, imports it lazily).
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
import { stringify } from "csv-stringify/sync";

/** One sheet row: its 1-based number and its values, index 0 = column A. */
export interface SheetRow {
  number: number;
  values: readonly unknown[];
}
export function sheetCellText(value: unknown): string {
  if (stryMutAct_9fa48("2395")) {
    {}
  } else {
    stryCov_9fa48("2395");
    if (stryMutAct_9fa48("2398") ? value === null && value === undefined : stryMutAct_9fa48("2397") ? false : stryMutAct_9fa48("2396") ? true : (stryCov_9fa48("2396", "2397", "2398"), (stryMutAct_9fa48("2400") ? value !== null : stryMutAct_9fa48("2399") ? false : (stryCov_9fa48("2399", "2400"), value === null)) || (stryMutAct_9fa48("2402") ? value !== undefined : stryMutAct_9fa48("2401") ? false : (stryCov_9fa48("2401", "2402"), value === undefined)))) return stryMutAct_9fa48("2403") ? "Stryker was here!" : (stryCov_9fa48("2403"), "");
    if (stryMutAct_9fa48("2406") ? typeof value !== "string" : stryMutAct_9fa48("2405") ? false : stryMutAct_9fa48("2404") ? true : (stryCov_9fa48("2404", "2405", "2406"), typeof value === (stryMutAct_9fa48("2407") ? "" : (stryCov_9fa48("2407"), "string")))) return value;
    if (stryMutAct_9fa48("2410") ? typeof value === "number" && typeof value === "bigint" : stryMutAct_9fa48("2409") ? false : stryMutAct_9fa48("2408") ? true : (stryCov_9fa48("2408", "2409", "2410"), (stryMutAct_9fa48("2412") ? typeof value !== "number" : stryMutAct_9fa48("2411") ? false : (stryCov_9fa48("2411", "2412"), typeof value === (stryMutAct_9fa48("2413") ? "" : (stryCov_9fa48("2413"), "number")))) || (stryMutAct_9fa48("2415") ? typeof value !== "bigint" : stryMutAct_9fa48("2414") ? false : (stryCov_9fa48("2414", "2415"), typeof value === (stryMutAct_9fa48("2416") ? "" : (stryCov_9fa48("2416"), "bigint")))))) return String(value);
    if (stryMutAct_9fa48("2419") ? typeof value !== "boolean" : stryMutAct_9fa48("2418") ? false : stryMutAct_9fa48("2417") ? true : (stryCov_9fa48("2417", "2418", "2419"), typeof value === (stryMutAct_9fa48("2420") ? "" : (stryCov_9fa48("2420"), "boolean")))) return value ? stryMutAct_9fa48("2421") ? "" : (stryCov_9fa48("2421"), "TRUE") : stryMutAct_9fa48("2422") ? "" : (stryCov_9fa48("2422"), "FALSE");
    if (stryMutAct_9fa48("2424") ? false : stryMutAct_9fa48("2423") ? true : (stryCov_9fa48("2423", "2424"), value instanceof Date)) {
      if (stryMutAct_9fa48("2425")) {
        {}
      } else {
        stryCov_9fa48("2425");
        const iso = value.toISOString();
        return (stryMutAct_9fa48("2426") ? iso.startsWith("T00:00:00.000Z") : (stryCov_9fa48("2426"), iso.endsWith(stryMutAct_9fa48("2427") ? "" : (stryCov_9fa48("2427"), "T00:00:00.000Z")))) ? stryMutAct_9fa48("2428") ? iso : (stryCov_9fa48("2428"), iso.slice(0, 10)) : iso.replace(stryMutAct_9fa48("2429") ? "" : (stryCov_9fa48("2429"), ".000Z"), stryMutAct_9fa48("2430") ? "" : (stryCov_9fa48("2430"), "Z"));
      }
    }
    if (stryMutAct_9fa48("2433") ? typeof value !== "object" : stryMutAct_9fa48("2432") ? false : stryMutAct_9fa48("2431") ? true : (stryCov_9fa48("2431", "2432", "2433"), typeof value === (stryMutAct_9fa48("2434") ? "" : (stryCov_9fa48("2434"), "object")))) {
      if (stryMutAct_9fa48("2435")) {
        {}
      } else {
        stryCov_9fa48("2435");
        const v = value as Record<string, unknown>;
        if (stryMutAct_9fa48("2437") ? false : stryMutAct_9fa48("2436") ? true : (stryCov_9fa48("2436", "2437"), Array.isArray(v.richText))) return v.richText.map(stryMutAct_9fa48("2438") ? () => undefined : (stryCov_9fa48("2438"), part => sheetCellText((part as {
          text?: unknown;
        }).text))).join(stryMutAct_9fa48("2439") ? "Stryker was here!" : (stryCov_9fa48("2439"), ""));
        if (stryMutAct_9fa48("2441") ? false : stryMutAct_9fa48("2440") ? true : (stryCov_9fa48("2440", "2441"), (stryMutAct_9fa48("2442") ? "" : (stryCov_9fa48("2442"), "result")) in v)) return sheetCellText(v.result);
        if (stryMutAct_9fa48("2444") ? false : stryMutAct_9fa48("2443") ? true : (stryCov_9fa48("2443", "2444"), (stryMutAct_9fa48("2445") ? "" : (stryCov_9fa48("2445"), "text")) in v)) return sheetCellText(v.text);
        if (stryMutAct_9fa48("2447") ? false : stryMutAct_9fa48("2446") ? true : (stryCov_9fa48("2446", "2447"), (stryMutAct_9fa48("2448") ? "" : (stryCov_9fa48("2448"), "error")) in v)) return sheetCellText(v.error);
      }
    }
    return stryMutAct_9fa48("2449") ? "Stryker was here!" : (stryCov_9fa48("2449"), "");
  }
}

/**
 * The rows as CSV (comma, LF, every cell quoted only when needed). Rows missing from the
 * sheet (never written) are empty records; trailing empty cells are dropped and each row
 * padded to the width of the first non-empty row, the header, so that a row is never
 * "short" only because Excel did not store its empty last cells.
 */
export function sheetToCsv(rows: Iterable<SheetRow>): string {
  if (stryMutAct_9fa48("2450")) {
    {}
  } else {
    stryCov_9fa48("2450");
    const records: string[][] = stryMutAct_9fa48("2451") ? ["Stryker was here"] : (stryCov_9fa48("2451"), []);
    let width = 0;
    for (const {
      number,
      values
    } of rows) {
      if (stryMutAct_9fa48("2452")) {
        {}
      } else {
        stryCov_9fa48("2452");
        while (stryMutAct_9fa48("2455") ? records.length >= number - 1 : stryMutAct_9fa48("2454") ? records.length <= number - 1 : stryMutAct_9fa48("2453") ? false : (stryCov_9fa48("2453", "2454", "2455"), records.length < (stryMutAct_9fa48("2456") ? number + 1 : (stryCov_9fa48("2456"), number - 1)))) records.push(stryMutAct_9fa48("2457") ? ["Stryker was here"] : (stryCov_9fa48("2457"), []));
        const cells = values.map(sheetCellText);
        while (stryMutAct_9fa48("2459") ? cells.length > 0 || cells[cells.length - 1]!.trim() === "" : stryMutAct_9fa48("2458") ? false : (stryCov_9fa48("2458", "2459"), (stryMutAct_9fa48("2462") ? cells.length <= 0 : stryMutAct_9fa48("2461") ? cells.length >= 0 : stryMutAct_9fa48("2460") ? true : (stryCov_9fa48("2460", "2461", "2462"), cells.length > 0)) && (stryMutAct_9fa48("2464") ? cells[cells.length - 1]!.trim() !== "" : stryMutAct_9fa48("2463") ? true : (stryCov_9fa48("2463", "2464"), (stryMutAct_9fa48("2465") ? cells[cells.length - 1]! : (stryCov_9fa48("2465"), cells[stryMutAct_9fa48("2466") ? cells.length + 1 : (stryCov_9fa48("2466"), cells.length - 1)]!.trim())) === (stryMutAct_9fa48("2467") ? "Stryker was here!" : (stryCov_9fa48("2467"), "")))))) cells.pop();
        if (stryMutAct_9fa48("2470") ? width === 0 || cells.length > 0 : stryMutAct_9fa48("2469") ? false : stryMutAct_9fa48("2468") ? true : (stryCov_9fa48("2468", "2469", "2470"), (stryMutAct_9fa48("2472") ? width !== 0 : stryMutAct_9fa48("2471") ? true : (stryCov_9fa48("2471", "2472"), width === 0)) && (stryMutAct_9fa48("2475") ? cells.length <= 0 : stryMutAct_9fa48("2474") ? cells.length >= 0 : stryMutAct_9fa48("2473") ? true : (stryCov_9fa48("2473", "2474", "2475"), cells.length > 0)))) width = cells.length;
        records.push(cells);
      }
    }
    const padded = records.map(stryMutAct_9fa48("2476") ? () => undefined : (stryCov_9fa48("2476"), cells => (stryMutAct_9fa48("2479") ? cells.length !== 0 : stryMutAct_9fa48("2478") ? false : stryMutAct_9fa48("2477") ? true : (stryCov_9fa48("2477", "2478", "2479"), cells.length === 0)) ? stryMutAct_9fa48("2480") ? [] : (stryCov_9fa48("2480"), [stryMutAct_9fa48("2481") ? "Stryker was here!" : (stryCov_9fa48("2481"), "")]) : stryMutAct_9fa48("2482") ? [] : (stryCov_9fa48("2482"), [...cells, ...(stryMutAct_9fa48("2483") ? new Array() : (stryCov_9fa48("2483"), new Array<string>(stryMutAct_9fa48("2484") ? Math.min(0, width - cells.length) : (stryCov_9fa48("2484"), Math.max(0, stryMutAct_9fa48("2485") ? width + cells.length : (stryCov_9fa48("2485"), width - cells.length)))))).fill(stryMutAct_9fa48("2486") ? "Stryker was here!" : (stryCov_9fa48("2486"), ""))])));
    return stringify(padded, stryMutAct_9fa48("2487") ? {} : (stryCov_9fa48("2487"), {
      delimiter: stryMutAct_9fa48("2488") ? "" : (stryCov_9fa48("2488"), ","),
      record_delimiter: stryMutAct_9fa48("2489") ? "" : (stryCov_9fa48("2489"), "unix")
    }));
  }
}