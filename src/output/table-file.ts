import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type ExcelJS from "exceljs";
import { sheetToCsv, type SheetRow } from "../domain/csv-input/sheet.js";
import { readCsvTable, type CsvTable } from "../domain/csv-input/table.js";
import type { CsvReadOptions } from "../domain/csv-input/reader.js";
import { CsvFileError } from "../domain/csv-input/errors.js";
import { LocalFileError, UsageError } from "../errors.js";

/**
 * Which sheet of a workbook holds the table, and its header row (docs/users-csv.md
 * "Workbooks"): `sheet` a name or a 1-based number counting the visible sheets; default
 * the first visible sheet. `headerRow`: rows above it are not read.
 */
export interface SheetChoice {
  sheet?: string | undefined;
  headerRow?: number | undefined;
}

// The one loader for tables people hand to simadmin: a CSV as it is, or an .xlsx workbook's
// first sheet turned into CSV text (domain/csv-input/sheet.ts), so both go through the same
// reading rules (docs/cli-contract.md "Users CSV", "Sync"). exceljs and its zip stack are
// imported only when a workbook is read (README, Architecture: start-up).
//
// A workbook is recognised by its zip signature ("PK\3\4"), not only by its name: a roster
// exported as `staff.csv` that is really a workbook would otherwise be "not valid UTF-8 … PK".

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

/** Whether the file starts like a zip archive (an .xlsx is one). */
export async function isWorkbookFile(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw LocalFileError.fromSystem(error, path, "read");
  }
  try {
    const head = Buffer.alloc(ZIP_SIGNATURE.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && ZIP_SIGNATURE.every((b, i) => head[i] === b);
  } finally {
    await handle.close();
  }
}

/** The chosen sheet of a workbook (SheetChoice) as CSV text (UTF-8). */
async function workbookAsCsv(path: string, choice: SheetChoice): Promise<string> {
  const { default: excel } = (await import("exceljs")) as unknown as { default: typeof ExcelJS };
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    throw new CsvFileError(
      "MALFORMED",
      `${path} looks like a workbook but cannot be read as .xlsx: ${(error as Error).message}`,
      {
        hint: "save it again as an Excel workbook (.xlsx) or as CSV UTF-8",
        cause: error,
      },
    );
  }
  const sheet = chooseSheet(path, workbook.worksheets, choice.sheet);
  const from = choice.headerRow ?? 1;
  const rows: SheetRow[] = [];
  const unvalued: string[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number < from) return;
    // exceljs' row.values is 1-based (index 0 unused).
    const values = Array.isArray(row.values) ? (row.values as unknown[]).slice(1) : [];
    values.forEach((value, i) => {
      if (isFormulaWithoutValue(value)) unvalued.push(`${columnLetters(i)}${number}`);
    });
    rows.push({ number, values: Array.from(values, (v) => v) });
  });
  if (unvalued.length > 0) {
    // openpyxl and pandas write formulas without computing them: the cell has no value to read.
    throw new CsvFileError(
      "MALFORMED",
      `${path}: ${unvalued.length === 1 ? "cell" : "cells"} ${unvalued.slice(0, 5).join(", ")}${unvalued.length > 5 ? ` and ${unvalued.length - 5} more` : ""} of sheet "${sheet.name}" ${unvalued.length === 1 ? "holds a formula" : "hold formulas"} without a stored value`,
      {
        hint: "the program that wrote the file (openpyxl, pandas) does not calculate formulas: open and save it in Excel or LibreOffice, or write the values instead",
      },
    );
  }
  return sheetToCsv(rows);
}

/** A formula cell as exceljs reads it when the file stores no result for it. */
function isFormulaWithoutValue(value: unknown): boolean {
  if (typeof value !== "object" || value === null || value instanceof Date) return false;
  const cell = value as { formula?: unknown; sharedFormula?: unknown; result?: unknown };
  return (cell.formula !== undefined || cell.sharedFormula !== undefined) && cell.result === undefined;
}

/** Column index (0 = A) → its letters. */
function columnLetters(index: number): string {
  let n = index + 1;
  let letters = "";
  while (n > 0) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/**
 * The sheet --sheet names (a name, exactly or ignoring case, or the n-th visible sheet), or
 * the first visible one: a hidden first sheet (an old copy, a lookup table) is not the roster.
 */
function chooseSheet(path: string, sheets: readonly ExcelJS.Worksheet[], wanted: string | undefined): ExcelJS.Worksheet {
  const visible = sheets.filter((s) => s.state !== "hidden" && s.state !== "veryHidden");
  const list = (): string =>
    sheets.map((s) => `"${s.name}"${s.state === "hidden" || s.state === "veryHidden" ? " (hidden)" : ""}`).join(", ");
  if (wanted === undefined) {
    const first = visible[0] ?? sheets[0];
    if (first === undefined) throw new CsvFileError("EMPTY", `${path}: the workbook has no sheet`);
    return first;
  }
  // A name first (a sheet may be called "2026"), then a number.
  const found =
    sheets.find((s) => s.name === wanted) ??
    sheets.find((s) => s.name.toLowerCase() === wanted.toLowerCase()) ??
    (/^\d+$/.test(wanted) ? visible[Number(wanted) - 1] : undefined);
  if (found === undefined) {
    throw new UsageError(`--sheet ${wanted}: ${path} has no such sheet (its sheets: ${list()}); nothing was sent`, {
      hint: "give a sheet's name, or its number among the visible sheets (1 is the first)",
    });
  }
  return found;
}

/**
 * The bytes of a table file as the CSV reader wants them: a CSV streamed from disk, a
 * workbook's first sheet as UTF-8 CSV. `encoding` (a CSV's --encoding) means nothing for a
 * workbook, whose text is Unicode already.
 */
export async function* openTableSource(path: string, choice: SheetChoice = {}): AsyncGenerator<Uint8Array> {
  if (await isWorkbookFile(path)) {
    yield Buffer.from(await workbookAsCsv(path, choice), "utf8");
    return;
  }
  if (choice.sheet !== undefined || choice.headerRow !== undefined) {
    throw new UsageError(
      `${choice.sheet !== undefined ? "--sheet" : "--header-row"} applies to .xlsx workbooks; ${path} is a CSV file; nothing was sent`,
      { hint: "in a CSV, the first row with content is the header: remove the lines above it" },
    );
  }
  yield* createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
}

/** A CSV or .xlsx file as header + rows with their spreadsheet row numbers. */
export async function readTableFile(path: string, options: CsvReadOptions & SheetChoice = {}): Promise<CsvTable> {
  try {
    return await readCsvTable(openTableSource(path, options), { encoding: options.encoding });
  } catch (error) {
    // A read failure (permission, a directory) is exit 11 naming the path; anything else is what it is.
    if (typeof (error as NodeJS.ErrnoException | undefined)?.code === "string" && !(error instanceof CsvFileError))
      throw LocalFileError.fromSystem(error, path, "read");
    throw error;
  }
}
