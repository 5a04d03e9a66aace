// The reader's fast path (docs/architecture.md, "Reading CSV"): simple lines are split here,
// csv-parse reads the other records.
//
// Almost every line of a roster holds no quote, or quotes only around whole cells, and for
// such a line CSV is as simple as it gets: its cells are the text between delimiters.
// csv-parse looks at every character through its general state machine, which made it most
// of the cost of `users import` (about 3.5 s of CPU for a million rows; splitting the same
// lines here takes 0.7 s).
//
// A line is split here only when csv-parse, with the reader's options (dialect.ts:
// csvParseOptions for LF/CRLF files), would read it as exactly these cells:
// - it ends with LF or CRLF (a last line without a line break is left to csv-parse);
// - it holds no quote character (csv-parse's quote and escape are both `"`), or only quotes
//   that open and close whole cells holding no quote (splitQuoted);
// - it holds no CR except the one of a CRLF ending;
// - it is at most PLAIN_LINE_LIMIT long (far below csv-parse's max_record_size, whose
//   error csv-parse then raises itself).
// An empty line is the one empty cell csv-parse gives for it too ([""]). Any other record
// (a doubled quote, a quoted line break, a CR in a cell) is read by csv-parse alone
// (readRecord); where that cannot be done, everything from that record on goes to the
// stream's csv-parse: it starts there at a record's start, so it reads the rest exactly as
// it would have read it after the records before.
// test/unit/csv-plain-lines.test.ts compares both readers on generated files.
//
// Each line is made a string of its own before it is split, so that a cell kept for long
// (an invalid row in a report) holds on to its line only, never to a whole chunk.

import type { Options as CsvParseOptions } from "csv-parse";
import { parse as parseSync } from "csv-parse/sync";
import type { Decoded } from "./encoding.js";

/** Longest line split here (characters, or bytes of UTF-8); longer ones go to csv-parse. */
export const PLAIN_LINE_LIMIT = 1 << 16;

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

export class PlainLineSplitter {
  /** The start of a line whose end has not arrived yet. */
  private carry: Decoded = "";
  private records = 0;
  /** Records read one by one by csv-parse (readRecord). */
  private others = 0;

  constructor(
    private readonly delimiter: string,
    /** csv-parse's options for this file, for the records read one by one. */
    private readonly options: CsvParseOptions,
    /**
     * Gets the cells of each record, in order; `spans`: a quoted cell may hold line breaks
     * (a record read by csv-parse), else the record is one line.
     */
    private readonly onRecord: (cells: string[], spans: boolean) => void,
  ) {}

  /**
   * Splits the records of the text so far. Returns undefined while it could read every
   * complete one; otherwise the text from the start of the first one it cannot, which
   * csv-parse must read from there on (this splitter is then done).
   * `piece`: UTF-8 bytes ending on a whole character, or text.
   */
  push(piece: Decoded): Decoded | undefined {
    if (typeof piece === "string") {
      const text = this.carry.length === 0 ? piece : this.carry.toString() + piece;
      return this.split(text);
    }
    // Only the first piece (the header's, read as text) can leave text before bytes: UTF-8 both ways.
    const carry = typeof this.carry === "string" ? Buffer.from(this.carry, "utf8") : this.carry;
    return this.split(carry.length === 0 ? piece : Buffer.concat([carry, piece]));
  }

  /** At the end of the file: a last line without a line break, for csv-parse ("" if none). */
  end(): Decoded {
    const rest = this.carry;
    this.carry = "";
    return rest;
  }

