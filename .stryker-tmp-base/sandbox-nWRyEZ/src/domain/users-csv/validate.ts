// @ts-nocheck
// Users CSV: validation (pass 1) and reading of the valid rows (pass 2), both streamed.
//
// `users import` validates the whole file before anything is sent (docs/cli-contract.md: "Nothing
// is sent when local validation fails"), then reads it again to build the batches; holding
// a million rows between the two passes would break the memory budget (issue 7: < 150 MiB
// for 1,000,000 rows), so the file is read twice instead. Pass 2 checks every row again
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
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { type InvalidRow, type RowProblem, type UserRow, type Delimiter, UsersCsvFileError } from "./model.js";
import { type HeaderLayout, readHeader, RowChecker, type RowVerdict } from "./rows.js";
import { type CsvReadOptions, streamCsvRecords } from "../csv-input/reader.js";
import type { SourceInfo } from "./source.js";
export { USER_COLUMNS, REQUIRED_COLUMNS, WHOLE_ROW, UsersCsvFileError, type UserColumn, type UserRow, type RowProblem, type InvalidRow, type Delimiter, type FileErrorCode } from "./model.js";
export { usersCsvParseOptions } from "./source.js";
export { isValidEmailAddress } from "./rows.js";
export interface ValidationSummary {
  /** The encoding the file was read in (WHATWG name), for pass 2 and the plan. */
  encoding: string;
  delimiter: Delimiter;
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
   * validating; it runs between chunks, never inside the parser.
   */
  onInvalidRow?: (row: InvalidRow) => void;
}
export const DEFAULT_INVALID_ROWS_KEPT = 1000;

/**
 * Pass 1: checks every row of the file without keeping them. Throws UsersCsvFileError for
 * a problem with the whole file (empty, no user rows, not UTF-8, not CSV, missing or
 * duplicate columns); reports row problems in the summary.
 */
