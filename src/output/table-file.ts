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

/** The first sheet of a workbook as CSV text (UTF-8). */
async function workbookAsCsv(path: string): Promise<string> {
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
  const sheet = workbook.worksheets[0];
  if (sheet === undefined) throw new CsvFileError("EMPTY", `${path}: the workbook has no sheet`);
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    // exceljs' row.values is 1-based (index 0 unused).
    const values = Array.isArray(row.values) ? (row.values as unknown[]).slice(1) : [];
    rows.push({ number, values: Array.from(values, (v) => v) });
  });
  return sheetToCsv(rows);
}

/**
 * The bytes of a table file as the CSV reader wants them: a CSV streamed from disk, a
 * workbook's first sheet as UTF-8 CSV. `encoding` (a CSV's --encoding) means nothing for a
 * workbook, whose text is Unicode already.
 */
export async function* openTableSource(path: string): AsyncGenerator<Uint8Array> {
  if (await isWorkbookFile(path)) {
    yield Buffer.from(await workbookAsCsv(path), "utf8");
    return;
  }
  yield* createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
}

/** A CSV or .xlsx file as header + rows with their spreadsheet row numbers. */
export async function readTableFile(path: string, options: CsvReadOptions = {}): Promise<CsvTable> {
  try {
    return await readCsvTable(openTableSource(path), options);
  } catch (error) {
    // A read failure (permission, a directory) is exit 11 naming the path; anything else is what it is.
    if (typeof (error as NodeJS.ErrnoException | undefined)?.code === "string" && !(error instanceof CsvFileError))
      throw LocalFileError.fromSystem(error, path, "read");
    throw error;
  }
}
