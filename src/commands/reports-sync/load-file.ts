import { closeSync, openSync, writeSync } from "node:fs";
import { LocalFileError } from "../../errors.js";
import { fieldKey } from "../../domain/warehouse-names.js";
import { flattenValue, parseRecordText, rawText, widenType, type WarehouseType } from "../../domain/warehouse-values.js";

// One pass over a window's records (docs/reports-sync.md, "How a window is loaded"): each
// record's text is parsed once, redacted, flattened, typed, and written as one line of a load
// file the database reads by itself — DuckDB's JSON reader (newline-delimited objects keyed
// by field number) or PostgreSQL's COPY text format. The window's columns and their types
// are known when the pass ends; the store then adds or widens columns and loads the file in
// the window's transaction. Lines written before a field first appeared are shorter: DuckDB
// reads a missing key as NULL, and copyLines() pads PostgreSQL's lines as it streams them.

export type LoadFormat = "ndjson" | "copy";

/** A field of a table as the run knows it: a number for load files, its path and its stored key. */
export interface KnownField {
  id: number;
  key: string;
  path: string[];
}

/** The fields of one table, shared by the windows of a run (ids are this run's, columns the store's). */
export class FieldRegistry {
  private readonly byKey = new Map<string, KnownField>();
  readonly fields: KnownField[] = [];

  constructor(known: Iterable<string[]>) {
    for (const path of known) this.idOf(path);
  }

  has(path: string[]): boolean {
    return this.byKey.has(path.join("\u0001"));
  }

  idOf(path: string[]): KnownField {
    const memo = path.join("\u0001");
    let field = this.byKey.get(memo);
    if (!field) {
      field = { id: this.fields.length, key: fieldKey(path), path };
      this.byKey.set(memo, field);
      this.fields.push(field);
    }
    return field;
  }
}

export interface LoadLimits {
  /** A record with more fields is kept in raw only. */
  maxFieldsPerRecord: number;
  /** Columns a table may reach (PostgreSQL's limit is 1,600): records that would pass it are kept in raw only. */
  maxFields: number;
}

export interface WindowLoadResult {
  file: string;
  rows: number;
  /** The fields this window fills, in load-file order, with the type their values need. */
  fields: { field: KnownField; type: WarehouseType | undefined }[];
  /** Per PostgreSQL line: how many record fields it has (the rest are padded). */
  lineFields: number[];
  /** Records kept in raw only: how many, and some of their field names. */
  rawOnly: { records: number; fields: Set<string> };
}

export interface RecordRedaction {
  /** Whether the text may hold a secret; false lets the record through untouched (the common case). */
  mayHold(text: string): boolean;
  redact<T>(value: T): T;
}

const FLUSH_CHARS = 1 << 20;

export class WindowLoadWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private buffered = 0;
  private rows = 0;
  /** field id → position in this window's load file */
  private readonly position = new Map<number, number>();
  private readonly used: { field: KnownField; type: WarehouseType | undefined }[] = [];
  private readonly lineFields: number[] = [];
  private readonly rawOnly = { records: 0, fields: new Set<string>() };
  private readonly prefix: string;

  constructor(
    private readonly file: string,
    private readonly format: LoadFormat,
    private readonly registry: FieldRegistry,
    private readonly limits: LoadLimits,
    private readonly redaction: RecordRedaction,
    window: { start: string; end: string; fetchedAt: string },
  ) {
    try {
      this.fd = openSync(file, "w", 0o600);
    } catch (error) {
      throw LocalFileError.fromSystem(error, file, "write the load file");
    }
    this.prefix = `${window.start}\t${window.end}\t${window.fetchedAt}\t`;
  }

  add(text: string): void {
    let value = parseRecordText(text);
    let rewritten = false;
    if (this.redaction.mayHold(text)) {
      const redacted = this.redaction.redact(value);
      rewritten = redacted !== value;
      value = redacted;
    }
    const raw = rawText(text, value, rewritten);
    const cells = flattenValue(value);
    const row = ++this.rows;
    let keep = cells.length <= this.limits.maxFieldsPerRecord;
    if (keep) {
      let added = 0;
      for (const cell of cells) if (!this.registry.has(cell.path)) added++;
      keep = added === 0 || this.registry.fields.length + added <= this.limits.maxFields;
    }
    if (!keep) {
      this.rawOnly.records++;
      for (const cell of cells.slice(0, 5)) this.rawOnly.fields.add(cell.path.join("."));
      if (cells.length > 5) this.rawOnly.fields.add(`… ${cells.length.toLocaleString("en")} fields in all`);
    }
    if (this.format === "ndjson") {
      let line = `{"r":${row},"j":${JSON.stringify(raw)}`;
      if (keep)
        for (const cell of cells) {
          const at = this.place(cell.path, cell.type);
          if (cell.text !== null) line += `,"c${at}":${JSON.stringify(cell.text)}`;
        }
      this.write(`${line}}\n`);
      return;
    }
    const values: string[] = [];
    if (keep)
      for (const cell of cells) {
        const at = this.place(cell.path, cell.type);
        while (values.length <= at) values.push("\\N");
        values[at] = cell.text === null ? "\\N" : copyEscape(cell.text);
      }
    this.lineFields.push(values.length);
    this.write(`${this.prefix}${row}\t${copyEscape(raw)}${values.length > 0 ? `\t${values.join("\t")}` : ""}\n`);
  }

  /** The field's position in this window's file, its type widened by one more value. */
  private place(path: string[], type: WarehouseType | undefined): number {
    const field = this.registry.idOf(path);
    let at = this.position.get(field.id);
    if (at === undefined) {
      at = this.used.length;
      this.position.set(field.id, at);
      this.used.push({ field, type });
    } else if (type !== undefined) {
      const entry = this.used[at]!;
      if (entry.type !== type) entry.type = widenType(entry.type, type);
    }
    return at;
  }

  private write(text: string): void {
    this.buffer.push(text);
    this.buffered += text.length;
    if (this.buffered >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    try {
      writeSync(this.fd, this.buffer.join(""));
    } catch (error) {
      closeSync(this.fd);
      throw LocalFileError.fromSystem(error, this.file, "write the load file");
    }
    this.buffer = [];
    this.buffered = 0;
  }

  finish(): WindowLoadResult {
    this.flush();
    closeSync(this.fd);
    return { file: this.file, rows: this.rows, fields: this.used, lineFields: this.lineFields, rawOnly: this.rawOnly };
  }

  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}

/** PostgreSQL COPY text format: backslash, newline, carriage return and tab escaped. */
function copyEscape(text: string): string {
  if (!/[\\\n\r\t]/.test(text)) return text;
  return text.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
}
