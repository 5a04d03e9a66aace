// Users CSV: validation (pass 1) and reading of the valid rows (pass 2), both streamed.
//
// `users import` validates the whole file before anything is sent (docs/cli-contract.md: "Nothing
// is sent when local validation fails"), then reads it again to build the batches; holding
// a million rows between the two passes would break the memory budget (< 150 MiB
// for 1,000,000 rows, docs/development.md), so the file is read twice instead. Pass 2 checks every row again
// (duplicates excepted: it takes those from pass 1) and throws a CHANGED error when the
// file no longer matches what pass 1 saw — see readValidUserRows.
//
// Row numbers are spreadsheet row numbers: the header is row 1 and every CSV record counts
// as one row, so a cell with a quoted line break keeps its whole record on one row — as a
// spreadsheet shows it, and as the service numbers the rows of an upload. Blank lines
// count too (a spreadsheet shows them as empty rows) but are skipped.
//
// The rules themselves are in rows.ts; bytes to records (encodings, BOMs, delimiters, line
// ends, Excel's sep= line) in the generic reader, domain/csv-input/reader.ts.
//
// Pure: no file system, network or clock — the caller opens the file and passes its chunks.

import { type InvalidRow, type UserRow, type Delimiter, UsersCsvFileError } from "./model.js";
import { type HeaderLayout, readHeader, RowChecker, type RowVerdict } from "./rows.js";
import { type CsvReadOptions, streamCsvRecords } from "../csv-input/reader.js";
import type { SourceInfo } from "./source.js";
import type { LineEnding } from "../csv-input/dialect.js";

export {
  USER_COLUMNS,
  WHOLE_ROW,
  UsersCsvFileError,
  type UserColumn,
  type UserRow,
  type RowProblem,
  type InvalidRow,
  type Delimiter,
  type FileErrorCode,
} from "./model.js";
export { usersCsvParseOptions } from "./source.js";
export { isValidEmailAddress } from "./rows.js";

export interface ValidationSummary {
  /** The encoding the file was read in (WHATWG name), for pass 2 and the plan. */
  encoding: string;
  delimiter: Delimiter;
  /** Whether the file starts with a byte-order mark, and its line ends: the errors file is written the same way. */
  bom: boolean;
  lineEnding: LineEnding;
  /**
   * The file's columns in file order: canonical names for known columns (whatever their
   * case in the file), the header text for unknown ones. The keys of InvalidRow.cells, and
   * the columns to write to `<file>.errors.csv` before `row` and `errors`.
   */
  columns: string[];
  /** User rows checked: every record after the header except blank ones. */
  totalRows: number;
  validRows: number;
  invalidRowCount: number;
  /** The first `maxInvalidRowsKept` invalid rows, in file order. */
  invalidRows: InvalidRow[];
  /** Spreadsheet rows of every invalid row, ascending (also those not kept). */
  invalidRowNumbers: number[];
  /** Problems over all invalid rows. */
  problemCount: number;
  /** Among valid rows: action Add, action Update, status INACTIVE. */
  adds: number;
  updates: number;
  inactive: number;
  /** Rows whose cells are all empty: counted in row numbers, otherwise ignored. */
  blankRows: number;
  /** How the file was read when it deserves a word, unknown columns ignored, blank rows skipped. */
  warnings: string[];
  /** SHA-256 (hex) of the file's bytes: tells later whether it is still the same file. */
  sha256: string;
  /** Size of the file in bytes. */
  bytes: number;
}

export interface ValidateOptions extends CsvReadOptions {
  /** Invalid rows kept with their cells in the summary; the rest are only counted. Default 1000. */
  maxInvalidRowsKept?: number;
  /**
   * Called with every invalid row, in order, e.g. to write `<file>.errors.csv` while
   * validating; it runs between chunks, never inside the parser. `source`: how the file is
   * written, as far as read (delimiter, BOM, line ends and encoding are known by then).
   */
  onInvalidRow?: (row: InvalidRow, source: Readonly<Partial<SourceInfo>>) => void;
}

export const DEFAULT_INVALID_ROWS_KEPT = 1000;

