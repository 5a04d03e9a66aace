import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { throwIfAborted } from "../errors.js";
import { exactJsonText, parseExactJson } from "../domain/exact-json.js";
import { flattenRecord, type Cell, type JsonRecord } from "../domain/records.js";
import { FLUSH_AT } from "./chunk-writer.js";
import { FieldsGate } from "./fields-check.js";
import { writeChunk } from "./io.js";
import type { RecordStreamOptions, RecordWriter } from "./record-types.js";

// csv and xlsx (record-stream.ts): the header is the union of the flattened columns in
// first-seen order, known only after the last record, so rows wait — in memory up to
// 64 KiB, then in a spool file in a private (0700) temp dir — and are written after the
// header at the end. The spool stores each row as an array in column-discovery order, so
// nothing is remapped and no row is held in memory. With --fields the columns are known up
// front and rows stream straight through.

/** Where csv and xlsx rows go once the columns are known. */
export interface RowOutput {
  begin(columns: string[]): Promise<void>;
  row(cells: readonly (Cell | undefined)[]): Promise<void>;
  end(): Promise<void>;
  abort(): void;
}

/**
 * csv and xlsx: with --fields the header goes first and every row streams straight
 * through; without, the header is known only at the end and rows wait (in memory up to
 * 64 KiB, then in a spool file).
 */
export class TabularRecordWriter implements RecordWriter {
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
      // for…in over the flat record flattenRecord made: no array per record and per pair.
      for (const key in flat) {
        const value = flat[key]!;
        let index = this.columnIndex.get(key);
        if (index === undefined) {
          index = this.columns.length;
          this.columnIndex.set(key, index);
          this.columns.push(key);
        }
        row[index] = value;
      }
      // Holes (columns this record lacks) become null in JSON: an empty cell either way.
      // Numbers kept as text (exact-json.ts) go through the spool as the same number tokens.
      this.spoolBuffer += `${exactJsonText(row)}\n`;
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
        await this.begin(this.count > 0 ? this.columns : (this.options.knownFields ?? []));
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
    // Stryker disable next-line ConditionalExpression,StringLiteral: writing "" to the spool changes nothing; the check saves opening one for nothing.
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
        const row = parseExactJson(text.slice(start, end)) as Cell[];
        start = end + 1;
        const cells: (Cell | undefined)[] = [];
        for (let i = 0; i < width; i++) cells.push(row[i]);
        await this.output.row(cells);
      }
      return start;
    };
    if (!this.spool) {
      // A small result never touched the disk.
      // removeSpool() empties the buffer at the end.
      await writeLines(this.spoolBuffer);
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
    // Stryker disable next-line StringLiteral: frees the rows held in memory; nothing reads them after end() or abort().
    this.spoolBuffer = "";
    if (!spool) return;
    spool.stream.destroy();
    // Stryker disable next-line BooleanLiteral: force only matters if the private dir vanished under us.
    await rm(spool.dir, { recursive: true, force: true });
  }
}
