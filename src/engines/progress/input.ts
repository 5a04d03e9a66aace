import { InvalidDataError } from "../../errors.js";
import { CsvFileError } from "../../domain/csv-input/errors.js";
import { excerpt } from "../../domain/csv-input/errors.js";
import { headerKey, HEADER_MATCHING, mapHeader } from "../../domain/csv-input/header.js";
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

const KNOWN: Readonly<Record<string, string>> = { userid: "userId", simulationid: "simulationId", duedate: "dueDate" };
/** A name that reads as a due date without being one we match ("Due", "Due on", "Deadline"). */
const DUE_LIKE = /due|deadline/;

/**
 * The header row → where the columns are. The three known columns are matched by
 * headerKey(), the rule of every header the tool reads (an .xlsx with "Due Date" lost its
 * due dates silently); other
 * columns are kept under their own header, not warned about — except one that looks like a
 * due date and is not read as one, named in one warning.
 */
function layoutOf(cells: readonly string[], row: number): { header: ProgressHeader; warnings: string[] } {
  const known = cells.map((cell) => KNOWN[headerKey(cell)]);
  // mapHeader matches the id columns by headerKey() too ("User ID" is userId) and names them canonically.
  const layout = mapHeader(cells, row, ["userId", "simulationId"]);
  const dueDate = known.indexOf("dueDate");
  const names = layout.columns.map((name, i) => (i === dueDate ? "dueDate" : name));
  // mapHeader's warnings (its only ones: unknown and unnamed columns) say those are ignored: here
  // every column is carried into the output (an unnamed one as column<N>, docs/progress.md "Input").
  const warnings: string[] = [];
  const unnamed = cells.flatMap((cell, i) => (cell.trim() === "" ? [i + 1] : []));
  if (unnamed.length > 0) {
    const several = unnamed.length > 1;
    warnings.push(
      `column${several ? "s" : ""} ${unnamed.join(", ")} ${several ? "have" : "has"} no name: carried into the output as ${unnamed.map((n) => `column${n}`).join(", ")}`,
    );
  }
  // A second dueDate column is named like the one read (kept as file.dueDate): not "like" a due date.
  const unused = cells
    .map((cell, i) => ({ name: cell.trim(), i }))
    .filter(({ name, i }) => known[i] === undefined && DUE_LIKE.test(headerKey(name)));
  if (unused.length > 0) {
    const list = unused.map(({ name, i }) => `${excerpt(name, 30)} (column ${i + 1})`).join(", ");
    const why = dueDate >= 0 ? `the due date is read from column ${dueDate + 1}` : "no column is read as the due date";
    warnings.push(
      `${list} look${unused.length === 1 ? "s" : ""} like a due date but ${why}; name the column dueDate (${HEADER_MATCHING}) to have overdue pairs shown`,
    );
  }
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
  const file = checkTable(path, table.header, table.rows);
  file.warnings.push(...(table.info.notes ?? []));
  return file;
}

/**
 * Header and rows → checked rows and problems. The header is the first row with content
 * (readTableFile refuses a file without one: EMPTY above); blank rows after it are skipped
 * by the row checker.
 */
function checkTable(
  path: string,
  headerRow: { cells: string[]; row: number },
  rows: readonly { cells: string[]; row: number }[],
): ProgressFile {
  const { header, warnings } = layoutOf(headerRow.cells, headerRow.row);
  const checker = new ProgressRowChecker(header);
  for (const { cells, row } of rows) checker.add(cells, row);
  if (checker.rows.length === 0 && checker.problems.length === 0) {
    throw new InvalidDataError(`${path} has a header but no rows; nothing to do`);
  }
  return { header, rows: checker.rows, problems: checker.problems, warnings };
}