/**
 * Pass 1: checks every row of the file without keeping them. Throws UsersCsvFileError for
 * a problem with the whole file (empty, no user rows, not UTF-8, not CSV, missing or
 * duplicate columns); reports row problems in the summary.
 */
export async function validateUsersCsv(
  source: AsyncIterable<Uint8Array>,
  options: ValidateOptions = {},
): Promise<ValidationSummary> {
  const keep = options.maxInvalidRowsKept ?? DEFAULT_INVALID_ROWS_KEPT;
  const onInvalidRow = options.onInvalidRow;
  const invalidRows: InvalidRow[] = [];
  const invalidRowNumbers: number[] = [];
  const pending: InvalidRow[] = [];
  let validRows = 0;
  let problemCount = 0;
  let adds = 0;
  let inactive = 0;

  const run = new UsersCsvRun((verdict, cells, row, checker) => {
    if (verdict === "valid") {
      validRows++;
      // USER_COLUMNS order: [6] status, [7] action; both already checked.
      if (checker.values[7] === "Add") adds++;
      if (checker.values[6] === "INACTIVE") inactive++;
      return;
    }
    invalidRowNumbers.push(row);
    problemCount += checker.problems.length;
    const wanted = invalidRows.length < keep;
    // Stryker disable next-line ConditionalExpression: only saves building a row nobody takes
    if (!wanted && onInvalidRow === undefined) return;
    const invalid = checker.invalidRow(cells, row);
    if (wanted) invalidRows.push(invalid);
    pending.push(invalid);
  });

  for await (const _ of streamCsvRecords(source, run.sink, run.control, { encoding: options.encoding })) {
    // Emptied after every chunk, handed over or not: it never holds more than one chunk's rows.
    for (const invalid of pending) onInvalidRow?.(invalid, run.info);
    pending.length = 0;
  }
  const layout = run.finish();

  return {
    encoding: run.info.encoding ?? "utf-8",
    delimiter: run.info.delimiter ?? ",",
    bom: run.info.bom ?? false,
    lineEnding: run.info.lineEnding ?? "lf",
    columns: layout.columns,
    totalRows: validRows + invalidRowNumbers.length,
    validRows,
    invalidRowCount: invalidRowNumbers.length,
    invalidRows,
    invalidRowNumbers,
    problemCount,
    adds,
    updates: validRows - adds,
    inactive,
    blankRows: run.blankRows,
    warnings: run.warnings(layout),
    sha256: run.info.sha256 ?? "",
    bytes: run.info.bytes ?? 0,
  };
}

/** What pass 1 found; a ValidationSummary is one. */
export interface ExpectedRows {
  /** Rows to skip, ascending. */
  invalidRowNumbers: readonly number[];
  validRows: number;
  /** When given, the file must still hash to it (checked when the file ends). */
  sha256?: string;
  /** The encoding pass 1 read the file in (ValidationSummary.encoding): pass 2 must read it the same way. */
  encoding?: string;
}

/**
 * Pass 2: the valid rows, in file order, values trimmed, the rows pass 1 found invalid
 * skipped. Every row is checked again by the row rules, except that duplicates are taken
 * from pass 1 (the skip list) rather than detected again: that keeps pass 2 free of the
 * email index, so both passes fit the memory budget in one process.
 *
 * If the file is no longer what pass 1 saw, it throws a CHANGED UsersCsvFileError: at the
 * row, when a row it should yield breaks a rule or a skipped row is gone; at the end, for
 * other row counts or (with `expected.sha256`) other bytes. So a caller that must not act
 * on a changed file reads pass 2 to the end (e.g. to record the batch hashes in the
 * manifest) before uploading anything.
 */
