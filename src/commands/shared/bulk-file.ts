import { createReadStream } from "node:fs";
import { CliError, InvalidDataError, isErrnoError, LocalFileError } from "../../errors.js";
import { BULK_COLUMNS, BulkRowChecker, type BulkHeader, type BulkProblem, type BulkRow } from "../../domain/bulk-rows.js";
import { CsvRecordReader } from "../../domain/csv-input/reader.js";
import { mapHeader } from "../../domain/csv-input/header.js";
import type { CsvInputForm } from "../../output/csv.js";

// Step 1 of a bulk run (bulk.ts): the whole --from-csv file read and checked before anything
// is sent, by the users-CSV reading rules (encodings, delimiters, quoted cells; the columns
// userId,simulationId found by name).

export interface BulkFile {
  header: BulkHeader;
  rows: BulkRow[];
  problems: BulkProblem[];
  invalidCells: Map<number, string[]>;
  sha256: string;
  /** Each row's physical line (a quoted line break shifts them), for CI annotations. */
  lines: Map<number, number>;
  /** How the file is written (delimiter, BOM, line ends, encoding): its errors file is written the same way. */
  form: CsvInputForm;
}

export async function readBulkFile(path: string, encoding: string | undefined): Promise<BulkFile & { warnings: string[] }> {
  let header: BulkHeader | undefined;
  let checker: BulkRowChecker | undefined;
  const warnings: string[] = [];
  const source = createReadStream(path);
  const reader = new CsvRecordReader(source, { encoding });
  const lines = new Map<number, number>();
  try {
    for await (const { row, line, cells } of reader) {
      lines.set(row, line);
      if (!header) {
        if (cells.every((c) => c.trim() === "")) continue;
        const layout = mapHeader(cells, row, BULK_COLUMNS);
        warnings.push(...layout.warnings);
        header = { userId: layout.positions[0]!, simulationId: layout.positions[1]!, names: layout.columns };
        checker = new BulkRowChecker(header);
        continue;
      }
      checker!.add(cells, row);
    }
  } catch (error) {
    // CsvFileError has a string `code` too: only a system error is a local file error.
    if (!(error instanceof CliError) && isErrnoError(error)) throw LocalFileError.fromSystem(error, path, "read");
    throw error;
  } finally {
    source.destroy();
  }
  warnings.push(...(reader.info.notes ?? []));
  if (!header || !checker) {
    throw new InvalidDataError(`${path} is empty; it needs a header row userId,simulationId and one row per pair`);
  }
  if (checker.rows.length === 0 && checker.problems.length === 0) {
    throw new InvalidDataError(`${path} has a header but no rows; nothing to do`);
  }
  return {
    header,
    rows: checker.rows,
    problems: checker.problems,
    invalidCells: checker.invalidCells,
    sha256: reader.info.sha256 ?? "",
    lines,
    form: {
      delimiter: reader.info.delimiter,
      bom: reader.info.bom,
      lineEnding: reader.info.lineEnding,
      encoding: reader.info.encoding,
    },
    warnings,
  };
}
