import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { throwIfAborted, UsageError } from "../errors.js";
import { flattenRecord, isPlainObject, type Cell, type JsonRecord } from "../domain/records.js";
import type { CsvRowWriter } from "./csv.js";
import { writeChunk } from "./io.js";
import { keyValueText, wrapCell } from "./table-text.js";
import { escapeControlChars, escapeForLine } from "./sanitize.js";
import type { XlsxSheet, XlsxWorkbook } from "./xlsx.js";

// The output engine: every format is written here, once (issue 11, "one output engine").
// Records arrive in batches (a report window, a page) and leave as soon as the format
// allows; a command's complete result is a stream of one batch (render.ts, writeResult).
//
// - json: one valid JSON array. Streams (reports) write one record a line — compact (a
//   million records pretty-printed would double the file) yet greppable and diffable; a
//   complete result is pretty-printed (jsonIndent), and a single object is printed bare;
// - ndjson: one record a line;
// - csv and xlsx: the header is the union of the flattened columns in first-seen order,
//   which is known only after the last record. Flattened rows therefore wait in memory up
//   to 64 KiB, then in a spool file in a private (0700) temp dir, and are written after the
//   header at the end; the spool stores each row as an array in column-discovery order, so
//   nothing is remapped and no row is held in memory. With --fields the columns are known
//   up front and rows stream straight through. CSV goes through csv-stringify (csv.ts),
//   xlsx through exceljs' streaming writer (xlsx.ts, imported only for xlsx);
// - table: collected (a table is for a terminal, where a few thousand rows is already a lot).
//
// --fields: one check for every format (FieldsGate). The known names come from the data:
// they are checked against the first batch that has records (a report's first non-empty
// window): later records may still bring new columns, but a typo is caught before most of
// the output is written. A result with no record is checked against the fields the
// command declares (knownFields); with none declared it cannot be checked and passes.

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
   * table without --fields: when given, only as many of the columns as fit `width` are shown
   * (issue 15 item 2), and this hears which were left out (reports say so in one hint line).
   */
  onColumnsHidden?: ((shown: string[], all: string[]) => void) | undefined;
  /** table: the one column that takes the width left over (see renderTable). */
  flexColumn?: string | undefined;
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

