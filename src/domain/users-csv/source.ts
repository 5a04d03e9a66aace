// From bytes to records: UTF-8 check, BOM, delimiter detection and csv-parse, streamed.
// Pure: the caller opens the file and hands over its chunks.

import { createHash } from "node:crypto";
import { parse, type Options as CsvParseOptions, type Parser } from "csv-parse";
import { type Delimiter, UsersCsvFileError } from "./model.js";
import { Utf8StreamChecker } from "./utf8.js";

/**
 * The csv-parse options used for users files, exported so that the benchmark measures bare
 * csv-parse with exactly these.
 * - relax_column_count: a row with the wrong number of cells is a row error, not the end
 *   of the file.
 * - record_delimiter: LF and CRLF, also mixed in one file (csv-parse's auto-detection
 *   locks onto the first one it sees and would glue the lines of a mixed file together).
 * - max_record_size: an unclosed quote would otherwise swallow the rest of a 100 MB file
 *   into one cell; 1 MiB is far beyond any real row.
 * - no bom: the BOM is removed before parsing, because delimiter detection needs it gone.
 */
export function usersCsvParseOptions(delimiter: Delimiter): CsvParseOptions {
  return {
    delimiter,
    relax_column_count: true,
    record_delimiter: ["\r\n", "\n"],
    max_record_size: MAX_RECORD_CHARS,
  };
}

export const MAX_RECORD_CHARS = 1 << 20;
/** How far to look for the header's end before choosing the delimiter anyway. */
const HEADER_SCAN_LIMIT = 1 << 20;

export interface SourceInfo {
  delimiter: Delimiter;
  /** SHA-256 (hex) of every byte of the file, BOM included; set when the stream ends. */
  sha256: string;
  /** Size of the file in bytes; set when the stream ends. */
  bytes: number;
}

export type RecordSink = (cells: string[]) => void;

/**
 * Streams `source` through csv-parse, calling `sink` for each record in order (the first
 * is the header). Yields after each chunk, so a caller can hand on what the sink
 * collected before more is read. A sink must never throw, since it runs inside csv-parse's
 * push: to stop the run with a file-level error it records one, which
 * `control.failure()` returns and this function throws after the current chunk.
 */
