// A streamed CSV record reader for the files spreadsheets write: bytes → decoded text
// (encoding.ts) → dialect (dialect.ts) → simple lines split directly (plain-lines.ts),
// csv-parse from the first other line on → records with spreadsheet row
// numbers.
// It knows nothing about what the columns mean: users-csv/ adds the users rules, and the
// bulk `--from-csv` files (docs/cli-contract.md "Bulk operations": "same reading rules") can
// use it as they are.
//
// Row numbers are spreadsheet row numbers: every CSV record is one row, blank lines
// included, and a quoted line break does not start a new one; Excel's `sep=` line is not a
// row (Excel hides it), so the header is row 1.
//
// Pure: the caller opens the file and hands over its chunks.

import { createHash } from "node:crypto";
import { parse, type Parser } from "csv-parse";
import {
  type Decoded,
  type DecodeResult,
  createDecoder,
  decodeWindows1252,
  sniffEncoding,
  UTF8,
  WINDOWS_1252,
} from "./encoding.js";
import { csvParseOptions, type Delimiter, detectDialect, type Dialect, HEADER_SCAN_LIMIT, type LineEnding } from "./dialect.js";
import { CsvFileError, excerpt, excerptEnd } from "./errors.js";
import { PlainLineSplitter } from "./plain-lines.js";

export { CsvFileError, type CsvFileErrorCode, excerpt, EXCERPT_CHARS } from "./errors.js";
export { type Delimiter, type LineEnding, csvParseOptions, MAX_RECORD_CHARS } from "./dialect.js";
export { resolveEncoding, encodingOption, ENCODING_EXAMPLES } from "./encoding.js";
export { mapHeader, findControlCharacter, codePointName, type HeaderLayout } from "./header.js";

export interface CsvReadOptions {
  /**
   * The encoding from `--encoding`, already resolved (resolveEncoding). Without it: a BOM,
   * else the NUL pattern of UTF-16, else strict UTF-8. A BOM wins over it, with a note.
   */
  encoding?: string | undefined;
  /**
   * false: every line goes through csv-parse, without the fast path for simple lines
   * (plain-lines.ts). Only for the tests that compare the two; default true.
   */
  plainLines?: boolean | undefined;
}

/** What the reader found out about the file; each field is set as soon as it is known. */
export interface CsvSourceInfo {
  /** WHATWG name: "utf-8", "utf-16le", "windows-1252", ... */
  encoding: string;
  /** Whether the file starts with a byte-order mark. */
  bom: boolean;
  delimiter: Delimiter;
  lineEnding: LineEnding;
  /** Whether the file starts with Excel's `sep=` line. */
  sepLine: boolean;
  /** Things worth a warning line, e.g. a BOM that overrode --encoding. */
  notes: string[];
  /** SHA-256 (hex) of every byte of the file, BOM included; set when the stream ends. */
  sha256: string;
  /** Size of the file in bytes; set when the stream ends. */
  bytes: number;
}

/**
 * Called for each record in file order with its spreadsheet row and the physical line it
 * starts on (a quoted line break makes one row span several lines; Excel's `sep=` line is
 * line 1 but no row). Runs inside csv-parse's push: must not throw.
 */
export type CsvRecordSink = (cells: string[], row: number, line: number) => void;

export interface CsvStreamControl {
  /** A file-level error the sink recorded, thrown by the reader after the current chunk. */
  failure: () => Error | undefined;
  /** Filled in by the reader. */
  info: Partial<CsvSourceInfo>;
}

/**
 * The low-level reader: streams `source`, calling `sink` for every record in order (the
 * first is the first line with content or a blank line before it). Yields after each
 * chunk, so a caller can hand on what the sink collected before more is read; a sink stops
 * the run by making `control.failure()` return an error. Throws CsvFileError for a file that
 * cannot be decoded or parsed (code ENCODING or MALFORMED), naming the row and quoting at
 * most a short excerpt.
 */
