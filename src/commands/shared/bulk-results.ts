import { rm } from "node:fs/promises";
import type { CommandContext } from "../../context.js";
import { InvalidDataError, LocalFileError } from "../../errors.js";
import type { BulkCommand, BulkManifest } from "../../domain/bulk-rows.js";
import { composeUserLink } from "../../domain/links.js";
import type { JsonRecord } from "../../domain/records.js";
import { writeFileAtomic } from "../../output/atomic-file.js";
import { CsvRowWriter, sideFileForm } from "../../output/csv.js";
import type { CommandOutcome } from "../types.js";
import type { BulkFile } from "./bulk-file.js";

// What a bulk run (bulk.ts) ends with: the invalid rows of a file that was not sent, or one
// record per row after the run — each time with the CI report and <file>.errors.csv.

/** A user's token for link's complete links, or why the service refused it (that user's rows fail). */
export type UserToken = { token: string; expiresAt: string } | { error: string };

/** The finished run, as bulk-run.ts leaves it. */
interface FinishedRun {
  command: BulkCommand;
  /** The --from-csv file, as given. */
  csvPath: string;
  file: BulkFile;
  manifest: BulkManifest;
  errorsPath: string;
  /** The user tokens of this run (link), never stored. */
  tokens: ReadonlyMap<string, UserToken>;
}

/** Step 1's stop: the invalid rows are the output, then exit 6 with nothing sent (the runner prints, then fails). */
export async function invalidRowsResult(
  ctx: CommandContext,
  csvPath: string,
  file: BulkFile,
  errorsPath: string,
): Promise<CommandOutcome> {
  const ci = await ctx.printer.ci();
  const byRow = new Map<number, string[]>();
  for (const p of file.problems) byRow.set(p.row, [...(byRow.get(p.row) ?? []), `${p.field}: ${p.message}`]);
  for (const [row, errors] of byRow) ci.reject({ file: csvPath, row, line: file.lines.get(row), message: errors.join("; ") });
  ci.fact("Rows", `${file.rows.length + byRow.size} (${byRow.size} invalid; nothing was sent)`);
  ci.setErrorsFile(errorsPath);
  await writeErrorsFile(
    errorsPath,
    file,
    ctx,
    [...byRow].map(([row, errors]) => ({ row, cells: file.invalidCells.get(row) ?? [], errors: errors.join("; ") })),
  );
  return {
    kind: "records",
    records: file.problems.map((p) => ({ row: p.row, field: p.field, message: p.message })),
    tableColumns: ["row", "field", "message"],
    failure: new InvalidDataError(`${csvPath}: ${byRow.size} invalid row${byRow.size === 1 ? "" : "s"}; nothing was sent`, {
      hint: `fix them (listed above and in ${errorsPath}) and run the command again`,
    }),
  };
}

/**
 * One record per row (userId, simulationId, status, error, and the deep link or for link the
 * complete link with its expiresAt); exit 6 when the service rejected some, which go to
 * <file>.errors.csv. A run that rejected none removes an errors file of an earlier run.
 */
export async function rowResults(ctx: CommandContext, run: FinishedRun): Promise<CommandOutcome> {
  const { file, manifest, command, tokens, csvPath, errorsPath } = run;
  const ci = await ctx.printer.ci();
  const records: JsonRecord[] = [];
  const rejected: { row: number; cells: string[]; errors: string }[] = [];
  for (const row of file.rows) {
    const done = manifest.rows[String(row.row)];
    let status = done?.status ?? "failed";
    let error = done?.error ?? "";
    const record: JsonRecord = { userId: row.userId, simulationId: row.simulationId, status, error };
    if (command === "assign") record.deepLink = done?.deepLink ?? "";
    if (command === "link") {
      const token = tokens.get(row.userId);
      if (status === "ok" && token && "token" in token && done?.deepLink) {
        record.link = composeUserLink(done.deepLink, token.token);
        record.expiresAt = token.expiresAt;
      } else {
        if (status === "ok" && token && "error" in token) {
          status = "failed";
          error = `user token: ${token.error}`;
          record.status = status;
          record.error = error;
        }
        record.link = "";
        record.expiresAt = "";
      }
    }
    records.push(record);
    if (status === "failed") rejected.push({ row: row.row, cells: row.cells, errors: error });
    const line = file.lines.get(row.row);
    if (status === "failed") ci.reject({ file: csvPath, row: row.row, line, message: error });
    else
      ci.testCase({
        name: `${csvPath} row ${row.row} (${row.userId}, ${row.simulationId})`,
        file: csvPath,
        line,
      });
  }
  ci.fact("Rows", `${file.rows.length} (${file.rows.length - rejected.length} ok, ${rejected.length} rejected by the service)`);
  if (rejected.length > 0) ci.setErrorsFile(errorsPath);
  if (rejected.length > 0) {
    await writeErrorsFile(errorsPath, file, ctx, rejected);
  } else {
    await rm(errorsPath, { force: true }).catch(() => undefined);
  }
  const columns = [
    "userId",
    "simulationId",
    "status",
    "error",
    ...(command === "assign" ? ["deepLink"] : command === "link" ? ["link", "expiresAt"] : []),
  ];
  const result = { kind: "records" as const, records, tableColumns: columns, knownFields: columns };
  if (rejected.length > 0) {
    const failure = new InvalidDataError(
      `${rejected.length} of ${file.rows.length} rows were rejected by the service; the others succeeded`,
      { hint: `the rejected rows are in ${errorsPath}: fix them and run that file with --from-csv` },
    );
    return { ...result, failure };
  }
  return result;
}

/** The rejected rows with their original columns plus `row` and `errors` (0600: ids are personal data). */
async function writeErrorsFile(
  path: string,
  file: Pick<BulkFile, "header" | "form">,
  ctx: CommandContext,
  rejected: { row: number; cells: string[]; errors: string }[],
): Promise<void> {
  const { header } = file;
  // csv-stringify with the formula guard, as every CSV written (output/csv.ts), in the
  // input's delimiter, BOM and line ends unless --delimiter/--bom say otherwise.
  let text = "";
  const csv = new CsvRowWriter(
    async (chunk) => {
      text += chunk;
    },
    sideFileForm(file.form, ctx.printer.sideFileFlags()),
  );
  await csv.row([...header.names, "row", "errors"]);
  for (const r of rejected) await csv.row([...header.names.map((_, i) => r.cells[i] ?? ""), r.row, r.errors]);
  await csv.end();
  try {
    await writeFileAtomic(path, text, 0o600);
  } catch (error) {
    throw LocalFileError.fromSystem(error, path, "write");
  }
}
