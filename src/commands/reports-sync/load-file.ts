import { closeSync, openSync, writeSync } from "node:fs";
import { LocalFileError } from "../../errors.js";
import { fieldKey } from "../../domain/warehouse-names.js";
import { parseExactJson } from "../../domain/exact-json.js";
import { pathOfKey, rawText, visitFields, widenType, type WarehouseType } from "../../domain/warehouse-values.js";

// One pass over a window's records (docs/reports-sync.md, "How a window is loaded"): each
// record's text is parsed once, redacted, flattened, typed, and written as one line of a load
// file the database reads by itself — DuckDB's JSON reader (newline-delimited objects keyed
// by field number, with `raw` in a second file of one record per line, which DuckDB takes as
// it is: read_ndjson_objects) or PostgreSQL's COPY text format. The window's columns and
// their types are known when the pass ends; the store then adds or widens columns and loads
// the file in the window's transaction. Lines written before a field first appeared are
// shorter: DuckDB reads a missing key as NULL, and copyLines() pads PostgreSQL's lines as it
// streams them.

export type LoadFormat = "ndjson" | "copy";

/** A field of a table as the run knows it: a number for load files, its path and its stored key. */
export interface KnownField {
  id: number;
  key: string;
  path: string[];
}

/** The fields of one table, shared by the windows of a run (ids are this run's, columns the store's). */
export class FieldRegistry {
  /** key (path segments joined by U+0001, as visitFields names them) → field */
  private readonly byKey = new Map<string, KnownField>();
  readonly fields: KnownField[] = [];

  constructor(known: Iterable<string[]>) {
    for (const path of known) this.field(path.join("\u0001"));
  }

  get(key: string): KnownField | undefined {
    return this.byKey.get(key);
  }