export async function* streamCsvRecords(
  source: AsyncIterable<Uint8Array>,
  sink: CsvRecordSink,
  control: CsvStreamControl,
  options: CsvReadOptions = {},
): AsyncGenerator<void, void, undefined> {
  const info = control.info;
  info.notes ??= [];
  const hash = createHash("sha256");
  let bytes = 0;
  let rawHead: Uint8Array[] | undefined = [];
  let decoder: ReturnType<typeof createDecoder> | undefined;
  let textHead: Decoded[] | undefined = [];
  let parser: Parser | undefined;
  /** The fast path, until csv-parse takes over (then undefined). */
  let plain: PlainLineSplitter | undefined;
  let startCsvParse = (): Parser => parser!;
  /** Records given to the sink before csv-parse took over: its own count starts after them. */
  let rowsBefore = 0;
  let parseError: unknown;
  let ended: Promise<void> | undefined;
  let rows = 0;
  /** The physical line the next record starts on. */
  let nextLine = 1;
  /** Set while the text before an encoding error is parsed only to learn its row. */
  let flushing = false;
  /** The end of the text handed to the parser, for an excerpt before an encoding error. */
  let recent = "";
  /** Records the parser gave for the piece being written, not yet handed to the sink. */
  const parsed: string[][] = [];
  let drain = (): void => undefined;

  // The parser exists whenever this is called: check() follows a write or a decided dialect.
  // (Only csv-parse raises parse errors: the parser exists then.)
  const currentRow = (): number => rowsBefore + parser!.info.records + 1;
  const check = (): void => {
    const failure = control.failure();
    if (failure !== undefined) throw failure;
    if (parseError !== undefined) throw malformed(parseError, currentRow());
  };

  const startParser = (dialect: Dialect): void => {
    info.delimiter = dialect.delimiter;
    info.lineEnding = dialect.lineEnding;
    info.sepLine = dialect.sepLine;
    nextLine = dialect.sepLine ? 2 : 1;
    // Simple lines are split by the fast path until the first one that is not
    // (plain-lines.ts); files with CR line ends go to csv-parse from the start.
    if (dialect.lineEnding !== "cr" && options.plainLines !== false) {
      plain = new PlainLineSplitter(dialect.delimiter, csvParseOptions(dialect), (cells, spans) => {
        const line = nextLine;
        nextLine += spans ? 1 + lineBreaksIn(cells, false) : 1;
        sink(cells, ++rows, line);
      });
    }
    const crIsBreak = dialect.lineEnding === "cr";
    drain = (): void => {
      for (let k = 0; k < parsed.length; k++) {
        const cells = parsed[k]!;
        const line = nextLine;
        // A line break can only be inside a quoted cell: each one moves the next record down.
        nextLine += 1 + lineBreaksIn(cells, crIsBreak);
        sink(cells, ++rows, line);
      }
      parsed.length = 0;
    };
    startCsvParse = (): Parser => {
      const p = parse(csvParseOptions(dialect));
      // The parser counts its own records: those of the fast path come before them.
      rowsBefore = rows;
      plain = undefined;
      // The records of a piece are collected, then handed to the sink once the parser has taken
      // the piece (drain): csv-parse's own loop stays as small as with a bare `data` handler,
      // and the sink's checks run in a loop of their own (docs/development.md, start-up and
      // validation figures of 2026-11-27).
      p.on("data", (cells: string[]) => {
        if (!flushing) parsed.push(cells);
      });
      p.on("error", (err: unknown) => {
        parseError ??= err;
      });
      // The parser destroys itself after its end or an error (autoDestroy), so "close" follows either.
      ended = new Promise<void>((resolve) => p.once("close", resolve));
      parser = p;
      return p;
    };
    if (plain === undefined) startCsvParse();
  };

  /** Hands `piece` to csv-parse, waiting while it is full. */
  const parseMore = async (p: Parser, piece: Decoded): Promise<void> => {
    // Stryker disable BlockStatement,StringLiteral,ConditionalExpression: waiting for "drain" only bounds memory; the records are the same
    if (!p.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          p.off("drain", done);
          p.off("error", done);
          p.off("close", done);
          resolve();
        };
        p.on("drain", done);
        p.on("error", done);
        p.on("close", done);
      });
    }
    // Stryker restore BlockStatement,StringLiteral,ConditionalExpression
  };

  const write = async (piece: Decoded): Promise<void> => {
    // A character cut by the subarray decodes as U+FFFD, at least 79 characters before the end:
    // the excerpt shows the last 30 of the last line, so it never shows.
    // Stryker disable next-line ConditionalExpression: decoding only the end of a byte piece saves work; the whole piece would end the same
    const tail = typeof piece === "string" ? piece : piece.subarray(-RECENT_CHARS * 3).toString("utf8");
    // Stryker disable next-line MethodExpression: the cut only bounds memory; the excerpt takes the end anyway
    recent = (recent + tail).slice(-RECENT_CHARS);
    if (plain !== undefined) {
      const rest = plain.push(piece);
      if (rest !== undefined) await parseMore(startCsvParse(), rest);
    } else {
      await parseMore(parser!, piece);
    }
    drain();
    check();
  };

  /** Text before the dialect is known is held until the header line is complete. */
  const accept = async (piece: Decoded, atEnd: boolean): Promise<void> => {
    if (textHead === undefined) return write(piece);
    textHead.push(piece);
    // As text (UTF-8 pieces end on whole characters): the parser takes strings as well.
    const head = textHead.join("");
    const dialect = detectDialect(head, atEnd || head.length >= HEADER_SCAN_LIMIT);
    if (dialect === undefined) return;
    textHead = undefined;
    startParser(dialect);
    await write(head.slice(dialect.skip));
  };

  const take = async (result: DecodeResult, atEnd: boolean): Promise<void> => {
    await accept(result.out, atEnd || !result.ok);
    if (result.ok) return;
    check();
    throw encodingError(result, info.encoding!, await rowOfEnd(), recent);
  };

  /**
   * The row that the text written so far ends in: csv-parse holds back a record until it
   * sees what follows, so the parser is ended (its records no longer reach the sink) and
   * the records counted. The text's last line, unless it ended with a line break, is the
   * row of whatever comes next.
   */
  const rowOfEnd = async (): Promise<number> => {
    const openLine = recent.length > 0 && !/[\r\n]$/.test(recent);
    flushing = true;
    // The fast path's unfinished line goes to csv-parse, which says where the row ends.
    const rest = plain?.end();
    const p = plain !== undefined ? startCsvParse() : parser!;
    if (rest !== undefined && rest.length > 0) await parseMore(p, rest);
    p.end();
    await ended;
    const records = rowsBefore + p.info.records;
    return parseError !== undefined || !openLine ? records + 1 : records;
  };

  const begin = async (head: Uint8Array, atEnd: boolean): Promise<boolean> => {
    const sniffed = sniffEncoding(head, options.encoding, atEnd);
    if (sniffed.kind === "need-more") return false;
    if (sniffed.kind === "unsupported") {
      throw new CsvFileError("ENCODING", `the file is ${sniffed.name} (its byte-order mark says so), which cannot be read`, {
        byteOffset: 0,
        hint: 'save it as UTF-8 (in Excel: "CSV UTF-8")',
      });
    }
    info.encoding = sniffed.encoding;
    info.bom = sniffed.bomBytes > 0;
    const name = displayName(sniffed.encoding);
    // Only a BOM can make the encoding differ from --encoding.
    if (options.encoding !== undefined && options.encoding !== sniffed.encoding) {
      info.notes!.push(
        `the file starts with a ${name} byte-order mark, so it was read as ${name}, not as ${displayName(options.encoding)} (--encoding)`,
      );
    } else if (sniffed.how === "nul-pattern") {
      info.notes!.push(`the file has no byte-order mark but looks like ${name}; it was read as ${name}`);
    }
    decoder = createDecoder(sniffed.encoding, sniffed.bomBytes);
    await take(decoder.push(head.subarray(sniffed.bomBytes)), false);
    return true;
  };

  try {
    for await (const chunk of source) {
      hash.update(chunk);
      bytes += chunk.length;
      if (rawHead !== undefined) {
        // At most 4 bytes decide the encoding: only the first few chunks are ever joined here.
        rawHead.push(chunk);
        if (await begin(Buffer.concat(rawHead), false)) rawHead = undefined;
      } else {
        await take(decoder!.push(chunk), false);
      }
      yield;
    }
    if (rawHead !== undefined) await begin(Buffer.concat(rawHead), true);
    // At the end the dialect is always decided (detectDialect at the end never waits), so the parser exists.
    await take(decoder!.end(), true);
    // A last line without a line break is csv-parse's to read (plain-lines.ts).
    const rest = plain?.end();
    if (rest !== undefined && rest.length > 0) await parseMore(startCsvParse(), rest);
    parser?.end();
    await ended;
    drain();
    check();
    info.sha256 = hash.digest("hex");
    info.bytes = bytes;
    yield;
  } finally {
    parser?.destroy();
  }
}

