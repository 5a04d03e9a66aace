import { exactJsonText, parseExactJson } from "../domain/exact-json.js";
import { FlatColumns } from "../domain/flat-columns.js";
import { flattenRecord, type Cell, type JsonRecord } from "../domain/records.js";
import { FieldsGate } from "./fields-check.js";
import type { RecordStreamOptions, RecordWriter } from "./record-types.js";
import { SpoolFile } from "./spool-file.js";

// csv and xlsx (record-stream.ts): the header is the union of the flattened columns in
// first-seen order, known only after the last record, so rows wait — in memory up to
// 64 KiB, then in a spool file in a private (0700) temp dir (spool-file.ts) — and are
// written after the header at the end. A row waits as an array in column-discovery order,
// so nothing is remapped and no row is held in memory: as its JSON text (xlsx, which needs
// each cell's type back), or in the output's own form where it has one (csv: the CSV text
// itself, csv-rows.ts, so that nothing is encoded twice). With --fields the columns are
// known up front and rows stream straight through.

type Row = readonly (Cell | undefined)[];

/** Where csv and xlsx rows go once the columns are known. */
export interface RowOutput {
  begin(columns: string[]): Promise<void>;
  /** Rows in order, after begin(). */
  rows(rows: readonly Row[]): Promise<void>;
  end(): Promise<void>;
  abort(): void;
  /** Rows waiting for the header, kept by the output in its own form; without, the writer spools them as JSON. */
  readonly waiting?: WaitingRows | undefined;
}

/** Rows kept until the header is known (RowOutput.waiting). */
export interface WaitingRows {
  /** Rows each `width` cells wide (the columns known so far; a shorter row's missing cells are empty). */
  add(rows: Row[], width: number): Promise<void>;
  /** After begin(): every row added, in order, each padded with empty cells to `width`. */
  writeAll(width: number): Promise<void>;
  /** Frees what is held (memory, files). Safe to call twice. */
  remove(): Promise<void>;
}

/** The writer's own spool: each row as its JSON text, a line each (holes become null, an empty cell either way). */
class JsonWaitingRows implements WaitingRows {
  private readonly spool: SpoolFile;

  constructor(
    private readonly output: RowOutput,
    options: RecordStreamOptions,
  ) {
    this.spool = new SpoolFile(options.spoolDir, options.signal, "rows.ndjson");
  }

  async add(rows: Row[]): Promise<void> {
    // Numbers kept as text (exact-json.ts) go through the spool as the same number tokens.
    for (const row of rows) if (this.spool.add(`${exactJsonText(row)}\n`)) await this.spool.flush();
  }

  async writeAll(width: number): Promise<void> {
    // Lines split by hand rather than with readline, whose async iterator reads ahead
    // without waiting for the consumer: on a spool of a million rows it held far more
    // than a chunk. JSON.stringify escapes line breaks, so "\n" only ends rows.
    const decoder = new TextDecoder("utf-8");
    let rest = "";
    for await (const chunk of this.spool.chunks()) {
      const text = rest + decoder.decode(chunk, { stream: true });
      const rows: Row[] = [];
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        const row = parseExactJson(text.slice(start, end)) as Cell[];
        start = end + 1;
        const cells: (Cell | undefined)[] = [];
        for (let i = 0; i < width; i++) cells.push(row[i]);
        rows.push(cells);
      }
      rest = text.slice(start);
      await this.output.rows(rows);
    }
  }

  remove(): Promise<void> {
    return this.spool.remove();
  }
}

/**
 * csv and xlsx: with --fields the header goes first and every row streams straight
 * through; without, the header is known only at the end and rows wait (in memory up to
 * 64 KiB, then in a spool file).
 */
export class TabularRecordWriter implements RecordWriter {
  count = 0;
  private readonly gate: FieldsGate;
  private readonly flat = new FlatColumns();
  private readonly waiting: WaitingRows;
  private begun = false;
  private finished = false;

  constructor(
    private readonly output: RowOutput,
    private readonly options: RecordStreamOptions,
  ) {
    this.gate = new FieldsGate(options.fields, options.knownFields, false);
    this.waiting = output.waiting ?? new JsonWaitingRows(output, options);
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
      const rows: Row[] = [];
      for (const record of records) {
        const flat = flattenRecord(record);
        rows.push(fields.map((field) => flat[field]));
      }
      await this.output.rows(rows);
      this.count += rows.length;
      return;
    }
    // Each record's cells in their columns, as flattenRecord names them (flat-columns.ts);
    // holes (columns this record lacks) are empty cells.
    const rows: Cell[][] = [];
    for (const record of records) rows.push(this.flat.row(record));
    await this.waiting.add(rows, this.flat.columns.length);
    this.count += rows.length;
  }

  async end(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      this.gate.finish();
      if (this.options.fields) {
        await this.begin(this.options.fields);
      } else {
        const { columns } = this.flat;
        await this.begin(this.count > 0 ? columns : (this.options.knownFields ?? []));
        await this.waiting.writeAll(columns.length);
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

  private removeSpool(): Promise<void> {
    return this.waiting.remove();
  }
}
