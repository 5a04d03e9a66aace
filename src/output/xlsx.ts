import { PassThrough } from "node:stream";
import type ExcelJS from "exceljs";
import { JsonNumber } from "../domain/exact-json.js";
import type { Cell } from "../domain/records.js";

// `-o xlsx` (docs/cli-contract.md, Global options `-o`): a real workbook written with
// exceljs' streaming WorkbookWriter, so a million report records never sit in memory. This
// module is imported only for the xlsx format: exceljs and its zip stack cost start-up
// time that `--help` and `token` must not pay.
//
// - the header row is bold, frozen (it stays on screen while scrolling) and carries an
//   auto-filter over every column;
// - numbers are number cells; ISO dates (`2026-10-01`) and timestamps
//   (`2026-10-01T08:30:00Z`) are date cells, timestamps in UTC (a workbook has no time
//   zones); booleans are boolean cells; everything else is a string cell. A string is never
//   a formula (exceljs writes formulas only from `{ formula }` values), so the CSV's `'`
//   guard is not needed and the text stays exactly as the service sent it;
// - columns are the flattened dotted names, as in CSV.

/** Where the workbook's bytes go (an OutputSink: stdout is refused earlier, see Context.format). */
export interface BinarySink {
  write(chunk: Uint8Array): Promise<void>;
}

export interface XlsxSheet {
  /** The header row; call once, before the first row. */
  header(columns: readonly string[]): Promise<void>;
  row(cells: readonly (Cell | undefined)[]): Promise<void>;
  /** Completes the sheet (auto-filter, closing tags). */
  end(): Promise<void>;
}

export interface XlsxWorkbook {
  /** Sheets are written one after the other: end the previous one first. */
  addSheet(name: string): XlsxSheet;
  /** Completes the workbook and waits until the sink has every byte. */
  commit(): Promise<void>;
  /** Stops without completing (the caller discards the file). */
  abort(): void;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// The offset, when there is one, is the capture group.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE_FORMAT = "yyyy-mm-dd";
const TIMESTAMP_FORMAT = "yyyy-mm-dd hh:mm:ss";
// One style object per kind of cell, shared by every cell of that kind: exceljs caches the
// style id per object, so a fresh style per cell (its default) cost most of an export's time.
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: DATE_FORMAT };
const TIMESTAMP_STYLE: Partial<ExcelJS.Style> = { numFmt: TIMESTAMP_FORMAT };
const HEADER_STYLE: Partial<ExcelJS.Style> = { font: { bold: true } };

/** A date cell for an ISO date or timestamp string; undefined for anything else (2026-02-30 included). */
export function isoDateValue(text: string): { date: Date; numFmt: string } | undefined {
  const day = ISO_DATE.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const value = new Date(Date.UTC(year, month - 1, date));
    // Date.UTC rolls 2026-02-30 over to March: not a real date, so it stays text. A day or a
    // month out of range (two digits each) always lands in another month, so the month tells.
    if (value.getUTCMonth() !== month - 1) return undefined;
    return { date: value, numFmt: DATE_FORMAT };
  }
  const stamp = ISO_TIMESTAMP.exec(text);
  if (!stamp) return undefined;
  // Without an offset the time is read as UTC, as the service's timestamps are.
  // Stryker disable next-line ConditionalExpression: killed under vitest by the test "a timestamp without an offset is UTC whatever the machine's time zone"; in Stryker's test workers its TZ change does not take effect (observed), and under UTC local time is UTC
  const zoned = stamp[1] === undefined ? `${text}Z` : text;
  // Node's Date.parse (V8) reads the space separator and a `+0200` offset as they are.
  const ms = Date.parse(zoned);
  if (Number.isNaN(ms) || isoDateValue(text.slice(0, 10)) === undefined) return undefined;
  return { date: new Date(ms), numFmt: TIMESTAMP_FORMAT };
}

// XML 1.0 cannot carry these; exceljs would drop them silently. Made visible instead, as
// everywhere else service text is shown (sanitize.ts).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;