export interface CsvRecord {
  /** Spreadsheet row (the header is row 1, unless blank lines precede it). */
  row: number;
  /** The physical line of the file the record starts on (for an editor or a CI annotation). */
  line: number;
  /** The cells exactly as in the file (not trimmed). */
  cells: string[];
}

/**
 * The high-level reader: every record in file order, header first (blank lines before it
 * too, as records whose cells are all empty).
 *
 *   const reader = new CsvRecordReader(createReadStream(file), { encoding });
 *   for await (const { row, cells } of reader) ...
 *   reader.info.delimiter, reader.info.sha256, reader.info.notes
 */
export class CsvRecordReader implements AsyncIterable<CsvRecord> {
  readonly info: Partial<CsvSourceInfo> = {};
  private failure: Error | undefined;

  constructor(
    private readonly source: AsyncIterable<Uint8Array>,
    private readonly options: CsvReadOptions = {},
  ) {}

  /** Stops the run with `error`, thrown by the iteration (for use between records). */
  fail(error: Error): void {
    this.failure ??= error;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<CsvRecord, void, undefined> {
    const queue: CsvRecord[] = [];
    // fail() is called between records, where the loop below throws: nothing to stop mid-chunk.
    const control: CsvStreamControl = { failure: () => undefined, info: this.info };
    for await (const _ of streamCsvRecords(
      this.source,
      (cells, row, line) => queue.push({ row, line, cells }),
      control,
      this.options,
    )) {
      for (const record of queue) {
        yield record;
        if (this.failure !== undefined) throw this.failure;
      }
      queue.length = 0;
    }
  }
}

/**
 * Line breaks inside the cells of one record, as an editor counts lines: CRLF once, a lone
 * CR only in a file whose lines end in CR (elsewhere it is a character of the cell).
 */
function lineBreaksIn(cells: readonly string[], crIsBreak: boolean): number {
  let breaks = 0;
  for (const cell of cells) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a fast path; the match below counts no break in such a cell either
    if (!cell.includes("\n") && !(crIsBreak && cell.includes("\r"))) continue;
    breaks += cell.match(crIsBreak ? /\r\n|\r|\n/g : /\n/g)!.length;
  }
  return breaks;
}

