import type { JsonRecord } from "../domain/records.js";
import type { TableColumns } from "./table-columns.js";
import type { XlsxWorkbook } from "./xlsx.js";

// The output engine's types (record-stream.ts), apart so that each writer can name them
// without importing the factory that imports the writers.

export type RecordFormat = "json" | "ndjson" | "csv" | "table" | "xlsx";

/** Where the output goes: an OutputSink (stdout or an atomic file) or anything like one. */
export interface ChunkSink {
  /** Text for every format but xlsx, whose bytes come as Uint8Array. */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Bytes reach a terminal: control characters from the service are made visible. */
  readonly toTerminal: boolean;
}

export interface RecordStreamOptions {
  format: RecordFormat;
  /** --fields: columns to keep, in this order. */
  fields?: string[] | undefined;
  /**
   * Field names valid even before (or without) any record, for the --fields check; csv and
   * xlsx also use them as the header when no record came back.
   */
  knownFields?: string[] | undefined;
  /** csv: start with a UTF-8 byte-order mark. */
  bom?: boolean | undefined;
  /** csv: the delimiter (--delimiter); default ",". */
  delimiter?: "," | ";" | "\t" | undefined;
  /** table: colour the header and borders. */
  color?: boolean | undefined;
  /** table: terminal width. */
  width?: number | undefined;
  /** table: the columns shown when --fields is not given (json/csv keep every field). */
  tableColumns?: readonly string[] | undefined;
  /**
   * table without --fields or tableColumns: when given, the columns are chosen from the
   * records, as many as fit `width` (table-columns.ts), and this hears which
   * were left out (reports say so in one hint line).
   */
  onColumnsHidden?: ((choice: TableColumns) => void) | undefined;
  /** table: the one column that takes the width left over (see renderTable). */
  flexColumn?: string | undefined;
  /**
   * table: a column of values that must stay whole to be used (a link): when the table
   * cannot hold its longest value unwrapped, it is printed under the table instead, one
   * value a line beside the row's first two columns (table-text.ts, valuesBelow).
   */
  wholeColumn?: string | undefined;
  /** json: text after the closing bracket; "" to nest the array in a larger document. Default "\n". */
  jsonTrailer?: string | undefined;
  /** json: pretty-print with a two-space indent (a complete result), not one record a line. */
  jsonIndent?: boolean | undefined;
  /** The result is one object, not a list: json prints it bare, a table as field/value lines. */
  single?: boolean | undefined;
  /** csv/xlsx: parent of the private spool dir; default the OS temp dir. */
  spoolDir?: string | undefined;
  /** xlsx: the sheet's name. */
  sheetName?: string | undefined;
  /** xlsx: write the sheet into this workbook (one sheet per report kind) instead of a workbook of its own. */
  workbook?: XlsxWorkbook | undefined;
  /**
   * json/ndjson: split each record this many levels deep while writing (see jsonChunks), for
   * records that are whole documents (a report window's raw response). 0, the default,
   * writes each record as one string.
   */
  jsonSplitDepth?: number | undefined;
  /** Ctrl-C: long loops (a spool of a million rows) stop at the next chunk. */
  signal?: AbortSignal | undefined;
}

export interface RecordWriter {
  /** Writes a batch; the first batch with records is where --fields is checked. */
  writeBatch(records: readonly JsonRecord[]): Promise<void>;
  /** Completes the document (csv/xlsx: header and spooled rows; table: the table) and frees temp files. */
  end(): Promise<void>;
  /** Frees temp files without completing the document. Safe to call twice, and after end(). */
  abort(): Promise<void>;
  /** Records written so far. */
  readonly count: number;
}
