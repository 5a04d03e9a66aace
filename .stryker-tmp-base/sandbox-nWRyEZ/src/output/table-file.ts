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
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type ExcelJS from "exceljs";
import { sheetToCsv, type SheetRow } from "../domain/csv-input/sheet.js";
import { readCsvTable, type CsvTable } from "../domain/csv-input/table.js";
import type { CsvReadOptions } from "../domain/csv-input/reader.js";
import { CsvFileError } from "../domain/csv-input/errors.js";
import { LocalFileError } from "../errors.js";

// The one loader for tables people hand to simadmin: a CSV as it is, or an .xlsx workbook's
// first sheet turned into CSV text (domain/csv-input/sheet.ts), so both go through the same
// reading rules (docs/cli-contract.md "Users CSV", "Sync"). exceljs and its zip stack are
// imported only when a workbook is read (README, Architecture: start-up).
//
// A workbook is recognised by its zip signature ("PK\3\4"), not only by its name: a roster
// exported as `staff.csv` that is really a workbook would otherwise be "not valid UTF-8 … PK".

const ZIP_SIGNATURE = stryMutAct_9fa48("7026") ? [] : (stryCov_9fa48("7026"), [0x50, 0x4b, 0x03, 0x04]);

/** Whether the file starts like a zip archive (an .xlsx is one). */
export async function isWorkbookFile(path: string): Promise<boolean> {
  if (stryMutAct_9fa48("7027")) {
    {}
  } else {
    stryCov_9fa48("7027");
    let handle;
    try {
      if (stryMutAct_9fa48("7028")) {
        {}
      } else {
        stryCov_9fa48("7028");
        handle = await open(path, stryMutAct_9fa48("7029") ? "" : (stryCov_9fa48("7029"), "r"));
      }
    } catch (error) {
      if (stryMutAct_9fa48("7030")) {
        {}
      } else {
        stryCov_9fa48("7030");
        throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("7031") ? "" : (stryCov_9fa48("7031"), "read"));
      }
    }
    try {
      if (stryMutAct_9fa48("7032")) {
        {}
      } else {
        stryCov_9fa48("7032");
        const head = Buffer.alloc(ZIP_SIGNATURE.length);
        const {
          bytesRead
        } = await handle.read(head, 0, head.length, 0);
        return stryMutAct_9fa48("7035") ? bytesRead === head.length || ZIP_SIGNATURE.every((b, i) => head[i] === b) : stryMutAct_9fa48("7034") ? false : stryMutAct_9fa48("7033") ? true : (stryCov_9fa48("7033", "7034", "7035"), (stryMutAct_9fa48("7037") ? bytesRead !== head.length : stryMutAct_9fa48("7036") ? true : (stryCov_9fa48("7036", "7037"), bytesRead === head.length)) && (stryMutAct_9fa48("7038") ? ZIP_SIGNATURE.some((b, i) => head[i] === b) : (stryCov_9fa48("7038"), ZIP_SIGNATURE.every(stryMutAct_9fa48("7039") ? () => undefined : (stryCov_9fa48("7039"), (b, i) => stryMutAct_9fa48("7042") ? head[i] !== b : stryMutAct_9fa48("7041") ? false : stryMutAct_9fa48("7040") ? true : (stryCov_9fa48("7040", "7041", "7042"), head[i] === b))))));
      }
    } finally {
      if (stryMutAct_9fa48("7043")) {
        {}
      } else {
        stryCov_9fa48("7043");
        await handle.close();
      }
    }
  }
}

