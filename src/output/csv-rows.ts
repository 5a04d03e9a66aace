import type { Cell } from "../domain/records.js";
import { BufferedChunkWriter } from "./chunk-writer.js";
import type { csvRowsText } from "./csv.js";
import type { ChunkSink, RecordStreamOptions } from "./record-types.js";
import { SpoolFile } from "./spool-file.js";
import type { RowOutput, WaitingRows } from "./tabular-writer.js";

// csv rows once the columns are known (tabular-writer.ts decides when), through csv-stringify
// (csv.ts), a batch of rows per call. Rows that wait for the header wait as the CSV text they
// will be (docs/architecture.md, Exports): encoded once, and copied after the header at the
// end, byte for byte, where the spool held them as JSON to be parsed and encoded again.

type Row = readonly (Cell | undefined)[];

/** The record delimiter of every CSV written here (csv.ts: LF unless a line ending is asked for). */
const LF = 0x0a;
const QUOTE = 0x22;

export class CsvRows implements RowOutput {
  private readonly out: BufferedChunkWriter;
  private csvText: typeof csvRowsText | undefined;
  private readonly decoder = new TextDecoder("utf-8");
  readonly waiting: WaitingRows;

  constructor(
    private readonly sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {
    this.out = new BufferedChunkWriter(sink, options.signal);
    this.waiting = new CsvWaitingRows(this, options);
  }

  /** Rows as CSV text, each with its line end. */
  async text(rows: readonly Row[]): Promise<string> {
    // Imported here: `token` and `--help` load no CSV code (start-up, README "Development").
    if (!this.csvText) {
      const { csvRowsText } = await import("./csv.js");
      this.csvText = csvRowsText;
    }
    return this.csvText(rows, { delimiter: this.options.delimiter });
  }

  async begin(columns: string[]): Promise<void> {
    // A document without rows is empty, or only its BOM, as csv-stringify writes it.
    const bom = this.options.bom === true ? "\uFEFF" : "";
    // No record and no --fields: no columns to name, so there is no header line.
    const header = columns.length > 0 ? await this.text([columns]) : "";
    if (bom !== "" || header !== "") await this.out.write(bom + header);
  }

  async rows(rows: readonly Row[]): Promise<void> {
    if (rows.length > 0) await this.out.write(await this.text(rows));
  }

  /** CSV bytes written already (waiting rows read back), after what is buffered. */
  async bytes(chunk: Buffer): Promise<void> {
    if (this.sink.toTerminal) {
      // Control characters are made visible in text (chunk-writer.ts).
      await this.out.write(this.decoder.decode(chunk, { stream: true }));
      return;
    }
    await this.out.flush();
    await this.sink.write(chunk);
  }

  async end(): Promise<void> {
    await this.out.flush();
  }

  abort(): void {
    // Nothing is open: the caller discards what was written.
  }
}

/**
 * Rows waiting for the header as their CSV text. Each is padded to the columns known when
 * it came; the columns only grow, so the rows narrower than the final header are the first
 * ones, in runs of one width each, and only they are read again at the end: each gets the
 * delimiters of its missing cells before its line end (csv-stringify writes a missing cell
 * as nothing between two delimiters). A line end ends a row only outside quotes, and
 * csv-stringify writes quotes in pairs, so it ends one where the quotes before it in the row
 * are even. Both are ASCII: the bytes are read as they are, never decoded.
 */
class CsvWaitingRows implements WaitingRows {
  private readonly spool: SpoolFile;
  private readonly runs: { width: number; count: number }[] = [];

  constructor(
    private readonly output: CsvRows,
    private readonly options: RecordStreamOptions,
  ) {
    this.spool = new SpoolFile(options.spoolDir, options.signal, "rows.csv");
  }

  async add(rows: Row[], width: number): Promise<void> {
    if (rows.length === 0) return;
    // Cells past a row's last one are holes: empty cells, as many as the columns known now.
    for (const row of rows) if (row.length < width) (row as (Cell | undefined)[]).length = width;
    const last = this.runs.at(-1);
    if (last?.width === width) last.count += rows.length;
    else this.runs.push({ width, count: rows.length });
    if (this.spool.add(await this.output.text(rows))) await this.spool.flush();
  }

  async writeAll(width: number): Promise<void> {
    const padder = new RowPadder(
      this.runs.filter((run) => run.width < width),
      width,
      this.options.delimiter ?? ",",
    );
    for await (const chunk of this.spool.chunks()) await this.output.bytes(padder.feed(chunk));
  }

  remove(): Promise<void> {
    return this.spool.remove();
  }
}

/** Pads the rows of narrower runs (the first rows of the text) to `width` cells, chunk by chunk. */
export class RowPadder {
  private run = 0;
  private left: number;
  private quoted = false;
  private readonly padding: Buffer[];

  constructor(
    private readonly runs: readonly { width: number; count: number }[],
    width: number,
    delimiter: string,
  ) {
    this.left = runs[0]?.count ?? 0;
    // A row of no cell is an empty line: its first cell needs no delimiter before it.
    this.padding = runs.map((run) => Buffer.from(delimiter.repeat(width - Math.max(run.width, 1)), "utf8"));
  }

  feed(chunk: Buffer): Buffer {
    if (this.run >= this.runs.length) return chunk;
    const pieces: Buffer[] = [];
    let from = 0;
    let at = 0;
    // The next quote and line end at or after `at` (-1: none in this chunk), each searched
    // again only once passed: a chunk is read once, whatever its quotes.
    let quote = -2;
    let lineEnd = -2;
    while (this.run < this.runs.length && at < chunk.length) {
      if (quote !== -1 && quote < at) quote = chunk.indexOf(QUOTE, at);
      if (this.quoted) {
        if (quote === -1) break;
        this.quoted = false;
        at = quote + 1;
        continue;
      }
      if (lineEnd !== -1 && lineEnd < at) lineEnd = chunk.indexOf(LF, at);
      if (quote !== -1 && (lineEnd === -1 || quote < lineEnd)) {
        this.quoted = true;
        at = quote + 1;
        continue;
      }
      if (lineEnd === -1) break;
      pieces.push(chunk.subarray(from, lineEnd), this.padding[this.run]!);
      from = lineEnd;
      at = lineEnd + 1;
      if (--this.left === 0) {
        this.run++;
        this.left = this.runs[this.run]?.count ?? 0;
      }
    }
    if (pieces.length === 0) return chunk;
    pieces.push(chunk.subarray(from));
    return Buffer.concat(pieces);
  }
}
