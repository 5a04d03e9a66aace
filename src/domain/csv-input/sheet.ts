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

import { stringify } from "csv-stringify/sync";

/** One sheet row: its 1-based number and its values, index 0 = column A. */
export interface SheetRow {
  number: number;
  values: readonly unknown[];
}

export function sheetCellText(value: unknown): string {
  // (undefined, like any other value without text, reaches the last line.)
  if (value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
  }
  if (typeof value === "object") {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return v.richText.map((part) => sheetCellText((part as { text?: unknown }).text)).join("");
    if ("result" in v) return sheetCellText(v.result);
    if ("text" in v) return sheetCellText(v.text);
    // An error cell ("#N/A"); any other object has no `error` either, and gives "".
    return sheetCellText(v.error);
  }
  return "";
}

/**
 * The rows as CSV (comma, LF, every cell quoted only when needed). Rows missing from the
 * sheet (never written) are empty records; trailing empty cells are dropped and each row
 * padded to the width of the first non-empty row, the header, so that a row is never
 * "short" only because Excel did not store its empty last cells.
 */
export function sheetToCsv(rows: Iterable<SheetRow>): string {
  const records: string[][] = [];
  let width = 0;
  for (const { number, values } of rows) {
    while (records.length < number - 1) records.push([]);
    const cells = values.map(sheetCellText);
    while (cells.length > 0 && cells[cells.length - 1]!.trim() === "") cells.pop();
    if (width === 0) width = cells.length;
    records.push(cells);
  }
  const padded = records.map((cells) =>
    cells.length === 0 ? [] : [...cells, ...new Array<string>(Math.max(0, width - cells.length)).fill("")],
  );
  // csv-stringify's defaults: comma, LF, quotes only where needed.
  return stringify(padded);
}