/** The first sheet of a workbook as CSV text (UTF-8). */
async function workbookAsCsv(path: string): Promise<string> {
  if (stryMutAct_9fa48("7044")) {
    {}
  } else {
    stryCov_9fa48("7044");
    const {
      default: excel
    } = (await import("exceljs")) as unknown as {
      default: typeof ExcelJS;
    };
    const workbook = new excel.Workbook();
    try {
      if (stryMutAct_9fa48("7045")) {
        {}
      } else {
        stryCov_9fa48("7045");
        await workbook.xlsx.readFile(path);
      }
    } catch (error) {
      if (stryMutAct_9fa48("7046")) {
        {}
      } else {
        stryCov_9fa48("7046");
        throw new CsvFileError(stryMutAct_9fa48("7047") ? "" : (stryCov_9fa48("7047"), "MALFORMED"), stryMutAct_9fa48("7048") ? `` : (stryCov_9fa48("7048"), `${path} looks like a workbook but cannot be read as .xlsx: ${(error as Error).message}`), stryMutAct_9fa48("7049") ? {} : (stryCov_9fa48("7049"), {
          hint: stryMutAct_9fa48("7050") ? "" : (stryCov_9fa48("7050"), "save it again as an Excel workbook (.xlsx) or as CSV UTF-8"),
          cause: error
        }));
      }
    }
    const sheet = workbook.worksheets[0];
    if (stryMutAct_9fa48("7053") ? sheet !== undefined : stryMutAct_9fa48("7052") ? false : stryMutAct_9fa48("7051") ? true : (stryCov_9fa48("7051", "7052", "7053"), sheet === undefined)) throw new CsvFileError(stryMutAct_9fa48("7054") ? "" : (stryCov_9fa48("7054"), "EMPTY"), stryMutAct_9fa48("7055") ? `` : (stryCov_9fa48("7055"), `${path}: the workbook has no sheet`));
    const rows: SheetRow[] = stryMutAct_9fa48("7056") ? ["Stryker was here"] : (stryCov_9fa48("7056"), []);
    sheet.eachRow(stryMutAct_9fa48("7057") ? {} : (stryCov_9fa48("7057"), {
      includeEmpty: stryMutAct_9fa48("7058") ? true : (stryCov_9fa48("7058"), false)
    }), (row, number) => {
      if (stryMutAct_9fa48("7059")) {
        {}
      } else {
        stryCov_9fa48("7059");
        // exceljs' row.values is 1-based (index 0 unused).
        const values = Array.isArray(row.values) ? stryMutAct_9fa48("7060") ? row.values as unknown[] : (stryCov_9fa48("7060"), (row.values as unknown[]).slice(1)) : stryMutAct_9fa48("7061") ? ["Stryker was here"] : (stryCov_9fa48("7061"), []);
        rows.push(stryMutAct_9fa48("7062") ? {} : (stryCov_9fa48("7062"), {
          number,
          values: Array.from(values, stryMutAct_9fa48("7063") ? () => undefined : (stryCov_9fa48("7063"), v => v))
        }));
      }
    });
    return sheetToCsv(rows);
  }
}

/**
 * The bytes of a table file as the CSV reader wants them: a CSV streamed from disk, a
 * workbook's first sheet as UTF-8 CSV. `encoding` (a CSV's --encoding) means nothing for a
 * workbook, whose text is Unicode already.
 */
export async function* openTableSource(path: string): AsyncGenerator<Uint8Array> {
  if (stryMutAct_9fa48("7064")) {
    {}
  } else {
    stryCov_9fa48("7064");
    if (stryMutAct_9fa48("7066") ? false : stryMutAct_9fa48("7065") ? true : (stryCov_9fa48("7065", "7066"), await isWorkbookFile(path))) {
      if (stryMutAct_9fa48("7067")) {
        {}
      } else {
        stryCov_9fa48("7067");
        yield Buffer.from(await workbookAsCsv(path), stryMutAct_9fa48("7068") ? "" : (stryCov_9fa48("7068"), "utf8"));
        return;
      }
    }
    yield* createReadStream(path, {
      highWaterMark: 256 * 1024
    }) as AsyncIterable<Buffer>;
  }
}

/** A CSV or .xlsx file as header + rows with their spreadsheet row numbers. */
export async function readTableFile(path: string, options: CsvReadOptions = {}): Promise<CsvTable> {
  if (stryMutAct_9fa48("7069")) {
    {}
  } else {
    stryCov_9fa48("7069");
    try {
      if (stryMutAct_9fa48("7070")) {
        {}
      } else {
        stryCov_9fa48("7070");
        return await readCsvTable(openTableSource(path), options);
      }
    } catch (error) {
      if (stryMutAct_9fa48("7071")) {
        {}
      } else {
        stryCov_9fa48("7071");
        // A read failure (permission, a directory) is exit 11 naming the path; anything else is what it is.
        if (stryMutAct_9fa48("7074") ? typeof (error as NodeJS.ErrnoException | undefined)?.code === "string" || !(error instanceof CsvFileError) : stryMutAct_9fa48("7073") ? false : stryMutAct_9fa48("7072") ? true : (stryCov_9fa48("7072", "7073", "7074"), (stryMutAct_9fa48("7076") ? typeof (error as NodeJS.ErrnoException | undefined)?.code !== "string" : stryMutAct_9fa48("7075") ? true : (stryCov_9fa48("7075", "7076"), typeof (stryMutAct_9fa48("7077") ? (error as NodeJS.ErrnoException | undefined).code : (stryCov_9fa48("7077"), (error as NodeJS.ErrnoException | undefined)?.code)) === (stryMutAct_9fa48("7078") ? "" : (stryCov_9fa48("7078"), "string")))) && (stryMutAct_9fa48("7079") ? error instanceof CsvFileError : (stryCov_9fa48("7079"), !(error instanceof CsvFileError))))) throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("7080") ? "" : (stryCov_9fa48("7080"), "read"));
        throw error;
      }
    }
  }
}