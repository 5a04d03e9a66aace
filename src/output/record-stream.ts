import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { throwIfAborted } from "../errors.js";
import { flattenRecord, isPlainObject, type Cell, type JsonRecord } from "../domain/records.js";
import { writeChunk } from "./io.js";
import { BOM, cellText, checkFields, csvLine, jsonText, pickFields, renderTable } from "./render.js";
import { escapeControlChars } from "./sanitize.js";

// Streaming writers for lists of records too large to hold twice in memory (a year of reports,
// `library --all`): records arrive in batches (a report window, a page) and leave as soon as
// the format allows.
//
// - json: one valid JSON array, one record a line — compact (a million records pretty-printed
//   would double the file) yet greppable and diffable;
// - ndjson: one record a line;
// - csv: the header is the union of the flattened columns in first-seen order, which is known
//   only after the last record. Flattened rows are therefore spooled to a temp file in a
//   private (0700) temp dir and written after the header at the end; the spool stores each
//   row as an array in column-discovery order, so nothing is remapped and no row is held in
//   memory. With --fields the columns are known up front and rows stream straight through;
// - table: collected (a table is for a terminal, where a few thousand rows is already a lot).
//
// --fields: the known names come from the data. They are checked against the first batch
// that has records (a report's first non-empty window): later records may still bring new
// columns, but a typo is caught before most of the output is written. An all-empty result
// cannot be checked and passes (as checkFields does for complete results).

export type RecordFormat = "json" | "ndjson" | "csv" | "table";

/** Where the text goes: an OutputSink (stdout or an atomic file) or anything like one. */
export interface ChunkSink {
  write(chunk: string): Promise<void>;
  /** Bytes reach a terminal: control characters from the service are made visible. */
  readonly toTerminal: boolean;
}

export interface RecordStreamOptions {
  format: RecordFormat;
  /** --fields: columns to keep, in this order. */
  fields?: string[] | undefined;
  /** Field names valid even before (or without) any record, for the --fields check. */
  knownFields?: string[] | undefined;
  /** csv: start with a UTF-8 byte-order mark. */
  bom?: boolean | undefined;
  /** table: colour the header and borders. */
  color?: boolean | undefined;
  /** table: terminal width. */
  width?: number | undefined;
  /** json: text after the closing bracket; "" to nest the array in a larger document. Default "\n". */
  jsonTrailer?: string | undefined;
  /** csv: parent of the private spool dir; default the OS temp dir. */
  spoolDir?: string | undefined;
  /**
   * json/ndjson: split each record this many levels deep while writing (see jsonChunks), for
   * records that are whole documents (a report window's raw response). 0, the default,
   * writes each record as one string.
   */
  jsonSplitDepth?: number | undefined;
  /** Ctrl-C: long loops (a csv spool of a million rows) stop at the next chunk. */
  signal?: AbortSignal | undefined;
  /**
   * table without --fields: the columns people want first, in order; as many as fit `width`
   * are shown (issue 15 item 2), and `onColumnsHidden` hears which were left out.
   */
  tableColumns?: readonly string[] | undefined;
  onColumnsHidden?: ((shown: string[], all: string[]) => void) | undefined;
}

export interface RecordWriter {
  /** Writes a batch; the first batch with records is where --fields is checked. */
  writeBatch(records: readonly JsonRecord[]): Promise<void>;
  /** Completes the document (csv: header and spooled rows; table: the table) and frees temp files. */
  end(): Promise<void>;
  /** Frees temp files without completing the document. Safe to call twice, and after end(). */
  abort(): Promise<void>;
  /** Records written so far. */
  readonly count: number;
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
      return options.fields ? new DirectCsvWriter(sink, options, options.fields) : new SpooledCsvWriter(sink, options);
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

/** Checks --fields once, against the first batch that has records. */
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
    const { fields } = this.options;
    const depth = fields ? 0 : (this.options.jsonSplitDepth ?? 0);
    for (const record of records) {
      if (!this.ndjson) await this.out.write(this.count === 0 ? "[\n" : ",\n");
      if (depth > 0) {
        for (const chunk of jsonChunks(record, depth)) await this.out.write(chunk);
      } else {
        await this.out.write(jsonText(fields ? pickFields(record, fields) : record));
      }
      if (this.ndjson) await this.out.write("\n");
      this.count++;
    }
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (!this.ndjson) await this.out.write(`${this.count === 0 ? "[]" : "\n]"}${this.options.jsonTrailer ?? "\n"}`);
    await this.out.flush();
  }

  async abort(): Promise<void> {
    this.ended = true;
  }
}

