import { renameSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { LocalFileError } from "../../errors.js";
import { fieldKey } from "../../domain/warehouse-names.js";
import { parseExactJson } from "../../domain/exact-json.js";
import { LayoutBook, RecordLayout, sameTypes } from "../../domain/record-layout.js";
import { pathOfKey, rawText, visitFields, widenType, type WarehouseType } from "../../domain/warehouse-values.js";
import { holdsAsSent, isRecordObject, keysInText, keysInValue, kindOf } from "./as-sent.js";
import type { RecordBlock } from "../../engines/reports/cache.js";
import { LineFile, piecePath, piecePaths, readLines } from "./line-file.js";

// One pass over a window's records (docs/reports-sync.md, "How a window is loaded"): each
// record's text is parsed once, redacted, flattened, typed, and written as one line of a load
// file the database reads by itself — DuckDB's JSON reader (newline-delimited objects keyed
// by field number, with `raw` in a second file of one record per line, which DuckDB takes as
// it is: read_ndjson_objects) or PostgreSQL's COPY text format. The window's columns and
// their types are known when the pass ends; the store then adds or widens columns and loads
// the file in the window's transaction. Lines written before a field first appeared are
// shorter: DuckDB reads a missing key as NULL, and copyLines() pads PostgreSQL's lines as it
// streams them.
//
// DuckDB, the common case: a window whose every value is a plain JSON scalar of its column's
// kind (strings in text, date and timestamp columns, numbers in numeric ones, booleans),
// whose records are objects with unique keys, stored as sent, is loaded straight from the
// `raw` file — DuckDB reads each field into its column itself, and no columns file is
// written (docs/reports-sync.md, "How a window is loaded"). The first value that does not
// fit (a list, a NUL, a number kept as text, a field whose column is text getting a number,
// names differing only by case, …) turns the window to the columns file, written for the
// records before it from the `raw` file: the stored values are the same either way.
// While a window loads straight from `raw`, records laid out like one parsed before (the
// same keys in the same order, plain values: domain/record-layout.ts) are not parsed at all:
// their values' types are read from the text, the rest is known from that record.

export type LoadFormat = "ndjson" | "copy";

/**
 * DuckDB's files are written in pieces of about this many bytes (line-file.ts): its JSON
 * reader reads each piece into a buffer of its own, so a window's files take that much
 * memory while they load rather than their whole size (docs/reports-sync.md, Figures: memory).
 */
const PIECE_BYTES = 4 << 20;

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

  /**
   * `columnType`: the type of the column a field (by its stored key) has in the table, if
   * any — what a value loaded straight from `raw` must fit.
   */
  constructor(
    known: Iterable<string[]>,
    readonly columnType: (key: string) => WarehouseType | "system" | undefined = () => undefined,
  ) {
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
  /** DuckDB: the size of the pieces its files are written in (PIECE_BYTES unless given). */
  pieceBytes?: number;
}

export interface WindowLoadResult {
  file: string;
  /** DuckDB: how many pieces the load file is written in (`file`, `file.1`, …: line-file.ts); none: one. */
  pieces?: number;
  /** DuckDB: each record's `raw`, one line per record in the load file's order (file + ".raw"); none when the load file holds them (`direct`). */
  rawFile?: string;
  /** DuckDB: how many pieces the raw file is written in. */
  rawPieces?: number;
  rows: number;
  /** The fields this window fills, in load-file order, with the type their values need. */
  fields: { field: KnownField; type: WarehouseType | undefined }[];
  /** Per PostgreSQL line: how many record fields it has (the rest are padded). */
  lineFields: number[];
  /** Records kept in raw only: how many, and some of their field names. */
  rawOnly: { records: number; fields: Set<string> };
  /**
   * DuckDB: the rows are read straight from the raw file (the columns file is empty), each
   * field's values being of the kinds `kinds` says (by field, in `fields` order).
   */
  direct: boolean;
  kinds: number[];
}

export interface RecordRedaction {
  /** Whether the text may hold a secret; false lets the record through untouched (the common case). */
  mayHold(text: string): boolean;
  /** The same for a record's UTF-8 bytes given one per character (addBytes); without it they are decoded first. */
  mayHoldBytes?(bytes: string): boolean;
  redact<T>(value: T): T;
}

export class WindowLoadWriter {
  private out: LineFile;
  /** DuckDB only: `raw`, one line per record — in the load file itself while the window loads straight from it. */
  private raws: LineFile | undefined;
  private readonly ndjson: boolean;
  private rows = 0;
  /** field id → position in this window's load file */
  private readonly position: (number | undefined)[] = [];
  private readonly used: { field: KnownField; type: WarehouseType | undefined }[] = [];
  private readonly lineFields: number[] = [];
  private readonly rawOnly = { records: 0, fields: new Set<string>() };
  private readonly prefix: string;
  /** Whether the window is still loaded straight from `raw` (see above). */
  private direct: boolean;
  /** By position: the kinds of value a field had (while direct). */
  private readonly kinds: number[] = [];
  /** The window's field names as a tree, lower-cased (while direct): what DuckDB's STRUCT names must not confuse. */
  private readonly names = new Map<string, { path: string; leaf: boolean }>();
  /** A field's name that DuckDB could not tell apart, seen in the record being added. */
  private misfit = false;
  /** By layout: the types of the last of its records placed (addByLayout). */
  private readonly placed = new Map<RecordLayout, (WarehouseType | undefined)[]>();
  /** The record being added fitted no layout but may be read by one: learn its layout if it loads as sent. */
  private learnNext = false;

  constructor(
    file: string,
    format: LoadFormat,
    private readonly registry: FieldRegistry,
    private readonly limits: LoadLimits,
    private readonly redaction: RecordRedaction,
    window: { start: string; end: string; fetchedAt: string },
    /** The layouts records are read by (while direct), learned here: the table's in this run, or this window's own. */
    private readonly book = new LayoutBook(),
  ) {
    this.ndjson = format === "ndjson";
    this.out = new LineFile(file, "w", this.ndjson ? this.pieceBytes : Infinity);
    this.prefix = `${window.start}\t${window.end}\t${window.fetchedAt}\t`;
    this.direct = this.ndjson;
  }

  // One record's fields, reused from record to record (no arrays per record).
  private readonly keys: string[] = [];
  private readonly texts: (string | null)[] = [];
  private readonly types: (WarehouseType | undefined)[] = [];
  /** The registry's field for each, when it has one (looked up once per record). */
  private readonly found: (KnownField | undefined)[] = [];
  private count = 0;
  private readonly plain: boolean[] = [];
  private readonly collect = (key: string, text: string | null, type: WarehouseType | undefined, plain: boolean): void => {
    const at = this.count++;
    this.keys[at] = key;
    this.texts[at] = text;
    this.types[at] = type;
    this.plain[at] = plain;
  };

  private get pieceBytes(): number {
    return this.limits.pieceBytes ?? PIECE_BYTES;
  }

  add(text: string): void {
    this.learnNext = false;
    if (this.direct && this.addByLayout(text, false)) return;
    this.addParsed(text);
  }

  /**
   * A record given as its UTF-8 bytes, one per character (a Buffer read as `latin1`: reports'
   * cache.ts recordBytes). Read by a layout, it is copied into the load file as it came — no
   * decoding, no encoding; otherwise it is decoded (as TextDecoder decodes the whole answer)
   * and added as add() does.
   */
  addBytes(bytes: string, tag = -1): void {
    this.learnNext = false;
    if (this.direct && (tag >= 0 ? this.addBySignature(bytes, tag) : this.addByLayout(bytes, true))) return;
    this.addParsed(decodeBytes(bytes));
  }

  /**
   * A block of records as their bytes (cache.ts recordBlocks): those the answer's scan read by
   * a layout of the book (a tag) are copied from the block into the load file — no string is
   * made of them — when the block's bytes cannot hold the API key; the others as addBytes.
   */
  addBlock(block: RecordBlock): void {
    const { bytes, count } = block;
    // One look for the key over the whole block (and its separators: a key across two records makes both look).
    const clean = !this.mayHold(bytes.toString("latin1", 0, block.size), true);
    for (let i = 0; i < count; i++) {
      const start = block.start(i);
      const end = block.end(i);
      const tag = block.tag(i);
      if (clean && tag >= 0 && this.direct) {
        this.learnNext = false;
        const { layout, types } = this.book.signature(tag);
        for (let t = 0; t < types.length; t++) this.types[t] = types[t];
        if (this.placedAsRead(layout)) {
          this.rows++;
          this.out.writeRange(bytes, start, end);
          this.out.write("\n");
        } else this.addParsed(UTF8.decode(bytes.subarray(start, end)));
      } else this.addBytes(bytes.toString("latin1", start, end), tag);
    }
  }

  private addParsed(text: string): void {
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
    if (this.ndjson) {
      // `raw` goes into its own file, one record per line, as the JSON text it is: DuckDB's
      // read_ndjson_objects takes each line as it stands — no escaping here, no parsing and
      // writing anew there (it was half of DuckDB's time). A JSON text has line breaks only as
      // whitespace between tokens: they become spaces.
      const line = raw.includes("\n") || raw.includes("\r") ? raw.replace(/[\n\r]/g, " ") : raw;
      if (this.direct) {
        if (keep && raw === text && isRecordObject(value) && this.placeAsSent(cells) && keysInText(text) === keysInValue(value)) {
          if (this.learnNext) this.learn(value, cells);
          return this.out.write(`${line}\n`);
        }
        this.leaveDirect(row - 1);
        this.count = 0;
        visitFields(value, this.collect);
        for (let i = 0; i < cells; i++) this.found[i] = this.registry.get(this.keys[i]!);
      }
      this.raws!.write(`${line}\n`);
      this.writeColumns(row, keep, cells);
      return;
    }
    const values: string[] = [];
    if (keep)
      for (let i = 0; i < cells; i++) {
        const at = this.place(i);
        while (values.length <= at) values.push("\\N");
        // Set for each of the record's fields (collect).
        const cell = this.texts[i] as string | null;
        values[at] = cell === null ? "\\N" : copyEscape(cell);
      }
    this.lineFields.push(values.length);
    this.out.write(`${this.prefix}${row}\t${copyEscape(raw)}${values.length > 0 ? `\t${values.join("\t")}` : ""}\n`);
  }

  /**
   * A record read by one of the window's layouts (domain/record-layout.ts) when one fits, as
   * the direct case of add() would take it, without parsing it; false: add() reads it.
   */
  private addByLayout(text: string, bytes: boolean): boolean {
    if (this.mayHold(text, bytes)) return false;
    const layouts = this.book.layouts;
    let layout: RecordLayout | undefined;
    for (let i = 0; i < layouts.length; i++) {
      if (!layouts[i]!.read(text, this.types, bytes)) continue;
      layout = layouts[i]!;
      this.book.use(i);
      break;
    }
    if (layout === undefined) {
      this.learnNext = true;
      return false;
    }
    return this.addAsRead(text, bytes, layout);
  }

  /**
   * A record (its UTF-8 bytes) the scan of the answer already read by a layout of the book
   * (`tag`: its signature, cache.ts recordBytes): added as addByLayout adds it, without
   * reading it again.
   */
  private addBySignature(bytes: string, tag: number): boolean {
    if (this.mayHold(bytes, true)) return false;
    const { layout, types } = this.book.signature(tag);
    for (let i = 0; i < types.length; i++) this.types[i] = types[i];
    return this.addAsRead(bytes, true, layout);
  }

  private mayHold(text: string, bytes: boolean): boolean {
    const redaction = this.redaction;
    return bytes ? (redaction.mayHoldBytes?.(text) ?? redaction.mayHold(decodeBytes(text))) : redaction.mayHold(text);
  }

  /** A record read by `layout`, its types in `types`: placed and written as it came, when it is stored as sent. */
  private addAsRead(text: string, bytes: boolean, layout: RecordLayout): boolean {
    return this.placedAsRead(layout) && this.writeAsRead(text, bytes);
  }

  /** Whether a record read by `layout`, its types in `types`, is stored as sent; its fields placed. */
  private placedAsRead(layout: RecordLayout): boolean {
    // A layout is learned from a record kept as sent: its fields are within the limits and
    // already in the registry.
    const keys = layout.keys;
    const cells = keys.length;
    // Types the layout's records were last placed with: a record of the same types places
    // the same (its fields' kinds and types are in the window's already, and every record
    // since was placed as sent too, or the window would have left this path). The
    // column types the table has may change meanwhile (a window loading widens one): the
    // store checks those at load (store.ts, rebuildColumns).
    const placed = this.placed.get(layout);
    if (placed !== undefined && sameTypes(placed, this.types, cells)) return true;
    for (let i = 0; i < cells; i++) {
      const key = keys[i]!;
      this.keys[i] = key;
      this.plain[i] = true;
      this.found[i] = this.registry.get(key);
    }
    this.count = cells;
    if (!this.placeAsSent(cells)) return false;
    this.placed.set(layout, this.types.slice(0, cells));
    return true;
  }

  /** A record read by layout, written as it came (its bytes with `bytes`). */
  private writeAsRead(text: string, bytes: boolean): true {
    this.rows++;
    if (bytes) this.out.writeBytes(text);
    else this.out.write(text);
    this.out.write("\n");
    return true;
  }

  /** Keeps the layout of a record just taken as sent, for the records after it (the last few kept). */
  private learn(value: Record<string, unknown>, cells: number): void {
    const layout = RecordLayout.learn(value, this.keys.slice(0, cells));
    if (layout !== undefined) this.book.learn(layout);
  }

  /** The record's line of the columns file (DuckDB): its row number and its fields by position. */
  private writeColumns(row: number, keep: boolean, cells: number): void {
    let line = `{"r":${row}`;
    if (keep)
      for (let i = 0; i < cells; i++) {
        const at = this.place(i);
        const cell = this.texts[i] as string | null;
        if (cell !== null) line += `,"c${at}":${JSON.stringify(cell)}`;
      }
    this.out.write(`${line}}\n`);
  }

  /**
   * While the window is loaded straight from `raw`: places the record's fields and says
   * whether each value is one its column takes as sent (a plain scalar of the column's kind,
   * the column's type being what the table has widened by the window's values).
   */
  private placeAsSent(cells: number): boolean {
    for (let i = 0; i < cells; i++) {
      if (!this.plain[i]) return false;
      const at = this.place(i);
      if (this.misfit) return false;
      const type = this.types[i];
      if (type === undefined) continue;
      const kinds = (this.kinds[at] ?? 0) | kindOf(type);
      this.kinds[at] = kinds;
      const entry = this.used[at]!;
      const stored = this.registry.columnType(entry.field.key);
      const column = stored === undefined || stored === "system" ? entry.type : widenType(stored, entry.type);
      if (stored === "system" || !holdsAsSent(column, kinds)) return false;
    }
    return true;
  }

  /** The window turns to the columns file: the lines of the records before, from the raw file. */
  private leaveDirect(records: number): void {
    this.direct = false;
    this.raws = this.out.moveTo(`${this.out.path}.raw`);
    this.out = new LineFile(this.raws.path.slice(0, -".raw".length), "w", this.pieceBytes);
    let row = 0;
    for (const line of readLines(this.raws.files, records)) {
      this.count = 0;
      visitFields(parseExactJson(line), this.collect);
      for (let i = 0; i < this.count; i++) this.found[i] = this.registry.get(this.keys[i]!);
      this.writeColumns(++row, true, this.count);
    }
  }

  /** Whether DuckDB can tell a new field of the window from the others by name (a STRUCT path, case aside). */
  private fitsByName(path: string[]): boolean {
    let prefix = "";
    let exact = "";
    for (let depth = 0; depth < path.length; depth++) {
      const name = path[depth]!;
      // eslint-disable-next-line no-control-regex
      if (name === "" || /\u0000/.test(name)) return false;
      prefix += `\u0001${name.toLowerCase()}`;
      exact += `\u0001${name}`;
      const leaf = depth === path.length - 1;
      const known = this.names.get(prefix);
      if (known === undefined) this.names.set(prefix, { path: exact, leaf });
      else if (known.path !== exact || known.leaf || leaf) return false;
    }
    return true;
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
      if (this.direct && !this.fitsByName(field.path)) this.misfit = true;
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
      ...(this.ndjson ? { pieces: this.out.pieces } : {}),
      ...(this.raws ? { rawFile: this.raws.path, rawPieces: this.raws.pieces } : {}),
      rows: this.rows,
      fields: this.used,
      lineFields: this.lineFields,
      rawOnly: this.rawOnly,
      direct: this.direct,
      kinds: this.used.map((_, at) => this.kinds[at] ?? 0),
    };
  }

  /**
   * Adds a record again from the raw file of a window loaded straight from it (rebuildColumns).
   * Its fields are all in the registry (place() finds them by key) and take the positions
   * they had: the same records in the same order place each field first where it was first.
   */
  private again(line: string): void {
    this.count = 0;
    visitFields(parseExactJson(line), this.collect);
    this.writeColumns(++this.rows, true, this.count);
  }

  /**
   * The columns file of a window that was to load straight from `raw`, when a column's type
   * changed since (a window loaded meanwhile widened it): the same fields at the same
   * positions, the values as the columns file gives them.
   */
  static rebuildColumns(result: WindowLoadResult, registry: FieldRegistry): WindowLoadResult {
    const rawFile = `${result.file}.raw`;
    const rawFiles = piecePaths(rawFile, result.pieces);
    piecePaths(result.file, result.pieces).forEach((file, i) => {
      try {
        renameSync(file, rawFiles[i]!);
      } catch (error) {
        throw LocalFileError.fromSystem(error, file, "read the load file");
      }
    });
    // Stryker disable StringLiteral,ObjectLiteral,ArrowFunction,BooleanLiteral: again() writes the columns file itself and reads none of the format, limits, redaction and window.
    const writer = new WindowLoadWriter(
      result.file,
      "ndjson",
      registry,
      { maxFieldsPerRecord: Infinity, maxFields: Infinity },
      { mayHold: () => false, redact: (value) => value },
      { start: "", end: "", fetchedAt: "" },
    );
    // Stryker restore StringLiteral,ObjectLiteral,ArrowFunction,BooleanLiteral
    try {
      for (const line of readLines(rawFiles, result.rows)) writer.again(line);
    } catch (error) {
      writer.abandon();
      throw error;
    }
    writer.out.finish();
    return { ...result, pieces: writer.out.pieces, rawFile, rawPieces: rawFiles.length, direct: false };
  }

  abandon(): void {
    this.out.close();
    this.raws?.close();
  }
}

/**
 * Removes a window's files once it is loaded: the load file and its raw file (also when the
 * load file became one at load: rebuildColumns), each with its pieces.
 */
export async function removeLoadFiles(result: WindowLoadResult): Promise<void> {
  for (const file of [result.file, result.rawFile ?? `${result.file}.raw`]) {
    for (let i = 0; ; i++) {
      try {
        await unlink(piecePath(file, i));
      } catch (error) {
        // The pieces end at the first one missing (a window without a raw file has none).
        if ((error as NodeJS.ErrnoException).code === "ENOENT") break;
        throw error;
      }
    }
  }
}

const UTF8 = new TextDecoder("utf-8");

/** A record's text from its UTF-8 bytes given one per character, decoded as the whole answer would be. */
function decodeBytes(bytes: string): string {
  return UTF8.decode(Buffer.from(bytes, "latin1"));
}

/** PostgreSQL COPY text format: backslash, newline, carriage return and tab escaped. */
function copyEscape(text: string): string {
  if (!/[\\\n\r\t]/.test(text)) return text;
  return text.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
}
