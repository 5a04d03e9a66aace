// Delimiter, line ending and Excel's `sep=` line, decided from the start of the decoded text
// (docs/cli-contract.md "Users CSV": LF, CRLF or CR line endings; `,`, `;` or tab; an Excel
// `sep=;` first line).
//
// - `sep=X` as the first line (Excel writes it, and honours it when opening a file) names
//   the delimiter: `,`, `;`, a tab, or the two characters `\t`. Excel does not show that
//   line, so it is no row: the header stays row 1. Written in quotes (`"sep=;"`, as some
//   tools re-save it) it counts too.
// - Otherwise the delimiter is whichever of `,`, `;` and tab occurs most often outside
//   quotes in the header line (the first line with content); a tie prefers `,`, then `;`.
//   Header names never contain these characters, so the count cannot be fooled by data.
// - The line ending is the one that ends the header line. LF and CRLF files are split on
//   both (a file mixing them is common after hand edits); a file whose header ends with a
//   lone CR (Excel 2008-2011 for Mac, "CSV (Macintosh)") is split on CR as well. CR is not
//   a record break in LF/CRLF files, where a stray CR inside a cell is an error instead.

import type { Options as CsvParseOptions } from "csv-parse";
import { CsvFileError, excerpt } from "./errors.js";

export type Delimiter = "," | ";" | "\t";
export type LineEnding = "lf" | "crlf" | "cr";

export interface Dialect {
  delimiter: Delimiter;
  lineEnding: LineEnding;
  /** Whether the file starts with Excel's `sep=` line. */
  sepLine: boolean;
  /** Characters before the first record: the `sep=` line and its line break (ASCII, so also its bytes in UTF-8). */
  skip: number;
}

/** How much text to look at for the header line's end before deciding anyway. */
export const HEADER_SCAN_LIMIT = 1 << 20;
/** Longest record csv-parse accepts: an unclosed quote would otherwise swallow a 100 MB file into one cell. */
export const MAX_RECORD_CHARS = 1 << 20;

/**
 * The csv-parse options for a dialect (exported so that the benchmark measures bare
 * csv-parse with exactly these).
 * - relax_column_count: a row with the wrong number of cells is a row error, not the end of the file.
 * - record_delimiter: see the top of this file; csv-parse's own detection locks onto the
 *   first ending it sees and would glue the lines of a mixed file together.
 * - no bom: the BOM is removed before parsing, by the decoding step.
 */
export function csvParseOptions(dialect: Pick<Dialect, "delimiter" | "lineEnding">): CsvParseOptions {
  return {
    delimiter: dialect.delimiter,
    relax_column_count: true,
    record_delimiter: dialect.lineEnding === "cr" ? ["\r\n", "\r", "\n"] : ["\r\n", "\n"],
    max_record_size: MAX_RECORD_CHARS,
  };
}

const SEP_LINE = /^(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[^\r\n]))[ ]*(?:\r\n|\n|\r|$)/i;

/**
 * The dialect of a file whose decoded text starts with `head`, or undefined when more
 * text is needed to see the header line's end. `atEnd`: no more text will be looked at —
 * `head` is all there is, or HEADER_SCAN_LIMIT characters of it (the reader's call).
 */
export function detectDialect(head: string, atEnd: boolean): Dialect | undefined {
  let skip = 0;
  let sep: Delimiter | undefined;
  // Stryker disable next-line Regex: without ^, a later "sep=" only reaches SEP_LINE, which is anchored (and without a line break headerLine waits too): same answer
  const maybeSep = /^"?sep=/i.test(head);
  // Until the first line break is seen (and a CR's possible LF after it), a sep= line may still be growing.
  if (maybeSep && !atEnd && head.length < 64 && !/\n|\r[^\n]/.test(head)) return undefined;
  const sepMatch = maybeSep ? SEP_LINE.exec(head) : null;
  if (sepMatch !== null) {
    const named = sepMatch[1] ?? sepMatch[2]!;
    const char = named === "\\t" ? "\t" : named;
    if (char !== "," && char !== ";" && char !== "\t") {
      throw new CsvFileError(
        "MALFORMED",
        `the first line ${excerpt(sepMatch[0].trimEnd())} names the delimiter ${excerpt(char)}`,
        {
          hint: "use sep=, or sep=; or sep= followed by a tab, or remove that line",
        },
      );
    }
    sep = char;
    skip = sepMatch[0].length;
  }
  // (A shorter start of "sep=", like "se", has no line break yet either: headerLine waits.)

  const line = headerLine(head, skip, atEnd);
  if (line === undefined) return undefined;
  const delimiter = sep ?? countDelimiters(head.slice(line.start, line.end));
  return { delimiter, lineEnding: line.ending, sepLine: sep !== undefined, skip };
}

/**
 * Where the first line with content starts and ends (blank lines skipped; a line break
 * inside quotes does not end it), and the line break that ends it.
 */
function headerLine(text: string, from: number, atEnd: boolean): { start: number; end: number; ending: LineEnding } | undefined {
  let start = from;
  let inQuotes = false;
  let content = false;
  const n = text.length;
  // Stryker disable next-line EqualityOperator: a step past the end reads NaN, which only sets `content`, unread after the loop
  for (let i = from; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) inQuotes = !inQuotes;
    // Nothing ends the line inside quotes; the closing quote is content (or the text ends first).
    if (inQuotes) continue;
    if (c === 0x0a || c === 0x0d) {
      let ending: LineEnding = "lf";
      if (c === 0x0d) {
        // A CR at the end of the text so far may be the first half of a CRLF.
        if (i + 1 >= n && !atEnd) return undefined;
        ending = text.charCodeAt(i + 1) === 0x0a ? "crlf" : "cr";
      }
      if (content) return { start, end: i, ending };
      // A blank line: the header starts after it (the LF of a CRLF is one more empty line).
      start = i + 1;
      continue;
    }
    if (c !== 0x20 && c !== 0x09) content = true;
  }
  if (!atEnd) return undefined;
  return { start, end: n, ending: "lf" };
}

function countDelimiters(line: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let tabs = 0;
  let inQuotes = false;
  for (const c of line) {
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes) {
      if (c === ",") commas++;
      else if (c === ";") semicolons++;
      else if (c === "\t") tabs++;
    }
  }
  if (commas >= semicolons && commas >= tabs) return ",";
  return semicolons >= tabs ? ";" : "\t";
}