  field(key: string): KnownField {
    let field = this.byKey.get(key);
    if (!field) {
      const path = pathOfKey(key);
      field = { id: this.fields.length, key: fieldKey(path), path };
      this.byKey.set(key, field);
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
  /** DuckDB: each record's `raw`, one line per record in the load file's order (file + ".raw"). */
  rawFile?: string;
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

const FLUSH_BYTES = 1 << 20;

/** A file written through one buffer: lines are encoded straight into it, written out when the next might not fit. */
class LineFile {
  private readonly fd: number;
  private readonly out = Buffer.allocUnsafe(FLUSH_BYTES);
  /** Bytes of `out` in use. */
  private filled = 0;
  private closed = false;

  constructor(readonly path: string) {
    try {
      this.fd = openSync(path, "w", 0o600);
    } catch (error) {
      throw LocalFileError.fromSystem(error, path, "write the load file");
    }
  }

  write(text: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (this.filled + text.length * 3 > this.out.length) {
      this.flush();
      if (text.length * 3 > this.out.length) {
        this.writeOut(Buffer.from(text, "utf8"));
        return;
      }
    }
    this.filled += this.out.write(text, this.filled, "utf8");
  }

  private flush(): void {
    if (this.filled === 0) return;
    this.writeOut(this.out.subarray(0, this.filled));
    this.filled = 0;
  }

  private writeOut(bytes: Buffer): void {
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
    } catch (error) {
      this.close();
      throw LocalFileError.fromSystem(error, this.path, "write the load file");
    }
  }

  finish(): void {
    this.flush();
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

export class WindowLoadWriter {
  private readonly out: LineFile;
  /** DuckDB only: `raw`, one line per record. */
  private readonly raws: LineFile | undefined;
  private rows = 0;
  /** field id → position in this window's load file */
  private readonly position: (number | undefined)[] = [];
  private readonly used: { field: KnownField; type: WarehouseType | undefined }[] = [];
  private readonly lineFields: number[] = [];
  private readonly rawOnly = { records: 0, fields: new Set<string>() };
  private readonly prefix: string;

  constructor(
    file: string,
    format: LoadFormat,
    private readonly registry: FieldRegistry,
    private readonly limits: LoadLimits,
    private readonly redaction: RecordRedaction,
    window: { start: string; end: string; fetchedAt: string },
  ) {
    this.out = new LineFile(file);
    try {
      this.raws = format === "ndjson" ? new LineFile(`${file}.raw`) : undefined;
    } catch (error) {
      this.out.close();
      throw error;
    }
    this.prefix = `${window.start}\t${window.end}\t${window.fetchedAt}\t`;
  }

  // One record's fields, reused from record to record (no arrays per record).
  private readonly keys: string[] = [];
  private readonly texts: (string | null)[] = [];
  private readonly types: (WarehouseType | undefined)[] = [];
  /** The registry's field for each, when it has one (looked up once per record). */
  private readonly found: (KnownField | undefined)[] = [];
  private count = 0;
  private readonly collect = (key: string, text: string | null, type: WarehouseType | undefined): void => {
    const at = this.count++;
    this.keys[at] = key;
    this.texts[at] = text;
    this.types[at] = type;
  };

  add(text: string): void {
    let value = parseExactJson(text);
    let rewritten = false;
    if (this.redaction.mayHold(text)) {
      const redacted = this.redaction.redact(value);
      rewritten = redacted !== value;
      value = redacted;
    }
    const raw = rawText(text, value, rewritten);
    this.count = 0;
    visitFields(value, this.collect);
    const cells = this.count;
    const row = ++this.rows;
    let keep = cells <= this.limits.maxFieldsPerRecord;
    if (keep) {
      let added = 0;
      for (let i = 0; i < cells; i++) {
        const field = this.registry.get(this.keys[i]!);
        this.found[i] = field;
        if (field === undefined) added++;
      }
      keep = added === 0 || this.registry.fields.length + added <= this.limits.maxFields;
    }
    if (!keep) {
      this.rawOnly.records++;
      for (let i = 0; i < Math.min(cells, 5); i++) this.rawOnly.fields.add(pathOfKey(this.keys[i]!).join("."));
      if (cells > 5) this.rawOnly.fields.add(`… ${cells.toLocaleString("en")} fields in all`);
    }
    if (this.raws) {
      // `raw` goes into its own file, one record per line, as the JSON text it is: DuckDB's
      // read_ndjson_objects takes each line as it stands — no escaping here, no parsing and
      // writing anew there (it was half of DuckDB's time). A JSON text has line breaks only as
      // whitespace between tokens: they become spaces.
      this.raws.write(`${/[\n\r]/.test(raw) ? raw.replace(/[\n\r]/g, " ") : raw}\n`);
      let line = `{"r":${row}`;
      if (keep)
        for (let i = 0; i < cells; i++) {
          const at = this.place(i);
          const cell = this.texts[i];
          if (cell !== null && cell !== undefined) line += `,"c${at}":${JSON.stringify(cell)}`;
        }
      this.out.write(`${line}}\n`);
      return;
    }
    const values: string[] = [];
    if (keep)
      for (let i = 0; i < cells; i++) {
        const at = this.place(i);
        while (values.length <= at) values.push("\\N");
        const cell = this.texts[i];
        values[at] = cell === null || cell === undefined ? "\\N" : copyEscape(cell);
      }
    this.lineFields.push(values.length);
    this.out.write(`${this.prefix}${row}\t${copyEscape(raw)}${values.length > 0 ? `\t${values.join("\t")}` : ""}\n`);
  }

  /** The position in this window's file of the record's i-th field, its type widened by its value. */
  private place(i: number): number {
    const type = this.types[i];
    const field = this.found[i] ?? this.registry.field(this.keys[i]!);
    let at = this.position[field.id];
    if (at === undefined) {
      at = this.used.length;
      this.position[field.id] = at;
      this.used.push({ field, type });
    } else if (type !== undefined) {
      const entry = this.used[at]!;
      if (entry.type !== type) entry.type = widenType(entry.type, type);
    }
    return at;
  }

  finish(): WindowLoadResult {
    this.out.finish();
    this.raws?.finish();
    return {
      file: this.out.path,
      ...(this.raws ? { rawFile: this.raws.path } : {}),
      rows: this.rows,
      fields: this.used,
      lineFields: this.lineFields,
      rawOnly: this.rawOnly,
    };
  }

  abandon(): void {
    this.out.close();
    this.raws?.close();
  }
}

/** PostgreSQL COPY text format: backslash, newline, carriage return and tab escaped. */
function copyEscape(text: string): string {
  if (!/[\\\n\r\t]/.test(text)) return text;
  return text.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
}