/** "UTF-8", "UTF-16LE", "windows-1252": how messages name an encoding. */
export function displayName(encoding: string): string {
  return encoding.startsWith("utf-") ? encoding.toUpperCase() : encoding;
}

/** How much of the text before an encoding error is kept for its excerpt. */
const RECENT_CHARS = 80;

function encodingError(
  result: Extract<DecodeResult, { ok: false }>,
  encoding: string,
  row: number,
  before: string,
): CsvFileError {
  const name = displayName(encoding);
  const at = `${result.exact ? "at" : "at or after"} byte offset ${result.offset}`;
  // What precedes the bad byte on its line, so that it can be found in an editor.
  const line = before.split(/\r\n|\r|\n/).pop()!;
  const after = line.trim() === "" ? "" : `, after ${excerptEnd(line, 30)}`;
  if (encoding === UTF8) {
    // The byte read as windows-1252 usually shows the letter it was meant to be.
    const byte = /byte 0x([0-9A-F]{2})/.exec(result.what);
    const guess = byte ? ` (${excerpt(decodeWindows1252(Uint8Array.of(parseInt(byte[1]!, 16))))} in windows-1252)` : "";
    return new CsvFileError("ENCODING", `row ${row}: the file is not valid UTF-8: ${result.what}${guess} ${at}${after}`, {
      row,
      byteOffset: result.offset,
      hint: `run again with --encoding ${WINDOWS_1252} if Excel saved it as "CSV (Comma delimited)", or save it as "CSV UTF-8"`,
    });
  }
  return new CsvFileError("ENCODING", `row ${row}: the file is not valid ${name}: ${result.what} ${at}${after}`, {
    row,
    byteOffset: result.offset,
    hint: "check the --encoding name, or save the file as UTF-8",
  });
}

const PARSE_REASONS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted cell is never closed",
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by other text; double a quote inside a quoted cell ("")',
  INVALID_OPENING_QUOTE: "a quote appears inside an unquoted cell; quote the whole cell and double the quote",
  CSV_MAX_RECORD_SIZE: "a row is larger than 1 MiB, probably because of an unclosed quote",
};

function malformed(err: unknown, row: number): CsvFileError {
  // csv-parse's errors (CsvError) always carry a code; its messages can quote a whole field, so only the code is shown.
  const code = String((err as { code?: unknown }).code);
  const reason = PARSE_REASONS[code] ?? code;
  return new CsvFileError("MALFORMED", `row ${row}: the file is not valid CSV: ${reason}`, { row, cause: err });
}