export async function* parseUserRecords(
  source: AsyncIterable<Uint8Array>,
  sink: RecordSink,
  control: { failure: () => UsersCsvFileError | undefined; recordsSeen: () => number; info: Partial<SourceInfo> },
): AsyncGenerator<void, void, undefined> {
  const utf8 = new Utf8StreamChecker();
  const hash = createHash("sha256");
  let bytes = 0;
  let head: Uint8Array[] | undefined = [];
  let headLength = 0;
  let parser: Parser | undefined;
  let parseError: unknown;
  let ended: Promise<void> | undefined;

  // The row being parsed when something went wrong: csv-parse's own count of finished
  // records, which (unlike the records our sink has seen) does not depend on when the
  // stream delivers them.
  const currentRow = (): number => (parser?.info.records ?? control.recordsSeen()) + 1;

  const check = (): void => {
    const failure = control.failure();
    if (failure !== undefined) throw failure;
    if (parseError !== undefined) throw malformed(parseError, currentRow());
  };

  const start = (headBytes: Uint8Array): Uint8Array => {
    const body = stripBom(headBytes);
    const delimiter = detectDelimiter(body);
    control.info.delimiter = delimiter;
    const p = parse(usersCsvParseOptions(delimiter));
    p.on("data", sink);
    p.on("error", (err: unknown) => {
      parseError ??= err;
    });
    ended = new Promise<void>((resolve) => {
      p.once("end", resolve);
      p.once("error", () => resolve());
      p.once("close", resolve);
    });
    parser = p;
    return body;
  };

  const write = async (chunk: Uint8Array): Promise<void> => {
    const p = parser!;
    if (chunk.length === 0) return;
    if (!p.write(toBuffer(chunk))) {
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
    check();
  };

  try {
    for await (const chunk of source) {
      hash.update(chunk);
      const result = utf8.push(chunk);
      if (!result.ok) {
        if (head !== undefined) {
          const body = start(concat(head, headLength));
          head = undefined;
          await write(body);
        }
        // Parse what precedes the bad byte, so that the row holding it is known.
        await write(result.validPrefix);
        check();
        throw encodingError(result.offset, currentRow());
      }
      bytes += chunk.length;
      if (head !== undefined) {
        head.push(result.bytes);
        headLength += result.bytes.length;
        if (!headerLineComplete(head, headLength)) continue;
        const body = start(concat(head, headLength));
        head = undefined;
        await write(body);
      } else {
        await write(result.bytes);
      }
      yield;
    }
    const truncated = utf8.end();
    if (head !== undefined) {
      const body = start(concat(head, headLength));
      head = undefined;
      await write(body);
    }
    if (truncated >= 0) {
      check();
      throw encodingError(truncated, currentRow());
    }
    parser!.end();
    await ended;
    check();
    control.info.sha256 = hash.digest("hex");
    control.info.bytes = bytes;
    yield;
  } finally {
    if (parser !== undefined && !parser.destroyed) parser.destroy();
  }
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function stripBom(bytes: Uint8Array): Uint8Array {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;

/** Whether the buffered head holds the whole first non-blank line (or is big enough). */
function headerLineComplete(parts: Uint8Array[], length: number): boolean {
  if (length >= HEADER_SCAN_LIMIT) return true;
  return headerLineEnd(concat(parts, length)) >= 0;
}

/**
 * Start and end of the first line with content, leading blank lines skipped; a newline
 * inside quotes does not end it. End is -1 when the line's end was not seen yet.
 */
function headerLine(bytes: Uint8Array): { start: number; end: number } {
  let start = 0;
  let inQuotes = false;
  let content = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) inQuotes = !inQuotes;
    if (!inQuotes && b === LF) {
      if (content) return { start, end: i };
      start = i + 1;
      continue;
    }
    if (b !== CR && b !== 0x20 && b !== 0x09) content = true;
  }
  return { start, end: -1 };
}

function headerLineEnd(bytes: Uint8Array): number {
  return headerLine(bytes).end;
}

/**
 * The delimiter is whichever of `,` and `;` occurs more often outside quotes in the header
 * line; a tie (both absent: a one-column header, reported as missing columns) means `,`.
 */
export function detectDelimiter(bytes: Uint8Array): Delimiter {
  const { start, end } = headerLine(bytes);
  const stop = end < 0 ? bytes.length : end;
  let commas = 0;
  let semicolons = 0;
  let inQuotes = false;
  for (let i = start; i < stop; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) inQuotes = !inQuotes;
    else if (!inQuotes) {
      if (b === COMMA) commas++;
      else if (b === SEMICOLON) semicolons++;
    }
  }
  return semicolons > commas ? ";" : ",";
}

function encodingError(offset: number, row: number): UsersCsvFileError {
  return new UsersCsvFileError(
    "ENCODING",
    `row ${row}: the file is not valid UTF-8 (invalid byte sequence at byte offset ${offset})`,
    { row, byteOffset: offset, hint: 'save the file as UTF-8 (in Excel: "CSV UTF-8")' },
  );
}

const PARSE_REASONS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted cell is never closed",
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by other text; double a quote inside a quoted cell ("")',
  INVALID_OPENING_QUOTE: "a quote appears inside an unquoted cell; quote the whole cell and double the quote",
  CSV_MAX_RECORD_SIZE: "a row is larger than 1 MiB, probably because of an unclosed quote",
};

function malformed(err: unknown, row: number): UsersCsvFileError {
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  const reason = PARSE_REASONS[code] ?? (err instanceof Error ? err.message : String(err));
  return new UsersCsvFileError("MALFORMED", `row ${row}: the file is not valid CSV: ${reason}`, { row, cause: err });
}