export async function validateUsersCsv(source: AsyncIterable<Uint8Array>, options: ValidateOptions = {}): Promise<ValidationSummary> {
  if (stryMutAct_9fa48("5533")) {
    {}
  } else {
    stryCov_9fa48("5533");
    const keep = stryMutAct_9fa48("5534") ? options.maxInvalidRowsKept && DEFAULT_INVALID_ROWS_KEPT : (stryCov_9fa48("5534"), options.maxInvalidRowsKept ?? DEFAULT_INVALID_ROWS_KEPT);
    const onInvalidRow = options.onInvalidRow;
    const invalidRows: InvalidRow[] = stryMutAct_9fa48("5535") ? ["Stryker was here"] : (stryCov_9fa48("5535"), []);
    const invalidRowNumbers: number[] = stryMutAct_9fa48("5536") ? ["Stryker was here"] : (stryCov_9fa48("5536"), []);
    const pending: InvalidRow[] = stryMutAct_9fa48("5537") ? ["Stryker was here"] : (stryCov_9fa48("5537"), []);
    let validRows = 0;
    let problemCount = 0;
    let adds = 0;
    let inactive = 0;
    const run = new UsersCsvRun((verdict, cells, row, checker) => {
      if (stryMutAct_9fa48("5538")) {
        {}
      } else {
        stryCov_9fa48("5538");
        if (stryMutAct_9fa48("5541") ? verdict !== "valid" : stryMutAct_9fa48("5540") ? false : stryMutAct_9fa48("5539") ? true : (stryCov_9fa48("5539", "5540", "5541"), verdict === (stryMutAct_9fa48("5542") ? "" : (stryCov_9fa48("5542"), "valid")))) {
          if (stryMutAct_9fa48("5543")) {
            {}
          } else {
            stryCov_9fa48("5543");
            stryMutAct_9fa48("5544") ? validRows-- : (stryCov_9fa48("5544"), validRows++);
            // USER_COLUMNS order: [6] status, [7] action; both already checked.
            if (stryMutAct_9fa48("5547") ? checker.values[7] !== "Add" : stryMutAct_9fa48("5546") ? false : stryMutAct_9fa48("5545") ? true : (stryCov_9fa48("5545", "5546", "5547"), checker.values[7] === (stryMutAct_9fa48("5548") ? "" : (stryCov_9fa48("5548"), "Add")))) stryMutAct_9fa48("5549") ? adds-- : (stryCov_9fa48("5549"), adds++);
            if (stryMutAct_9fa48("5552") ? checker.values[6] !== "INACTIVE" : stryMutAct_9fa48("5551") ? false : stryMutAct_9fa48("5550") ? true : (stryCov_9fa48("5550", "5551", "5552"), checker.values[6] === (stryMutAct_9fa48("5553") ? "" : (stryCov_9fa48("5553"), "INACTIVE")))) stryMutAct_9fa48("5554") ? inactive-- : (stryCov_9fa48("5554"), inactive++);
            return;
          }
        }
        invalidRowNumbers.push(row);
        stryMutAct_9fa48("5555") ? problemCount -= checker.problems.length : (stryCov_9fa48("5555"), problemCount += checker.problems.length);
        const wanted = stryMutAct_9fa48("5559") ? invalidRows.length >= keep : stryMutAct_9fa48("5558") ? invalidRows.length <= keep : stryMutAct_9fa48("5557") ? false : stryMutAct_9fa48("5556") ? true : (stryCov_9fa48("5556", "5557", "5558", "5559"), invalidRows.length < keep);
        if (stryMutAct_9fa48("5562") ? !wanted || onInvalidRow === undefined : stryMutAct_9fa48("5561") ? false : stryMutAct_9fa48("5560") ? true : (stryCov_9fa48("5560", "5561", "5562"), (stryMutAct_9fa48("5563") ? wanted : (stryCov_9fa48("5563"), !wanted)) && (stryMutAct_9fa48("5565") ? onInvalidRow !== undefined : stryMutAct_9fa48("5564") ? true : (stryCov_9fa48("5564", "5565"), onInvalidRow === undefined)))) return;
        const invalid = checker.invalidRow(cells, row);
        if (stryMutAct_9fa48("5567") ? false : stryMutAct_9fa48("5566") ? true : (stryCov_9fa48("5566", "5567"), wanted)) invalidRows.push(invalid);
        if (stryMutAct_9fa48("5570") ? onInvalidRow === undefined : stryMutAct_9fa48("5569") ? false : stryMutAct_9fa48("5568") ? true : (stryCov_9fa48("5568", "5569", "5570"), onInvalidRow !== undefined)) pending.push(invalid);
      }
    });
    for await (const _ of streamCsvRecords(source, run.sink, run.control, stryMutAct_9fa48("5571") ? {} : (stryCov_9fa48("5571"), {
      encoding: options.encoding
    }))) {
      if (stryMutAct_9fa48("5572")) {
        {}
      } else {
        stryCov_9fa48("5572");
        if (stryMutAct_9fa48("5575") ? onInvalidRow === undefined : stryMutAct_9fa48("5574") ? false : stryMutAct_9fa48("5573") ? true : (stryCov_9fa48("5573", "5574", "5575"), onInvalidRow !== undefined)) {
          if (stryMutAct_9fa48("5576")) {
            {}
          } else {
            stryCov_9fa48("5576");
            for (const invalid of pending) onInvalidRow(invalid);
            pending.length = 0;
          }
        }
      }
    }
    const layout = run.finish();
    return stryMutAct_9fa48("5577") ? {} : (stryCov_9fa48("5577"), {
      encoding: stryMutAct_9fa48("5578") ? run.info.encoding && "utf-8" : (stryCov_9fa48("5578"), run.info.encoding ?? (stryMutAct_9fa48("5579") ? "" : (stryCov_9fa48("5579"), "utf-8"))),
      delimiter: stryMutAct_9fa48("5580") ? run.info.delimiter && "," : (stryCov_9fa48("5580"), run.info.delimiter ?? (stryMutAct_9fa48("5581") ? "" : (stryCov_9fa48("5581"), ","))),
      columns: layout.columns,
      totalRows: stryMutAct_9fa48("5582") ? validRows - invalidRowNumbers.length : (stryCov_9fa48("5582"), validRows + invalidRowNumbers.length),
      validRows,
      invalidRowCount: invalidRowNumbers.length,
      invalidRows,
      invalidRowNumbers,
      problemCount,
      adds,
      updates: stryMutAct_9fa48("5583") ? validRows + adds : (stryCov_9fa48("5583"), validRows - adds),
      inactive,
      blankRows: run.blankRows,
      warnings: run.warnings(),
      sha256: stryMutAct_9fa48("5584") ? run.info.sha256 && "" : (stryCov_9fa48("5584"), run.info.sha256 ?? (stryMutAct_9fa48("5585") ? "Stryker was here!" : (stryCov_9fa48("5585"), ""))),
      bytes: stryMutAct_9fa48("5586") ? run.info.bytes && 0 : (stryCov_9fa48("5586"), run.info.bytes ?? 0)
    });
  }
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
export async function* readValidUserRows(source: AsyncIterable<Uint8Array>, expected: ExpectedRows): AsyncGenerator<UserRow, void, undefined> {
  if (stryMutAct_9fa48("5587")) {
    {}
  } else {
    stryCov_9fa48("5587");
    const skip = expected.invalidRowNumbers;
    const queue: UserRow[] = stryMutAct_9fa48("5588") ? ["Stryker was here"] : (stryCov_9fa48("5588"), []);
    let k = 0;
    let valid = 0;
    const run = new UsersCsvRun((verdict, _cells, row, checker) => {
      if (stryMutAct_9fa48("5589")) {
        {}
      } else {
        stryCov_9fa48("5589");
        // A skipped row that is no longer there (blank now, or the rows moved).
        if (stryMutAct_9fa48("5592") ? k < skip.length || skip[k]! < row : stryMutAct_9fa48("5591") ? false : stryMutAct_9fa48("5590") ? true : (stryCov_9fa48("5590", "5591", "5592"), (stryMutAct_9fa48("5595") ? k >= skip.length : stryMutAct_9fa48("5594") ? k <= skip.length : stryMutAct_9fa48("5593") ? true : (stryCov_9fa48("5593", "5594", "5595"), k < skip.length)) && (stryMutAct_9fa48("5598") ? skip[k]! >= row : stryMutAct_9fa48("5597") ? skip[k]! <= row : stryMutAct_9fa48("5596") ? true : (stryCov_9fa48("5596", "5597", "5598"), skip[k]! < row)))) return run.fail(changed(skip[k]));
        if (stryMutAct_9fa48("5601") ? skip[k] !== row : stryMutAct_9fa48("5600") ? false : stryMutAct_9fa48("5599") ? true : (stryCov_9fa48("5599", "5600", "5601"), skip[k] === row)) {
          if (stryMutAct_9fa48("5602")) {
            {}
          } else {
            stryCov_9fa48("5602");
            stryMutAct_9fa48("5603") ? k-- : (stryCov_9fa48("5603"), k++);
            return;
          }
        }
        if (stryMutAct_9fa48("5606") ? verdict === "invalid" && ++valid > expected.validRows : stryMutAct_9fa48("5605") ? false : stryMutAct_9fa48("5604") ? true : (stryCov_9fa48("5604", "5605", "5606"), (stryMutAct_9fa48("5608") ? verdict !== "invalid" : stryMutAct_9fa48("5607") ? false : (stryCov_9fa48("5607", "5608"), verdict === (stryMutAct_9fa48("5609") ? "" : (stryCov_9fa48("5609"), "invalid")))) || (stryMutAct_9fa48("5612") ? ++valid <= expected.validRows : stryMutAct_9fa48("5611") ? ++valid >= expected.validRows : stryMutAct_9fa48("5610") ? false : (stryCov_9fa48("5610", "5611", "5612"), (stryMutAct_9fa48("5613") ? --valid : (stryCov_9fa48("5613"), ++valid)) > expected.validRows)))) return run.fail(changed(row));
        queue.push(checker.userRow(row));
      }
    }, stryMutAct_9fa48("5614") ? {} : (stryCov_9fa48("5614"), {
      detectDuplicates: stryMutAct_9fa48("5615") ? true : (stryCov_9fa48("5615"), false)
    }));
    for await (const _ of streamCsvRecords(source, run.sink, run.control, stryMutAct_9fa48("5616") ? {} : (stryCov_9fa48("5616"), {
      encoding: expected.encoding
    }))) {
      if (stryMutAct_9fa48("5617")) {
        {}
      } else {
        stryCov_9fa48("5617");
        // The sink only runs while the parser is fed, i.e. not while this loop is suspended.
        for (const user of queue) yield user;
        queue.length = 0;
      }
    }
    run.finish();
    if (stryMutAct_9fa48("5620") ? valid !== expected.validRows && k !== skip.length : stryMutAct_9fa48("5619") ? false : stryMutAct_9fa48("5618") ? true : (stryCov_9fa48("5618", "5619", "5620"), (stryMutAct_9fa48("5622") ? valid === expected.validRows : stryMutAct_9fa48("5621") ? false : (stryCov_9fa48("5621", "5622"), valid !== expected.validRows)) || (stryMutAct_9fa48("5624") ? k === skip.length : stryMutAct_9fa48("5623") ? false : (stryCov_9fa48("5623", "5624"), k !== skip.length)))) throw changed(undefined);
    if (stryMutAct_9fa48("5627") ? expected.sha256 !== undefined || run.info.sha256 !== expected.sha256 : stryMutAct_9fa48("5626") ? false : stryMutAct_9fa48("5625") ? true : (stryCov_9fa48("5625", "5626", "5627"), (stryMutAct_9fa48("5629") ? expected.sha256 === undefined : stryMutAct_9fa48("5628") ? true : (stryCov_9fa48("5628", "5629"), expected.sha256 !== undefined)) && (stryMutAct_9fa48("5631") ? run.info.sha256 === expected.sha256 : stryMutAct_9fa48("5630") ? true : (stryCov_9fa48("5630", "5631"), run.info.sha256 !== expected.sha256)))) throw changed(undefined);
  }
}
function changed(row: number | undefined): UsersCsvFileError {
  if (stryMutAct_9fa48("5632")) {
    {}
  } else {
    stryCov_9fa48("5632");
    const where = (stryMutAct_9fa48("5635") ? row !== undefined : stryMutAct_9fa48("5634") ? false : stryMutAct_9fa48("5633") ? true : (stryCov_9fa48("5633", "5634", "5635"), row === undefined)) ? stryMutAct_9fa48("5636") ? "Stryker was here!" : (stryCov_9fa48("5636"), "") : stryMutAct_9fa48("5637") ? `` : (stryCov_9fa48("5637"), ` (row ${row} differs)`);
    return new UsersCsvFileError(stryMutAct_9fa48("5638") ? "" : (stryCov_9fa48("5638"), "CHANGED"), stryMutAct_9fa48("5639") ? `` : (stryCov_9fa48("5639"), `the file changed after it was validated${where}`), stryMutAct_9fa48("5640") ? {} : (stryCov_9fa48("5640"), {
      ...((stryMutAct_9fa48("5643") ? row !== undefined : stryMutAct_9fa48("5642") ? false : stryMutAct_9fa48("5641") ? true : (stryCov_9fa48("5641", "5642", "5643"), row === undefined)) ? {} : stryMutAct_9fa48("5644") ? {} : (stryCov_9fa48("5644"), {
        row
      })),
      hint: stryMutAct_9fa48("5645") ? "" : (stryCov_9fa48("5645"), "run the import again so that the file is validated as it is now")
    }));
  }
}
type RowHandler = (verdict: Exclude<RowVerdict, "blank">, cells: string[], row: number, checker: RowChecker) => void;

/** State of one pass over one file: row numbering, header, blank rows, file errors. */
class UsersCsvRun {
  private checker: RowChecker | undefined;
  private failure: UsersCsvFileError | undefined;
  private dataRows = 0;
  blankRows = 0;
  private firstBlankRow = 0;
  readonly info: Partial<SourceInfo> = {};
  readonly control = stryMutAct_9fa48("5646") ? {} : (stryCov_9fa48("5646"), {
    failure: stryMutAct_9fa48("5647") ? () => undefined : (stryCov_9fa48("5647"), (): UsersCsvFileError | undefined => this.failure),
    info: this.info
  });
  constructor(private readonly onRow: RowHandler, private readonly options: {
    detectDuplicates: boolean;
  } = stryMutAct_9fa48("5648") ? {} : (stryCov_9fa48("5648"), {
    detectDuplicates: stryMutAct_9fa48("5649") ? false : (stryCov_9fa48("5649"), true)
  })) {}

  /** Stops the run with a file-level error, raised by the driver after the current chunk. */
  fail(err: UsersCsvFileError): void {
    if (stryMutAct_9fa48("5650")) {
      {}
    } else {
      stryCov_9fa48("5650");
      stryMutAct_9fa48("5651") ? this.failure &&= err : (stryCov_9fa48("5651"), this.failure ??= err);
    }
  }

  /** Runs inside csv-parse's push: must not throw. */
  readonly sink = (cells: string[], row: number): void => {
    if (stryMutAct_9fa48("5652")) {
      {}
    } else {
      stryCov_9fa48("5652");
      if (stryMutAct_9fa48("5655") ? this.failure === undefined : stryMutAct_9fa48("5654") ? false : stryMutAct_9fa48("5653") ? true : (stryCov_9fa48("5653", "5654", "5655"), this.failure !== undefined)) return;
      const checker = this.checker;
      if (stryMutAct_9fa48("5658") ? checker !== undefined : stryMutAct_9fa48("5657") ? false : stryMutAct_9fa48("5656") ? true : (stryCov_9fa48("5656", "5657", "5658"), checker === undefined)) {
        if (stryMutAct_9fa48("5659")) {
          {}
        } else {
          stryCov_9fa48("5659");
          // Blank lines before the header are skipped like blank rows later on.
          if (stryMutAct_9fa48("5662") ? cells.some(c => c.trim() === "") : stryMutAct_9fa48("5661") ? false : stryMutAct_9fa48("5660") ? true : (stryCov_9fa48("5660", "5661", "5662"), cells.every(stryMutAct_9fa48("5663") ? () => undefined : (stryCov_9fa48("5663"), c => stryMutAct_9fa48("5666") ? c.trim() !== "" : stryMutAct_9fa48("5665") ? false : stryMutAct_9fa48("5664") ? true : (stryCov_9fa48("5664", "5665", "5666"), (stryMutAct_9fa48("5667") ? c : (stryCov_9fa48("5667"), c.trim())) === (stryMutAct_9fa48("5668") ? "Stryker was here!" : (stryCov_9fa48("5668"), ""))))))) return;
          try {
            if (stryMutAct_9fa48("5669")) {
              {}
            } else {
              stryCov_9fa48("5669");
              this.checker = new RowChecker(readHeader(cells, row), this.options);
            }
          } catch (err) {
            if (stryMutAct_9fa48("5670")) {
              {}
            } else {
              stryCov_9fa48("5670");
              if (stryMutAct_9fa48("5672") ? false : stryMutAct_9fa48("5671") ? true : (stryCov_9fa48("5671", "5672"), err instanceof UsersCsvFileError)) this.failure = err;else this.failure = new UsersCsvFileError(stryMutAct_9fa48("5673") ? "" : (stryCov_9fa48("5673"), "MALFORMED"), stryMutAct_9fa48("5674") ? `` : (stryCov_9fa48("5674"), `row ${row}: ${String(err)}`), stryMutAct_9fa48("5675") ? {} : (stryCov_9fa48("5675"), {
                row,
                cause: err
              }));
            }
          }
          return;
        }
      }
      const verdict = checker.check(cells, row);
      if (stryMutAct_9fa48("5678") ? verdict !== "blank" : stryMutAct_9fa48("5677") ? false : stryMutAct_9fa48("5676") ? true : (stryCov_9fa48("5676", "5677", "5678"), verdict === (stryMutAct_9fa48("5679") ? "" : (stryCov_9fa48("5679"), "blank")))) {
        if (stryMutAct_9fa48("5680")) {
          {}
        } else {
          stryCov_9fa48("5680");
          if (stryMutAct_9fa48("5683") ? this.blankRows++ !== 0 : stryMutAct_9fa48("5682") ? false : stryMutAct_9fa48("5681") ? true : (stryCov_9fa48("5681", "5682", "5683"), (stryMutAct_9fa48("5684") ? this.blankRows-- : (stryCov_9fa48("5684"), this.blankRows++)) === 0)) this.firstBlankRow = row;
          return;
        }
      }
      stryMutAct_9fa48("5685") ? this.dataRows-- : (stryCov_9fa48("5685"), this.dataRows++);
      this.onRow(verdict, cells, row, checker);
    }
  };

  /** After the last record: the header layout, or why the file holds no users. */
  finish(): HeaderLayout {
    if (stryMutAct_9fa48("5686")) {
      {}
    } else {
      stryCov_9fa48("5686");
      if (stryMutAct_9fa48("5689") ? this.failure === undefined : stryMutAct_9fa48("5688") ? false : stryMutAct_9fa48("5687") ? true : (stryCov_9fa48("5687", "5688", "5689"), this.failure !== undefined)) throw this.failure;
      if (stryMutAct_9fa48("5692") ? this.checker !== undefined : stryMutAct_9fa48("5691") ? false : stryMutAct_9fa48("5690") ? true : (stryCov_9fa48("5690", "5691", "5692"), this.checker === undefined)) {
        if (stryMutAct_9fa48("5693")) {
          {}
        } else {
          stryCov_9fa48("5693");
          throw new UsersCsvFileError(stryMutAct_9fa48("5694") ? "" : (stryCov_9fa48("5694"), "EMPTY"), stryMutAct_9fa48("5695") ? "" : (stryCov_9fa48("5695"), "file is empty"), stryMutAct_9fa48("5696") ? {} : (stryCov_9fa48("5696"), {
            hint: stryMutAct_9fa48("5697") ? "" : (stryCov_9fa48("5697"), "the first row must be the header firstName,lastName,username,email,role,teamName,status,action")
          }));
        }
      }
      if (stryMutAct_9fa48("5700") ? this.dataRows !== 0 : stryMutAct_9fa48("5699") ? false : stryMutAct_9fa48("5698") ? true : (stryCov_9fa48("5698", "5699", "5700"), this.dataRows === 0)) {
        if (stryMutAct_9fa48("5701")) {
          {}
        } else {
          stryCov_9fa48("5701");
          throw new UsersCsvFileError(stryMutAct_9fa48("5702") ? "" : (stryCov_9fa48("5702"), "NO_ROWS"), stryMutAct_9fa48("5703") ? "" : (stryCov_9fa48("5703"), "no user rows: the file has a header but no users"));
        }
      }
      return this.checker.layout;
    }
  }
  warnings(): string[] {
    if (stryMutAct_9fa48("5704")) {
      {}
    } else {
      stryCov_9fa48("5704");
      const warnings = stryMutAct_9fa48("5705") ? [] : (stryCov_9fa48("5705"), [...(stryMutAct_9fa48("5706") ? this.info.notes && [] : (stryCov_9fa48("5706"), this.info.notes ?? (stryMutAct_9fa48("5707") ? ["Stryker was here"] : (stryCov_9fa48("5707"), [])))), ...(stryMutAct_9fa48("5708") ? this.checker?.layout.warnings && [] : (stryCov_9fa48("5708"), (stryMutAct_9fa48("5709") ? this.checker.layout.warnings : (stryCov_9fa48("5709"), this.checker?.layout.warnings)) ?? (stryMutAct_9fa48("5710") ? ["Stryker was here"] : (stryCov_9fa48("5710"), []))))]);
      if (stryMutAct_9fa48("5714") ? this.blankRows <= 0 : stryMutAct_9fa48("5713") ? this.blankRows >= 0 : stryMutAct_9fa48("5712") ? false : stryMutAct_9fa48("5711") ? true : (stryCov_9fa48("5711", "5712", "5713", "5714"), this.blankRows > 0)) {
        if (stryMutAct_9fa48("5715")) {
          {}
        } else {
          stryCov_9fa48("5715");
          warnings.push((stryMutAct_9fa48("5718") ? this.blankRows !== 1 : stryMutAct_9fa48("5717") ? false : stryMutAct_9fa48("5716") ? true : (stryCov_9fa48("5716", "5717", "5718"), this.blankRows === 1)) ? stryMutAct_9fa48("5719") ? `` : (stryCov_9fa48("5719"), `row ${this.firstBlankRow} is blank and was skipped`) : stryMutAct_9fa48("5720") ? `` : (stryCov_9fa48("5720"), `${this.blankRows} blank rows were skipped (the first is row ${this.firstBlankRow})`));
        }
      }
      return warnings;
    }
  }
}

/** The problems of some invalid rows, flattened: what `-o json` and tables show. */
export function problemsOf(rows: readonly InvalidRow[]): RowProblem[] {
  if (stryMutAct_9fa48("5721")) {
    {}
  } else {
    stryCov_9fa48("5721");
    return rows.flatMap(stryMutAct_9fa48("5722") ? () => undefined : (stryCov_9fa48("5722"), r => r.problems));
  }
}