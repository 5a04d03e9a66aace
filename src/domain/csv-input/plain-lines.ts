// The reader's fast path (docs/architecture.md, "Reading CSV"): simple lines are split here,
// and csv-parse takes over at the first line that is not that simple.
//
// Almost every line of a roster holds no quote, or quotes only around whole cells, and for
// such a line CSV is as simple as it gets: its cells are the text between delimiters. csv-parse looks at every character
// through its general state machine, which made it most of the cost of `users import`
// (about 3.5 s of CPU for a million rows; splitting the same lines here takes 0.7 s).
//
// A line is split here only when csv-parse, with the reader's options (dialect.ts:
// csvParseOptions for LF/CRLF files), would read it as exactly these cells:
// - it ends with LF or CRLF (a last line without a line break is left to csv-parse);
// - it holds no quote character (csv-parse's quote and escape are both `"`), or only quotes
//   that open and close whole cells holding no quote (splitQuoted);
// - it holds no CR except the one of a CRLF ending;
// - it is at most PLAIN_LINE_LIMIT long (far below csv-parse's max_record_size, whose
//   error csv-parse then raises itself).
// An empty line is the one empty cell csv-parse gives for it too ([""]). Everything from
// the first line that is not plain on goes to csv-parse: it starts there at a record's
// start, so it reads the rest exactly as it would have read it after the lines before.
// test/unit/csv-plain-lines.test.ts compares both readers on generated files.
//
// Each line is made a string of its own before it is split, so that a cell kept for long
// (an invalid row in a report) holds on to its line only, never to a whole chunk.

import type { Decoded } from "./encoding.js";

/** Longest line split here (characters, or bytes of UTF-8); longer ones go to csv-parse. */
export const PLAIN_LINE_LIMIT = 1 << 16;

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

export class PlainLineSplitter {
  /** The start of a line whose end has not arrived yet. */
  private carry: Decoded = "";

  constructor(
    private readonly delimiter: string,
    /** Gets the cells of each plain line, in order. */
    private readonly onRecord: (cells: string[]) => void,
  ) {}

  /**
   * Splits the plain lines of the text so far. Returns undefined while every complete line
   * was plain; otherwise the text from the start of the first line that is not, which
   * csv-parse must read from there on (this splitter is then done).
   * `piece`: UTF-8 bytes ending on a whole character, or text.
   */
  push(piece: Decoded): Decoded | undefined {
    if (typeof piece === "string") {
      const text = this.carry.length === 0 ? piece : this.carry.toString() + piece;
      return this.splitText(text);
    }
    // Only the first piece (the header's, read as text) can leave text before bytes: UTF-8 both ways.
    const carry = typeof this.carry === "string" ? Buffer.from(this.carry, "utf8") : this.carry;
    return this.splitBytes(carry.length === 0 ? piece : Buffer.concat([carry, piece]));
  }

  /** At the end of the file: a last line without a line break, for csv-parse ("" if none). */
  end(): Decoded {
    const rest = this.carry;
    this.carry = "";
    return rest;
  }

  private splitBytes(buf: Buffer): Buffer | undefined {
    const n = buf.length;
    let start = 0;
    let quote = buf.indexOf(QUOTE);
    if (quote < 0) quote = n;
    let cr = buf.indexOf(CR);
    if (cr < 0) cr = n;
    for (;;) {
      const lf = buf.indexOf(LF, start);
      if (lf < 0) break;
      let end = lf;
      if (cr < lf) {
        if (cr !== lf - 1) return buf.subarray(start);
        end = cr;
        cr = buf.indexOf(CR, lf + 1);
        if (cr < 0) cr = n;
      }
      if (end - start > PLAIN_LINE_LIMIT) return buf.subarray(start);
      const line = buf.toString("utf8", start, end);
      if (quote < lf) {
        const cells = splitQuoted(line, this.delimiter);
        if (cells === undefined) return buf.subarray(start);
        this.onRecord(cells);
        quote = buf.indexOf(QUOTE, lf + 1);
        if (quote < 0) quote = n;
      } else {
        this.onRecord(line.split(this.delimiter));
      }
      start = lf + 1;
    }
    if (n - start > PLAIN_LINE_LIMIT) return buf.subarray(start);
    this.carry = buf.subarray(start);
    return undefined;
  }

  private splitText(text: string): string | undefined {
    const n = text.length;
    let start = 0;
    let quote = text.indexOf('"');
    if (quote < 0) quote = n;
    let cr = text.indexOf("\r");
    if (cr < 0) cr = n;
    for (;;) {
      const lf = text.indexOf("\n", start);
      if (lf < 0) break;
      let end = lf;
      if (cr < lf) {
        if (cr !== lf - 1) return text.slice(start);
        end = cr;
        cr = text.indexOf("\r", lf + 1);
        if (cr < 0) cr = n;
      }
      if (end - start > PLAIN_LINE_LIMIT) return text.slice(start);
      const line = ownString(text.slice(start, end));
      if (quote < lf) {
        const cells = splitQuoted(line, this.delimiter);
        if (cells === undefined) return text.slice(start);
        this.onRecord(cells);
        quote = text.indexOf('"', lf + 1);
        if (quote < 0) quote = n;
      } else {
        this.onRecord(line.split(this.delimiter));
      }
      start = lf + 1;
    }
    if (n - start > PLAIN_LINE_LIMIT) return text.slice(start);
    this.carry = text.slice(start);
    return undefined;
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