  private split<T extends Decoded>(input: T): T | undefined {
    // Bytes and text alike: every character looked for is ASCII, one byte in UTF-8.
    const text: Decoded = input;
    const n = text.length;
    const find = (char: number, from: number): number => {
      const at = typeof text === "string" ? text.indexOf(String.fromCharCode(char), from) : text.indexOf(char, from);
      return at < 0 ? n : at;
    };
    const rest = (from: number): T => (typeof text === "string" ? text.slice(from) : text.subarray(from)) as T;
    let start = 0;
    let quote = find(QUOTE, 0);
    let cr = find(CR, 0);
    for (;;) {
      const lf = find(LF, start);
      if (lf === n || lf - start > PLAIN_LINE_LIMIT) break;
      // Only a CRLF's CR: the line is [start, end).
      if (cr >= lf - 1) {
        const end = cr === lf - 1 ? cr : lf;
        const line = typeof text === "string" ? ownString(text.slice(start, end)) : text.toString("utf8", start, end);
        const cells = quote > lf ? line.split(this.delimiter) : splitQuoted(line, this.delimiter);
        if (cells !== undefined) {
          this.records++;
          this.onRecord(cells, false);
          start = lf + 1;
          if (quote < lf) quote = find(QUOTE, start);
          if (cr < lf) cr = find(CR, start);
          continue;
        }
      }
      const end = this.readRecord(text, start);
      if (end === undefined) return rest(start);
      if (end < 0) break;
      start = end + 1;
      quote = find(QUOTE, start);
      cr = find(CR, start);
    }
    if (n - start > PLAIN_LINE_LIMIT) return rest(start);
    this.carry = rest(start);
    return undefined;
  }

  /**
   * A record that is no simple line (a doubled quote, a quoted line break, a CR in a cell),
   * read by csv-parse alone, from `start` to the LF outside quotes that ends it. Returns
   * that LF's index; -1 when the text so far does not hold the record's end; undefined when
   * the stream's csv-parse must read from here on: csv-parse finds this record wrong (it then
   * raises the error itself), or too many records were like this one (csv-parse alone is
   * several times slower per record than the stream's), or it is too long.
   */
  private readRecord(text: Decoded, start: number): number | undefined {
    // Stryker disable next-line all: only how fast; csv-parse reads the rest the same way
    if (++this.others > 64 && this.others * 16 > this.records) return undefined;
    // A quote opens or closes a quoted cell, or is half of a doubled one: either way, a line
    // break after an even number of quotes ends the record (csv-parse checks the rest).
    let inQuotes = false;
    const limit = Math.min(text.length, start + PLAIN_LINE_LIMIT);
    let end = -1;
    for (let i = start; i < limit; i++) {
      const c = typeof text === "string" ? text.charCodeAt(i) : text[i]!;
      if (c === QUOTE) inQuotes = !inQuotes;
      else if (c === LF && !inQuotes) {
        end = i;
        break;
      }
    }
    if (end < 0) return limit < text.length ? undefined : -1;
    let records: string[][];
    try {
      records = parseSync(
        typeof text === "string" ? text.slice(start, end + 1) : text.toString("utf8", start, end + 1),
        this.options,
      );
    } catch {
      return undefined;
    }
    // Stryker disable next-line all: defensive — a text ending at a line break outside quotes that csv-parse reads without an error is one record
    if (records.length !== 1) return undefined;
    this.records++;
    this.onRecord(records[0]!, true);
    return end;
  }
}

/**
 * The cells of a line with quotes, when each quote opens or closes a whole cell and the
 * cell holds no quote itself (`"Smith, Jr.",Ann` or every cell quoted, as some exports
 * write them); undefined for anything else (a doubled quote, a quote inside an unquoted
 * cell, text after a closing quote, a quote not closed on this line), which csv-parse reads.
 */
function splitQuoted(line: string, delimiter: string): string[] | undefined {
  const cells: string[] = [];
  const n = line.length;
  let pos = 0;
  for (;;) {
    if (line.charCodeAt(pos) === QUOTE) {
      const close = line.indexOf('"', pos + 1);
      if (close < 0) return undefined;
      // The closing quote ends the line or is followed by the delimiter (a doubled quote is not).
      if (close + 1 < n && line[close + 1] !== delimiter) return undefined;
      cells.push(line.slice(pos + 1, close));
      if (close + 1 >= n) return cells;
      pos = close + 2;
    } else {
      let next = line.indexOf(delimiter, pos);
      if (next < 0) next = n;
      const quote = line.indexOf('"', pos);
      if (quote >= 0 && quote < next) return undefined;
      cells.push(line.slice(pos, next));
      if (next >= n) return cells;
      pos = next + 1;
    }
  }
}

/**
 * `s` as a string of its own: a slice of a longer string can keep all of it alive (V8 makes
 * slices of 13 characters and more views into their parent). Joining it to another string
 * and slicing that makes V8 copy it into a new string of about its own length.
 */
function ownString(s: string): string {
  return ` ${s}`.slice(1);
}
