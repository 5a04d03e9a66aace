// @ts-nocheck
import { InvalidDataError } from "../../errors.js";
import { CsvFileError } from "../../domain/csv-input/errors.js";
import { mapHeader } from "../../domain/csv-input/header.js";
import { readTableFile } from "../../output/table-file.js";
import { ProgressRowChecker, type ProgressHeader, type ProgressProblem, type ProgressRow } from "../../domain/progress.js";

// The assignment file of `progress --from-csv` (docs/cli-contract.md "Progress"): a CSV by the
// users-CSV reading rules (encodings, BOMs, `,` `;` tab, `sep=`, quoting — domain/csv-input/)
// or an .xlsx workbook's first sheet, read the same way (output/table-file.ts); the two
// id columns found by name in any order, dueDate when there is such a column, and every
// other column kept for the output.

export interface ProgressFile {
  header: ProgressHeader;
  rows: ProgressRow[];
  problems: ProgressProblem[];
  warnings: string[];
}

/** The header row → where the columns are; unknown columns are kept, not warned about. */
function layoutOf(cells: readonly string[], row: number): { header: ProgressHeader; warnings: string[] } {
  const layout = mapHeader(cells, row, ["userId", "simulationId"]);
  const dueDate = layout.columns.findIndex((name) => name.trim().toLowerCase() === "duedate");
  const names = layout.columns.map((name, i) => (i === dueDate ? "dueDate" : name));
  // mapHeader's line about unknown columns says they are ignored: here they are carried into the output.
  const warnings = layout.warnings.filter((w) => !/unknown column/.test(w));
  return { header: { userId: layout.positions[0]!, simulationId: layout.positions[1]!, dueDate, names }, warnings };
}

/** Reads and checks every row of a CSV file or of an .xlsx workbook's first sheet (output/table-file.ts). */
export async function readProgressFile(path: string, encoding: string | undefined): Promise<ProgressFile> {
  let table;
  try {
    table = await readTableFile(path, { encoding });
  } catch (error) {
    if (error instanceof CsvFileError && error.code === "EMPTY") {
      throw new InvalidDataError(`${path} is empty; it needs a header row userId,simulationId[,dueDate] and one row per pair`);
    }
    throw error;
  }
  const file = checkTable(path, [table.header, ...table.rows]);
  file.warnings.push(...(table.info.notes ?? []));
  return file;
}

/** Header (the first non-blank row) and rows → checked rows and problems. */
function checkTable(path: string, rows: readonly { cells: string[]; row: number }[]): ProgressFile {
  let header: ProgressHeader | undefined;
  let checker: ProgressRowChecker | undefined;
  const warnings: string[] = [];
  for (const { cells, row } of rows) {
    if (!header) {
      if (cells.every((c) => c.trim() === "")) continue;
      const layout = layoutOf(cells, row);
      header = layout.header;
      warnings.push(...layout.warnings);
      checker = new ProgressRowChecker(header);
      continue;
    }
    checker!.add(cells, row);
  }
  if (!header || !checker) {
    throw new InvalidDataError(`${path} is empty; it needs a header row userId,simulationId[,dueDate] and one row per pair`);
  }
  if (checker.rows.length === 0 && checker.problems.length === 0) {
    throw new InvalidDataError(`${path} has a header but no rows; nothing to do`);
  }
  return { header, rows: checker.rows, problems: checker.problems, warnings };
}
