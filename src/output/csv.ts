import { once } from "node:events";
import { stringify, type Options, type Stringifier } from "csv-stringify";
import { stringify as stringifyRows } from "csv-stringify/sync";
import { JsonNumber } from "../domain/exact-json.js";
import type { Cell } from "../domain/records.js";
import type { Delimiter, LineEnding } from "../domain/csv-input/dialect.js";
import { neutralizeCsvCell } from "../text/sanitize.js";

// Every CSV simadmin writes for people's spreadsheets (output, `<file>.errors.csv`) goes
// through csv-stringify, with the formula guard (sanitize.ts, docs/cli-contract.md "Output")
// as its cast step, one row at a time: nothing holds the whole document.

export interface CsvOptions {
  delimiter?: "," | ";" | "\t" | undefined;
  /** Start with a UTF-8 byte-order mark (--bom, for Excel). */
  bom?: boolean | undefined;
  /** Line ends; LF when not given. */
  lineEnding?: LineEnding | undefined;
}

const RECORD_DELIMITERS: Record<LineEnding, string> = { lf: "\n", crlf: "\r\n", cr: "\r" };

/** How the reader found an input file (domain/csv-input/reader.ts CsvSourceInfo); what is unknown yet is left out. */
export interface CsvInputForm {
  delimiter?: Delimiter | undefined;
  bom?: boolean | undefined;
  lineEnding?: LineEnding | undefined;
  encoding?: string | undefined;
}

/**
 * The form of a file written for people to fix and feed back (`<file>.errors.csv`): the
 * input's own delimiter and line ends, so that the spreadsheet that wrote the input opens
 * it the same way (docs/users-csv.md "The errors file"). Always UTF-8; with a BOM when the
 * input had one or was not UTF-8 (UTF-16, windows-1252: a spreadsheet reads UTF-8 without a
 * BOM in its locale's code page, José as JosÃ©). `--delimiter` and `--bom`, when given, win.
 */
export function sideFileForm(input: CsvInputForm, flags: { delimiter?: Delimiter | undefined; bom: boolean }): CsvOptions {
  const encoding = input.encoding ?? "utf-8";
  return {
    delimiter: flags.delimiter ?? input.delimiter ?? ",",
    bom: flags.bom || input.bom === true || encoding !== "utf-8",
    lineEnding: input.lineEnding ?? "lf",
  };
}

/**
 * Cells quoted beyond csv-stringify's own rules, as one pattern (csv-stringify tries each
 * pattern of `quoted_match` on every cell: one search instead of three per cell of a
 * million-row export, docs/architecture.md "Exports"):
 * - either line-break character: csv-stringify quotes a value holding the record delimiter
 *   (LF) but not a lone CR, which every reader takes for a line end: the row would split;
 * - a cell starting with `::` or holding `##[`, so that no line of the CSV reads as a GitHub
 *   Actions workflow command (workflow-guard.ts), the data unchanged.
 */
const QUOTED = /[\r\n]|^\s*::|##\[/;

/**
 * csv-stringify's options for spreadsheet-bound CSV. Rows are arrays of cells; `null` and
 * `undefined` are empty cells, numbers and booleans their JSON text, strings pass the
 * formula guard (a real number such as -5 is not a string and stays a number).
 */
function csvOptions(options: CsvOptions): Options {
  return {
    delimiter: options.delimiter ?? ",",
    bom: options.bom === true,
    record_delimiter: RECORD_DELIMITERS[options.lineEnding ?? "lf"],
    quoted_match: QUOTED,
    cast: {
      string: (value) => neutralizeCsvCell(value),
      // csv-stringify's default writes true as "1" and false as "": keep the JSON words.
      boolean: (value) => String(value),
      // A number kept as its text (exact-json.ts) is written as its digits, unguarded like any number.
      object: (value) => (value instanceof JsonNumber ? value.text : JSON.stringify(value)),
    },
  };
}

/** A csv-stringify stream for spreadsheet-bound CSV (csvOptions). */
export function csvStringifier(options: CsvOptions = {}): Stringifier {
  return stringify(csvOptions(options));
}

/**
 * Rows as CSV text, each ended by the record delimiter, without a byte-order mark: what
 * csvStringifier writes for the same rows, made by the same library in one call rather than
 * a stream chunk (and a promise) per row. Joined one after the other, the texts of several
 * calls are the text of all their rows (csv-stringify quotes cell by cell; it carries
 * nothing from row to row but the header and BOM, which this never writes).
 */
export function csvRowsText(rows: readonly (readonly (Cell | undefined)[])[], options: CsvOptions = {}): string {
  return stringifyRows(rows as unknown as unknown[][], { ...csvOptions(options), bom: false });
}

/** Where CsvRowWriter sends its text; awaited, so a slow file or pipe slows the rows. */
export type TextSink = (text: string) => Promise<void>;

/**
 * Rows in, CSV text out to an async sink, with backpressure both ways: `row()` resolves once
 * csv-stringify can take more, and its output is handed to `sink` one chunk after another.
 */
export class CsvRowWriter {
  private readonly stringifier: Stringifier;
  private readonly pumped: Promise<void>;
  private failure: Error | undefined;

  constructor(sink: TextSink, options: CsvOptions = {}) {
    const stringifier = csvStringifier(options);
    stringifier.setEncoding("utf8");
    this.stringifier = stringifier;
    this.pumped = (async () => {
      for await (const chunk of stringifier as AsyncIterable<string>) await sink(chunk);
    })();
    // Remembered so that a row written after the sink failed throws instead of waiting for
    // a 'drain' that will never come.
    this.pumped.catch((error: unknown) => {
      this.failure = error instanceof Error ? error : new Error(`CSV output failed: ${String(error)}`);
    });
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  async row(cells: readonly (Cell | undefined)[]): Promise<void> {
    this.throwIfFailed();
    // csv-stringify reads holes and undefined as empty cells, as null.
    if (!this.stringifier.write(cells)) {
      await Promise.race([once(this.stringifier, "drain"), this.pumped]);
      this.throwIfFailed();
    }
  }

  /** Ends the document and waits until the sink has every byte. */
  async end(): Promise<void> {
    this.throwIfFailed();
    this.stringifier.end();
    await this.pumped;
  }

  /** Stops without completing (the caller discards the output). */
  abort(): void {
    this.stringifier.destroy();
    this.pumped.catch(() => {});
  }
}