/** Checks --fields against the columns the data (or the command) knows: exit 2 listing them. */
export function checkFields(fields: string[] | undefined, known: Iterable<string>): void {
  if (!fields) return;
  const knownSet = new Set(known);
  if (knownSet.size === 0) return; // nothing to check against (e.g. an empty report)
  const unknown = fields.filter((field) => !knownSet.has(field));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown field${unknown.length > 1 ? "s" : ""} for --fields: ${unknown.join(", ")}; known fields: ${[...knownSet].join(", ")}`,
    );
  }
}

/** For JSON with --fields: keep the named (possibly dotted) fields, in order. */
export function pickFields(record: JsonRecord, fields: string[]): JsonRecord {
  const flat = flattenRecord(record);
  const out: JsonRecord = {};
  for (const field of fields) out[field] = field in record ? record[field] : (flat[field] ?? null);
  return out;
}

function cellText(value: Cell | undefined): string {
  if (value === null || value === undefined) return "";
  return String(value);
}

/**
 * JSON.stringify escapes C0 controls but leaves DEL and C1 controls (e.g. 0x9b, a CSI) raw;
 * escaping them too keeps the document valid and harmless on a terminal.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The widest a non-flex column grows when one column takes the rest of the width. */
const MAX_FIXED_CELL = 40;
/** The narrowest a flex column is shortened to, even on a very narrow terminal. */
const MIN_FLEX_CELL = 10;

/** cli-table3's own border characters, named as its `chars` option names them. */
const BOX = {
  top: "─",
  "top-mid": "┬",
  "top-left": "┌",
  "top-right": "┐",
  bottom: "─",
  "bottom-mid": "┴",
  "bottom-left": "└",
  "bottom-right": "┘",
  left: "│",
  "left-mid": "├",
  mid: "─",
  "mid-mid": "┼",
  right: "│",
  "right-mid": "┤",
  middle: "│",
};

async function renderTable(
  columns: string[],
  rows: Record<string, Cell>[],
  options: { color?: boolean | undefined; width?: number | undefined; flexColumn?: string | undefined },
): Promise<string> {
  if (rows.length === 0) return "(no results)\n";
  const { default: Table } = await import("cli-table3");
  // Every column costs 3 characters of border and padding, plus 1 for the last border.
  const width = options.width ?? 120;
  const cells = rows.map((row) => columns.map((c) => escapeForLine(cellText(row[c]))));
  // reduce, not Math.max(...cells): a spread of a long report's rows would overflow the stack.
  const natural = columns.map((column, i) =>
    cells.reduce((widest, line) => Math.max(widest, line[i]?.length ?? 0), column.length),
  );
  // A table that fits is printed whole; only one that does not is shortened, by an equal share
  // per column (or, with a flex column, by shortening that one).
  const fits = natural.reduce((sum, w) => sum + w + 3, 1) <= width;
  const maxCells = fits ? natural : columns.map(() => Math.max(12, Math.floor((width - 1) / Math.max(1, columns.length)) - 3));
  const flexIndex = options.flexColumn === undefined ? -1 : columns.indexOf(options.flexColumn);
  if (flexIndex >= 0 && !fits) {
    let used = 1;
    columns.forEach((_column, i) => {
      if (i === flexIndex) return;
      maxCells[i] = Math.min(natural[i] ?? 0, MAX_FIXED_CELL);
      used += (maxCells[i] ?? 0) + 3;
    });
    maxCells[flexIndex] = Math.max(MIN_FLEX_CELL, width - used - 3);
  }
  // Colour codes are written here, not through cli-table3's `style` (the colors package): that
  // one decides by itself from process.argv, TERM, CI and FORCE_COLOR, so a table could lose or
  // keep its colour whatever --no-color, NO_COLOR and the terminal test said (context.ts).
  const paint = (code: number) => (text: string) => (options.color ? `\u001b[${code}m${text}\u001b[39m` : text);
  const cyan = paint(36);
  const grey = paint(90);
  const table = new Table({
    head: columns.map((c) => cyan(escapeForLine(c))),
    chars: Object.fromEntries(Object.entries(BOX).map(([name, char]) => [name, grey(char)])),
    style: { head: [], border: [] },
    wordWrap: false,
  });
  // A cell wider than its share is wrapped onto more lines, never cut: a validation message,
  // an id or a link stays whole (issue 15 items 1, 2).
  for (const line of cells) table.push(line.map((text, i) => wrapCell(text, maxCells[i] ?? MAX_FIXED_CELL)));
  // Neighbouring border characters share one grey run instead of a pair of codes each.
  return `${table.toString().replaceAll("\u001b[39m\u001b[90m", "")}\n`;
}

const FLUSH_AT = 64 * 1024;

/** Collects small pieces into ~64 KiB writes; escapes control characters for a terminal. */
export class BufferedChunkWriter {
  private buffer = "";

  constructor(
    private readonly sink: ChunkSink,
    private readonly signal?: AbortSignal,
  ) {}

  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    throwIfAborted(this.signal);
    if (this.buffer === "") return;
    const text = this.sink.toTerminal ? escapeControlChars(this.buffer) : this.buffer;
    this.buffer = "";
    await this.sink.write(text);
  }
}

/**
 * JSON text of `value` in pieces, identical when joined to `jsonText(value)`: arrays and
 * objects down to `depth` levels are split into their members, so a window's response of
 * tens of megabytes is written without ever being one string.
 */
export function* jsonChunks(value: unknown, depth = 3): Generator<string> {
  if (depth > 0 && Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      // JSON.stringify writes null for array holes and undefined items.
      yield* value[i] === undefined ? ["null"] : jsonChunks(value[i], depth - 1);
    }
    yield "]";
    return;
  }
  if (depth > 0 && isPlainObject(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function") {
    yield "{";
    let first = true;
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      yield `${first ? "" : ","}${jsonText(key)}:`;
      first = false;
      yield* jsonChunks(member, depth - 1);
    }
    yield "}";
    return;
  }
  yield jsonText(value) ?? "null";
}

export function createRecordWriter(sink: ChunkSink, options: RecordStreamOptions): RecordWriter {
  switch (options.format) {
    case "json":
    case "ndjson":
      return new JsonRecordWriter(sink, options);
    case "csv":
      return new TabularRecordWriter(new CsvRows(sink, options), options);
    case "xlsx":
      return new TabularRecordWriter(new XlsxRows(sink, options), options);
    case "table":
      return new TableRecordWriter(sink, options);
  }
}

/**
 * The leading columns of `preferred` whose natural width (header or widest cell, plus 3 for
 * border and padding) fits `width`; at least two, so a row still says what it is about.
 */
export function fitColumns(preferred: readonly string[], rows: readonly Record<string, Cell>[], width: number): string[] {
  const chosen: string[] = [];
  let used = 1;
  for (const column of preferred) {
    const natural = rows.reduce((widest, row) => Math.max(widest, cellText(row[column]).length), column.length);
    if (chosen.length >= 2 && used + natural + 3 > width) continue;
    chosen.push(column);
    used += natural + 3;
  }
  return chosen;
}

/** The one --fields check: once, against the first batch that has records (or at the end). */
class FieldsGate {
  private checked = false;

  constructor(
    private readonly fields: string[] | undefined,
    private readonly knownFields: string[] | undefined,
    /** json can also pick a whole nested object by its top-level key. */
    private readonly topLevelKeys: boolean,
  ) {}

  check(records: readonly JsonRecord[]): void {
    if (this.checked || !this.fields || records.length === 0) return;
    this.checked = true;
    const known = new Set(this.knownFields ?? []);
    for (const record of records) {
      if (this.topLevelKeys) for (const key of Object.keys(record)) known.add(key);
      for (const key of Object.keys(flattenRecord(record))) known.add(key);
    }
    checkFields(this.fields, known);
  }

  /** No record came: only the command's declared fields can be checked. */
  finish(): void {
    if (this.checked || !this.fields) return;
    this.checked = true;
    checkFields(this.fields, this.knownFields ?? []);
  }
}

class JsonRecordWriter implements RecordWriter {
  count = 0;
  private readonly out: BufferedChunkWriter;
  private readonly gate: FieldsGate;
  private readonly ndjson: boolean;
  private ended = false;

  constructor(
    sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {
    this.out = new BufferedChunkWriter(sink, options.signal);
    this.gate = new FieldsGate(options.fields, options.knownFields, true);
    this.ndjson = options.format === "ndjson";
  }

  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    this.gate.check(records);
    const { fields, jsonIndent, single } = this.options;
    const depth = fields ? 0 : (this.options.jsonSplitDepth ?? 0);
    const pretty = jsonIndent === true && !this.ndjson;
    const bare = single === true && !this.ndjson;
    for (const record of records) {
      if (!this.ndjson && !bare) await this.out.write(this.count === 0 ? "[\n" : ",\n");
      const value = fields ? pickFields(record, fields) : record;
      if (pretty) {
        // As JSON.stringify(list, null, 2) would indent it: the record one level in.
        const text = jsonText(value, 2);
        await this.out.write(bare ? text : `  ${text.replace(/\n/g, "\n  ")}`);
      } else if (depth > 0) {
        for (const chunk of jsonChunks(record, depth)) await this.out.write(chunk);
      } else {
        await this.out.write(jsonText(value));
      }
      if (this.ndjson) await this.out.write("\n");
      this.count++;
    }
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.gate.finish();
    const trailer = this.options.jsonTrailer ?? "\n";
    if (this.options.single === true && !this.ndjson) {
      await this.out.write(this.count === 0 ? `null${trailer}` : trailer);
    } else if (!this.ndjson) {
      await this.out.write(`${this.count === 0 ? "[]" : "\n]"}${trailer}`);
    }
    await this.out.flush();
  }

  async abort(): Promise<void> {
    this.ended = true;
  }
}

/** Where csv and xlsx rows go once the columns are known. */
interface RowOutput {
  begin(columns: string[]): Promise<void>;
  row(cells: readonly (Cell | undefined)[]): Promise<void>;
  end(): Promise<void>;
  abort(): void;
}

class CsvRows implements RowOutput {
  private readonly out: BufferedChunkWriter;
  private csv: CsvRowWriter | undefined;

  constructor(
    sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {
    this.out = new BufferedChunkWriter(sink, options.signal);
  }

  async begin(columns: string[]): Promise<void> {
    // Imported here: `token` and `--help` load no CSV code (start-up, README "Development").
    const { CsvRowWriter } = await import("./csv.js");
    this.csv = new CsvRowWriter((text) => this.out.write(text), { bom: this.options.bom, delimiter: this.options.delimiter });
    // No record and no --fields: no columns to name, so the document stays empty.
    if (columns.length > 0) await this.csv.row(columns);
  }

  row(cells: readonly (Cell | undefined)[]): Promise<void> {
    return this.csv!.row(cells);
  }

  async end(): Promise<void> {
    await this.csv!.end();
    await this.out.flush();
  }

  abort(): void {
    this.csv?.abort();
  }
}

class XlsxRows implements RowOutput {
  private sheet: XlsxSheet | undefined;
  private own: XlsxWorkbook | undefined;

  constructor(
    private readonly sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {}

  async begin(columns: string[]): Promise<void> {
    let workbook = this.options.workbook;
    if (!workbook) {
      const { openXlsxWorkbook } = await import("./xlsx.js");
      workbook = this.own = await openXlsxWorkbook(this.sink);
    }
    this.sheet = workbook.addSheet(this.options.sheetName ?? "Sheet1");
    await this.sheet.header(columns);
  }

  row(cells: readonly (Cell | undefined)[]): Promise<void> {
    return this.sheet!.row(cells);
  }

  async end(): Promise<void> {
    throwIfAborted(this.options.signal);
    await this.sheet!.end();
    await this.own?.commit();
  }

  abort(): void {
    this.own?.abort();
  }
}

/**
 * csv and xlsx: with --fields the header goes first and every row streams straight
 * through; without, the header is known only at the end and rows wait (in memory up to
 * 64 KiB, then in a spool file).
 */
class TabularRecordWriter implements RecordWriter {
  count = 0;
  private readonly gate: FieldsGate;
  private readonly columnIndex = new Map<string, number>();
  private readonly columns: string[] = [];
  private spool: { dir: string; path: string; stream: WriteStream } | undefined;
  private spoolBuffer = "";
  private begun = false;
  private finished = false;

  constructor(
    private readonly output: RowOutput,
    private readonly options: RecordStreamOptions,
  ) {
    this.gate = new FieldsGate(options.fields, options.knownFields, false);
  }

  private async begin(columns: string[]): Promise<void> {
    if (this.begun) return;
    this.begun = true;
    await this.output.begin(columns);
  }

  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    this.gate.check(records);
    const { fields } = this.options;
    if (fields) {
      if (records.length > 0) await this.begin(fields);
      for (const record of records) {
        const flat = flattenRecord(record);
        await this.output.row(fields.map((field) => flat[field]));
        this.count++;
      }
      return;
    }
    for (const record of records) {
      const flat = flattenRecord(record);
      const row: Cell[] = [];
      for (const [key, value] of Object.entries(flat)) {
        let index = this.columnIndex.get(key);
        if (index === undefined) {
          index = this.columns.length;
          this.columnIndex.set(key, index);
          this.columns.push(key);
        }
        row[index] = value;
      }
      // Holes (columns this record lacks) become null in JSON: an empty cell either way.
      this.spoolBuffer += `${JSON.stringify(row)}\n`;
      if (this.spoolBuffer.length >= FLUSH_AT) {
        throwIfAborted(this.options.signal);
        await this.flushSpool();
      }
      this.count++;
    }
  }

  async end(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      this.gate.finish();
      if (this.options.fields) {
        await this.begin(this.options.fields);
      } else {
        await this.begin(this.columns.length > 0 || this.count > 0 ? this.columns : (this.options.knownFields ?? []));
        await this.writeSpooledRows();
      }
      await this.output.end();
    } catch (error) {
      this.output.abort();
      throw error;
    } finally {
      await this.removeSpool();
    }
  }

  async abort(): Promise<void> {
    this.finished = true;
    this.output.abort();
    await this.removeSpool();
  }

  private async openSpool(): Promise<NonNullable<TabularRecordWriter["spool"]>> {
    if (this.spool) return this.spool;
    // mkdtemp creates the directory 0700: other local users cannot read the report rows.
    const dir = await mkdtemp(join(this.options.spoolDir ?? tmpdir(), "simadmin-spool-"));
    const path = join(dir, "rows.ndjson");
    const stream = createWriteStream(path, { mode: 0o600, flags: "wx" });
    this.spool = { dir, path, stream };
    return this.spool;
  }

  private async flushSpool(): Promise<void> {
    if (this.spoolBuffer === "") return;
    const spool = await this.openSpool();
    const text = this.spoolBuffer;
    this.spoolBuffer = "";
    await writeChunk(spool.stream, text);
  }

  /** Spooled rows in order, each padded to the final width (rows spooled before later columns appeared are shorter). */
  private async writeSpooledRows(): Promise<void> {
    const width = this.columns.length;
    const writeLines = async (text: string): Promise<number> => {
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        const row = JSON.parse(text.slice(start, end)) as Cell[];
        start = end + 1;
        const cells: (Cell | undefined)[] = new Array<Cell | undefined>(width);
        for (let i = 0; i < width; i++) cells[i] = row[i];
        await this.output.row(cells);
      }
      return start;
    };
    if (!this.spool) {
      // A small result never touched the disk.
      const text = this.spoolBuffer;
      this.spoolBuffer = "";
      await writeLines(text);
      return;
    }
    await this.flushSpool();
    const { stream, path } = this.spool;
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    // Lines split by hand rather than with readline, whose async iterator reads ahead
    // without waiting for the consumer: on a spool of a million rows it held far more
    // than a chunk. JSON.stringify escapes line breaks, so "\n" only ends rows.
    let rest = "";
    for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: FLUSH_AT }) as AsyncIterable<string>) {
      throwIfAborted(this.options.signal);
      const text = rest + chunk;
      rest = text.slice(await writeLines(text));
    }
  }

  private async removeSpool(): Promise<void> {
    const spool = this.spool;
    this.spool = undefined;
    this.spoolBuffer = "";
    if (!spool) return;
    spool.stream.destroy();
    await rm(spool.dir, { recursive: true, force: true });
  }
}

class TableRecordWriter implements RecordWriter {
  count = 0;
  private readonly rows: Record<string, Cell>[] = [];
  private readonly columns: string[] = [];
  private readonly seen = new Set<string>();
  private readonly gate: FieldsGate;
  private ended = false;

  constructor(
    private readonly sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {
    this.gate = new FieldsGate(options.fields, options.knownFields, false);
  }

  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    this.gate.check(records);
    for (const record of records) {
      // Tables show a list of values as `a, b` (CSV: `a;b`).
      const flat = flattenRecord(record, "", {}, ", ");
      for (const key of Object.keys(flat)) {
        if (!this.seen.has(key)) {
          this.seen.add(key);
          this.columns.push(key);
        }
      }
      this.rows.push(flat);
      this.count++;
    }
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.gate.finish();
    const { fields, tableColumns, single } = this.options;
    let text: string;
    if (single === true && !fields) {
      // One object prints as `key: value` lines at full length (as gh prints one item): what
      // `link` and `token` exist to give must survive a copy from the terminal (issue 15 item 1).
      const row = this.rows[0] ?? {};
      text = keyValueText(
        this.columns.map((c) => [c, cellText(row[c])] as const),
        this.options.color,
      );
    } else {
      let chosen = fields ?? tableColumns?.filter((c) => this.seen.has(c) || this.count === 0) ?? this.columns;
      if (chosen.length === 0) chosen = this.columns;
      if (!fields && this.options.onColumnsHidden && this.rows.length > 0) {
        chosen = fitColumns(chosen, this.rows, this.options.width ?? 120);
        if (chosen.length < this.columns.length) this.options.onColumnsHidden(chosen, this.columns);
      }
      text = await renderTable(chosen, this.rows, this.options);
    }
    this.rows.length = 0;
    // renderTable escapes every cell itself (and may add colour codes of our own), so the
    // text goes to the sink as it is.
    await this.sink.write(text);
  }

  async abort(): Promise<void> {
    this.ended = true;
    this.rows.length = 0;
  }
}
