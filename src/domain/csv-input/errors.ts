// The one error for a CSV file that cannot be read as a whole (docs/cli-contract.md "Users CSV",
// "Bulk operations"): exit 6 like every local validation failure, nothing is sent.

import { InvalidDataError } from "../../errors.js";

export type CsvFileErrorCode = "EMPTY" | "NO_ROWS" | "ENCODING" | "MISSING_COLUMN" | "DUPLICATE_COLUMN" | "MALFORMED" | "CHANGED";

/**
 * A problem with the file as a whole: nothing in it can be trusted, so no row is checked
 * further. Messages quote at most a short excerpt of the file (see excerpt()), never a
 * whole row: rows hold personal data and a broken file can be one huge "row".
 */
export class CsvFileError extends InvalidDataError {
  readonly code: CsvFileErrorCode;
  /** Spreadsheet row where the problem was found, when it has one. */
  readonly row: number | undefined;
  /** 0-based byte offset in the file, for encoding problems. */
  readonly byteOffset: number | undefined;
  /** Canonical names of the missing or duplicated columns. */
  readonly columns: readonly string[];

  constructor(
    code: CsvFileErrorCode,
    message: string,
    details: { row?: number; byteOffset?: number; columns?: readonly string[]; hint?: string; cause?: unknown } = {},
  ) {
    // CliError takes the hint and the cause from it and ignores the rest.
    super(message, details);
    this.code = code;
    this.row = details.row;
    this.byteOffset = details.byteOffset;
    this.columns = details.columns ?? [];
  }
}

/** Longest excerpt of file content that a message quotes (docs/cli-contract.md "Users CSV"). */
export const EXCERPT_CHARS = 60;

/**
 * `text` quoted for a message: at most `max` characters (an ellipsis marks a cut), line
 * breaks and other control characters escaped so that one cell cannot break or flood a
 * terminal line.
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return JSON.stringify(cut);
}

/** Like excerpt(), but keeps the end of `text`: what comes just before a problem. */
export function excerptEnd(text: string, max = EXCERPT_CHARS): string {
  const cut = text.length > max ? `…${text.slice(text.length - max + 1)}` : text;
  return JSON.stringify(cut);
}
