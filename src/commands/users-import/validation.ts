import type { CommandContext } from "../../context.js";
import { InvalidDataError } from "../../errors.js";
import type { JsonRecord } from "../../domain/records.js";
import { UsersCsvFileError, validateUsersCsv, type ValidationSummary } from "../../domain/users-csv/validate.js";
import type { Progress } from "../../output/progress.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOutcome } from "../types.js";
import { openSource, type ImportFlags } from "./common.js";
import { plural, PROBLEM_COLUMNS, problemLines, problemsResult, showRowLines } from "../shared/row-report.js";
import type { RejectedRowsFile } from "./side-files.js";
import { showPath } from "../../messages.js";

// Pass 1 of `users import` (users-import.ts): every row validated, streamed, each invalid one
// written to the errors file as it comes. Any invalid row stops the run here — exit 6,
// nothing sent — unless --skip-invalid.

/**
 * The file's summary when the import may go on, or the outcome that ends it here: a problem
 * with the whole file, or invalid rows without --skip-invalid (the rows are the report).
 */
export async function validateImportFile(
  ctx: CommandContext,
  flags: ImportFlags,
  setup: { fileName: string; errors: RejectedRowsFile; progress: Progress },
): Promise<{ summary: ValidationSummary } | { outcome: CommandOutcome }> {
  const { errors, fileName, progress } = setup;
  progress.update(`validating ${showPath(fileName)}…`);
  let summary: ValidationSummary;
  try {
    summary = await validateUsersCsv(openSource(flags), {
      onInvalidRow: (row, source) => {
        errors.useInputForm(source);
        errors.addLocal(row);
      },
      encoding: flags.encoding,
    });
  } catch (error) {
    // A problem with the whole file is the report too, so -o json always gets a document.
    if (error instanceof UsersCsvFileError) {
      progress.done();
      return { outcome: { ...fileProblemResult(error), failure: error } };
    }
    throw error;
  } finally {
    progress.done();
  }
  // Rows the service rejects later go into the same file, in the same form.
  errors.useInputForm(summary);
  for (const warning of summary.warnings) ctx.printer.notice(`${showPath(fileName)}: ${warning}`);
  const invalid = summary.invalidRowCount;
  const ci = await ctx.printer.ci();
  ci.output("rows", summary.totalRows);
  ci.output("valid-rows", summary.validRows);
  ci.output("invalid-rows", invalid);
  ci.fact(
    "Rows",
    `${summary.totalRows.toLocaleString("en-US")} (${summary.validRows.toLocaleString("en-US")} valid, ${invalid.toLocaleString("en-US")} invalid)`,
  );

  if (invalid > 0 && !flags.skipInvalid) {
    const kept = summary.invalidRows.length;
    const note =
      kept < invalid
        ? `the first ${plural(kept, "invalid row")} are shown; ${showPath(errors.path)} lists all ${invalid.toLocaleString("en-US")}`
        : undefined;
    const failure = new InvalidDataError(
      `${plural(invalid, "invalid row")} in ${fileName}; nothing was sent; fix ${invalid === 1 ? "it" : "them"} (see ${errors.path}) or use --skip-invalid to upload the ${plural(summary.validRows, "valid row")} only`,
    );
    return { outcome: { ...problemsResult(summary.invalidRows), ...(note ? { note } : {}), failure } };
  }
  if (invalid > 0) {
    ctx.printer.warn(
      `${plural(invalid, "invalid row")} in ${showPath(fileName)} will be skipped (--skip-invalid); they are listed in ${showPath(errors.path)}`,
    );
    showRowLines(
      ctx,
      problemLines(summary.invalidRows),
      invalid > summary.invalidRows.length ? `see ${showPath(errors.path)}` : undefined,
    );
  }
  return { summary };
}

function fileProblemResult(error: UsersCsvFileError): CommandResult {
  const fields: (string | null)[] = error.columns.length > 0 ? [...error.columns] : [null];
  const records: JsonRecord[] = fields.map((field) => ({
    row: error.row ?? null,
    field,
    message: error.message,
    code: error.code,
  }));
  return { kind: "records", records, tableColumns: PROBLEM_COLUMNS, knownFields: [...PROBLEM_COLUMNS, "code"] };
}