function cellValue(cell: Exclude<Cell, null>): { value: ExcelJS.CellValue; style: Partial<ExcelJS.Style> } {
  // A number JSON.parse would change (exact-json.ts): a sheet's number cell is a double and
  // would round it again, so its digits go in as text (docs/output.md, "Numbers").
  if (cell instanceof JsonNumber) return { value: cell.text, style: PLAIN_STYLE };
  if (typeof cell === "number") return { value: Number.isFinite(cell) ? cell : String(cell), style: PLAIN_STYLE };
  if (typeof cell === "boolean") return { value: cell, style: PLAIN_STYLE };
  // The patterns are anchored at the start: a long text fails them within its first characters.
  const date = isoDateValue(cell);
  if (date) return { value: date.date, style: date.numFmt === DATE_FORMAT ? DATE_STYLE : TIMESTAMP_STYLE };
  const text = cell.replace(XML_INVALID, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (!NEEDS_PRESERVING.test(text)) return { value: text, style: PLAIN_STYLE };
  // exceljs writes a plain string as `<v>`, whose edge white space readers drop, and a CR as
  // itself, which every XML parser turns into LF. Rich text is written as an inline string
  // `<t xml:space="preserve">`; a CR goes as OOXML's escape `_x000D_` (an `_xHHHH_` already in
  // the text is escaped first, `_x005F_`, so that it reads back as typed).
  return {
    value: { richText: [{ text: text.replace(OOXML_ESCAPE, "_x005F$&").replace(/\r/g, "_x000D_") }] },
    style: PLAIN_STYLE,
  };
}

/** Text a `<v>` would not carry exactly: white space at either end (a leading tab too), or a CR. */
const NEEDS_PRESERVING = /^\s|\s$|\r/;
/** OOXML's escape of a character in text (ST_Xstring): `_x000D_`. */
const OOXML_ESCAPE = /_x[0-9A-Fa-f]{4}_/g;

/** Excel's sheet-name rules: at most 31 characters, none of `[]:*?/\`, not empty. */
export function sheetName(name: string): string {
  const cleaned = name
    .replace(/[[\]:*?/\\]/g, "_")
    .slice(0, 31)
    .trim();
  return cleaned === "" ? "Sheet1" : cleaned;
}

const WIDEST_COLUMN = 60;
/** How much of the sheet's XML may wait for the zip before rows pause (measured: a million rows stay < 250 MiB). */
const MAX_BACKLOG = 4 * 1024 * 1024;

/** exceljs' StreamBuf (utils/stream-buf.js), the sheet's XML on its way into the zip: internals read, not changed. */
export interface SheetStream {
  buffers?: { length: number }[];
  /**
   * archiver wraps the StreamBuf in a PassThrough (readable-stream 2, which has no
   * writableLength/readableLength getters) that buffers whatever deflate has not taken yet.
   */
  pipes?: { _writableState?: { length?: number }; _readableState?: { length?: number } }[];
}

/**
 * The bytes of a sheet's XML not yet taken by the sink: in exceljs' buffers, in the zip
 * entry's, and in the zip's output. Every part is optional: a later exceljs that drops one
 * counts less, it does not crash.
 */
export function backlogOf(stream: SheetStream | undefined, out: { readableLength: number }): number {
  return (
    (stream?.buffers ?? []).reduce((sum, buffer) => sum + buffer.length, 0) +
    // Stryker disable next-line ArrayDeclaration: a stand-in element has no _writableState or _readableState, so it counts 0 just as no element
    (stream?.pipes ?? []).reduce(
      (sum, pipe) => sum + (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0),
      0,
    ) +
    out.readableLength
  );
}

/**
 * exceljs does not apply backpressure: the sheet's XML piles up in its buffers (and in the
 * zip entry's) whenever rows come faster than deflate and the disk take them. Rows wait
 * here until the backlog is at most MAX_BACKLOG, so a long export streams in bounded memory.
 */
export async function drain(backlog: () => number, failed: () => Error | undefined): Promise<void> {
  while (backlog() > MAX_BACKLOG) {
    // The output failed (disk full, a closed pipe): nothing will drain any more.
    const failure = failed();
    if (failure) throw failure;
    await new Promise<void>((resolve) => setTimeout(resolve, 2));
  }
}

export async function openXlsxWorkbook(sink: BinarySink): Promise<XlsxWorkbook> {
  const { default: excel } = (await import("exceljs")) as unknown as { default: typeof ExcelJS };
  const out = new PassThrough();
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // The first failure of the sink (a full disk: ENOSPC) is kept and the zip's output is still
  // read and dropped, so exceljs never writes into a destroyed stream (without it there
  // was "The operation was aborted", exit 1, or a line of ERR_STREAM_DESTROYED per sheet);
  // every later step throws that first failure — the LocalFileError naming the file.
  let failure: Error | undefined;
  const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(`xlsx output failed: ${String(error)}`));
  const pump = async (): Promise<void> => {
    for await (const chunk of out as AsyncIterable<Uint8Array>) {
      if (failure !== undefined) continue;
      try {
        await sink.write(chunk);
      } catch (error) {
        failure = asError(error);
      }
    }
  };
  // Only a failing `out` could reject the pump, and nothing here destroys or errors it: kept
  // so that such a failure would still be the error of the next step, never an unhandled one.
  // Stryker disable BlockStatement,AssignmentOperator: unreachable, as said above
  const pumped = pump().catch((error: unknown) => {
    failure ??= asError(error);
  });
  // Stryker restore BlockStatement,AssignmentOperator
  // Read through a function: the pump sets it from outside the code that checks it.
  const failed = (): Error | undefined => failure;
  let written = 0;

  return {
    addSheet(name: string): XlsxSheet {
      const sheet = workbook.addWorksheet(sheetName(name), { views: [{ state: "frozen", ySplit: 1 }] });
      const stream = (sheet as unknown as { stream?: SheetStream }).stream;
      return {
        async header(columns) {
          // Widths from the header names: a reader sees each name whole without resizing.
          sheet.columns = columns.map((column) => ({ width: Math.min(WIDEST_COLUMN, Math.max(10, column.length + 2)) }));
          const row = sheet.addRow([]);
          columns.forEach((column, i) => {
            const cell = row.getCell(i + 1);
            cell.value = column;
            cell.style = HEADER_STYLE;
          });
          row.commit();
          // Without columns the range ends at column 0, which exceljs writes no filter for.
          sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
        },
        async row(cells) {
          if (failure !== undefined) throw failure;
          const row = sheet.addRow([]);
          for (const [i, cell] of cells.entries()) {
            if (cell === null || cell === undefined) continue;
            const { value, style } = cellValue(cell);
            const target = row.getCell(i + 1);
            target.value = value;
            target.style = style;
          }
          row.commit();
          // Stryker disable next-line UpdateOperator: counting down, `--written` meets the multiples of 500 (-500, -1000, ...) at the same rows
          if (++written % 500 === 0) await drain(() => backlogOf(stream, out), failed);
        },
        async end() {
          if (failure !== undefined) throw failure;
          // The sheet's closing XML goes to the zip; the next sheet may start at once.
          sheet.commit();
        },
      };
    },
    async commit() {
      if (failure !== undefined) throw failure;
      // exceljs rejects only on a fault of its own (the sink's failures never reach it), which
      // no test can cause; should the sink have failed by then too, that failure names the file.
      // Stryker disable BlockStatement,LogicalOperator: unreachable, as said above
      await workbook.commit().catch((error: unknown) => {
        throw failed() ?? error;
      });
      // Stryker restore BlockStatement,LogicalOperator
      await pumped;
      const late = failed();
      if (late !== undefined) throw late;
    },
    abort() {
      // Ends the zip's output quietly: what exceljs still writes is read and dropped.
      failure ??= new Error("xlsx output aborted");
      out.resume();
    },
  };
}
