// Shapes shared by the users-CSV modules. Import them from "./validate.js", which
// re-exports everything public; this file exists only to keep the helpers free of cycles.

/** The service's columns (docs/service-spec.md §2 "User", §4.8), in the canonical order used for uploads. */
export const USER_COLUMNS = ["firstName", "lastName", "username", "email", "role", "teamName", "status", "action"] as const;
export type UserColumn = (typeof USER_COLUMNS)[number];

export type { Delimiter } from "../csv-input/dialect.js";

/** A valid row, values trimmed, ready to upload. `row` is its spreadsheet row (header = 1). */
export type UserRow = Record<UserColumn, string> & { row: number };

/**
 * One problem with one row. `field` is a canonical column name, or "(row)" when the row as
 * a whole is wrong (its number of cells).
 */
export interface RowProblem {
  row: number;
  field: string;
  message: string;
}

/** The `field` of a problem that concerns the whole row rather than one cell. */
export const WHOLE_ROW = "(row)";

export interface InvalidRow {
  row: number;
  /**
   * The row's cells exactly as in the file (not trimmed), keyed by the summary's `columns`
   * (canonical names for known columns, the header text for unknown ones). A short row has
   * "" for its missing cells.
   */
  cells: Record<string, string>;
  /** Cells beyond the header's width, when the row has too many. */
  extraCells?: string[];
  problems: RowProblem[];
}

/**
 * A problem with the file as a whole (exit 6): the generic CSV reader's error, under the
 * name the users code has always used.
 */
export { CsvFileError as UsersCsvFileError, type CsvFileErrorCode as FileErrorCode } from "../csv-input/errors.js";
