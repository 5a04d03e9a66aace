// A whole table in memory: the header and every row with its spreadsheet row number, from
// the CSV reader (reader.ts) — for files that are read once and compared as a whole (an HR
// roster for `users sync`, an assignments list for `progress`), not streamed like an import.
// A workbook's first sheet reaches this reader as CSV text written by sheetToCsv (sheet.ts),
// so a CSV and an .xlsx are read by the same rules and give the same row numbers.
//
// Pure: the caller opens the file and hands over its chunks.

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
  let header: TableRow | undefined;
  const rows: TableRow[] = [];
  const control = { failure: (): Error | undefined => undefined, info: {} as Partial<CsvSourceInfo> };
  const sink = (cells: string[], row: number): void => {
    if (header === undefined) {
      if (cells.every((c) => c.trim() === "")) return;
      header = { row, cells };
      return;
    }
    rows.push({ row, cells });
  };
  for await (const _ of streamCsvRecords(source, sink, control, options)) {
    // Records are collected by the sink.
  }
  if (header === undefined) throw new CsvFileError("EMPTY", "file is empty: the first row must be the header");
  return { header, rows, info: control.info };
}

/** Whether every cell of a row is empty or spaces. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((c) => c.trim() === "");
}