export async function* readValidUserRows(
  source: AsyncIterable<Uint8Array>,
  expected: ExpectedRows,
): AsyncGenerator<UserRow, void, undefined> {
  const skip = expected.invalidRowNumbers;
  const queue: UserRow[] = [];
  let k = 0;
  let valid = 0;
  const run = new UsersCsvRun(
    (verdict, _cells, row, checker) => {
      // A skipped row that is no longer there (blank now, or the rows moved); none left to skip: Infinity.
      if ((skip[k] ?? Infinity) < row) return run.fail(changed(skip[k]));
      if (skip[k] === row) {
        k++;
        return;
      }
      if (verdict === "invalid" || ++valid > expected.validRows) return run.fail(changed(row));
      queue.push(checker.userRow(row));
    },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: pass 1's skip list holds every later duplicate already; this only spares the email index's memory
    { detectDuplicates: false },
  );
  for await (const _ of streamCsvRecords(source, run.sink, run.control, { encoding: expected.encoding })) {
    // The sink only runs while the parser is fed, i.e. not while this loop is suspended.
    for (const user of queue) yield user;
    queue.length = 0;
  }
  run.finish();
  if (valid !== expected.validRows || k !== skip.length) throw changed(undefined);
  if (expected.sha256 !== undefined && run.info.sha256 !== expected.sha256) throw changed(undefined);
}

function changed(row: number | undefined): UsersCsvFileError {
  const where = row === undefined ? "" : ` (row ${row} differs)`;
  return new UsersCsvFileError("CHANGED", `the file changed after it was validated${where}`, {
    row,
    hint: "run the import again so that the file is validated as it is now",
  });
}

type RowHandler = (verdict: Exclude<RowVerdict, "blank">, cells: string[], row: number, checker: RowChecker) => void;

/** State of one pass over one file: row numbering, header, blank rows, file errors. */
class UsersCsvRun {
  private checker: RowChecker | undefined;
  private failure: UsersCsvFileError | undefined;
  private hasDataRows = false;
  blankRows = 0;
  private firstBlankRow = 0;
  readonly info: Partial<SourceInfo> = {};
  readonly control = {
    failure: (): UsersCsvFileError | undefined => this.failure,
    info: this.info,
  };

  constructor(
    private readonly onRow: RowHandler,
    private readonly options: { detectDuplicates: boolean } = { detectDuplicates: true },
  ) {}

  /** Stops the run with a file-level error, raised by the driver after the current chunk. */
  fail(err: UsersCsvFileError): void {
    this.failure ??= err;
  }

  /** Runs inside csv-parse's push: must not throw. */
  readonly sink = (cells: string[], row: number): void => {
    if (this.failure !== undefined) return;
    const checker = this.checker;
    if (checker === undefined) {
      // Blank lines before the header are skipped like blank rows later on.
      if (cells.every((c) => c.trim() === "")) return;
      try {
        this.checker = new RowChecker(readHeader(cells, row), this.options);
      } catch (err) {
        // Stryker disable next-line all: defensive — readHeader throws only file errors; anything else must still not escape csv-parse's push
        if (err instanceof UsersCsvFileError) this.failure = err;
        else this.failure = new UsersCsvFileError("MALFORMED", `row ${row}: ${String(err)}`, { row, cause: err });
      }
      return;
    }
    const verdict = checker.check(cells, row);
    if (verdict === "blank") {
      if (this.blankRows++ === 0) this.firstBlankRow = row;
      return;
    }
    this.hasDataRows = true;
    this.onRow(verdict, cells, row, checker);
  };

  /** After the last record: the header layout, or why the file holds no users. */
  finish(): HeaderLayout {
    if (this.failure !== undefined) throw this.failure;
    if (this.checker === undefined) {
      throw new UsersCsvFileError("EMPTY", "file is empty", {
        hint: "the first row must be the header firstName,lastName,username,email,role,teamName,status,action",
      });
    }
    if (!this.hasDataRows) {
      throw new UsersCsvFileError("NO_ROWS", "no user rows: the file has a header but no users");
    }
    return this.checker.layout;
  }

  /** After finish(): the reader's notes, the header's warnings, the blank rows. */
  warnings(layout: HeaderLayout): string[] {
    // Stryker disable next-line ArrayDeclaration: the reader sets notes before the first record
    const warnings = [...(this.info.notes ?? []), ...layout.warnings];
    if (this.blankRows > 0) {
      warnings.push(
        this.blankRows === 1
          ? `row ${this.firstBlankRow} is blank and was skipped`
          : `${this.blankRows} blank rows were skipped (the first is row ${this.firstBlankRow})`,
      );
    }
    return warnings;
  }
}