/** --fields fixes the columns: the header goes first and every row streams straight through. */
class DirectCsvWriter implements RecordWriter {
  count = 0;
  private readonly out: BufferedChunkWriter;
  private readonly gate: FieldsGate;
  private headerWritten = false;
  private ended = false;

  constructor(
    sink: ChunkSink,
    private readonly options: RecordStreamOptions,
    private readonly fields: string[],
  ) {
    this.out = new BufferedChunkWriter(sink, options.signal);
    this.gate = new FieldsGate(fields, options.knownFields, false);
  }

  private async header(): Promise<void> {
    if (this.headerWritten) return;
    this.headerWritten = true;
    await this.out.write(`${this.options.bom ? BOM : ""}${csvLine(this.fields)}`);
  }

  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    this.gate.check(records);
    if (records.length > 0) await this.header();
    for (const record of records) {
      const flat = flattenRecord(record);
      await this.out.write(csvLine(this.fields.map((field) => flat[field])));
      this.count++;
    }
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.header();
    await this.out.flush();
  }

  async abort(): Promise<void> {
    this.ended = true;
  }
}

/** Without --fields the header is known only at the end: rows wait in a spool file. */
class SpooledCsvWriter implements RecordWriter {
  count = 0;
  private readonly columnIndex = new Map<string, number>();
  private readonly columns: string[] = [];
  private spool: { dir: string; path: string; stream: WriteStream } | undefined;
  private spoolBuffer = "";
  private finished = false;

  constructor(
    private readonly sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {}

  private async openSpool(): Promise<NonNullable<SpooledCsvWriter["spool"]>> {
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

  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
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
      await this.flushSpool();
      const out = new BufferedChunkWriter(this.sink, this.options.signal);
      if (this.options.bom) await out.write(BOM);
      // No record and no --fields: no columns to name, so the document stays empty.
      if (this.columns.length > 0) await out.write(csvLine(this.columns));
      if (this.spool) {
        const { stream, path } = this.spool;
        await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
        const width = this.columns.length;
        // Lines split by hand rather than with readline, whose async iterator reads ahead
        // without waiting for the consumer: on a spool of a million rows it held far more
        // than a chunk. JSON.stringify escapes line breaks, so "\n" only ends rows.
        let rest = "";
        for await (const chunk of createReadStream(path, {
          encoding: "utf8",
          highWaterMark: FLUSH_AT,
        }) as AsyncIterable<string>) {
          const text = rest + chunk;
          let start = 0;
          for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
            const row = JSON.parse(text.slice(start, end)) as Cell[];
            start = end + 1;
            // Rows spooled before later columns appeared are shorter: pad with empty cells.
            const cells: (Cell | undefined)[] = new Array<Cell | undefined>(width);
            for (let i = 0; i < width; i++) cells[i] = row[i];
            await out.write(csvLine(cells));
          }
          rest = text.slice(start);
        }
      }
      await out.flush();
    } finally {
      await this.removeSpool();
    }
  }

  async abort(): Promise<void> {
    this.finished = true;
    await this.removeSpool();
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
    // renderTable escapes every cell itself (and may add colour codes of our own), so the
    // text goes to the sink as it is.
    let columns = this.options.fields ?? this.columns;
    if (!this.options.fields && this.options.tableColumns && this.rows.length > 0) {
      const preferred = this.options.tableColumns.filter((column) => this.seen.has(column));
      columns = fitColumns(preferred.length > 0 ? preferred : this.columns, this.rows, this.options.width ?? 120);
      if (columns.length < this.columns.length) this.options.onColumnsHidden?.(columns, this.columns);
    }
    const text = await renderTable(columns, this.rows, {
      color: this.options.color,
      width: this.options.width,
    });
    this.rows.length = 0;
    await this.sink.write(text);
  }

  async abort(): Promise<void> {
    this.ended = true;
    this.rows.length = 0;
  }
}
