import { openTableSource } from "../../output/table-file.js";
import type { CommandContext } from "../../context.js";
import type { ImportTarget } from "../../domain/users-csv/import-manifest.js";
import type { InvalidRow } from "../../domain/users-csv/model.js";
import type { JsonRecord } from "../../domain/records.js";
import type { CommandResult } from "../../output/render.js";
import type { UsersImportOptions } from "./options.js";
import type { RejectedRowsFile } from "./side-files.js";

// Small pieces shared by the parts of `users import` (users-import.ts and the passes it runs),
// and by `users sync`, which reports a roster's rows as the import reports a file's.

/** Row problems shown on stderr before "… and N more" (all of them are in the errors file). */
export const MAX_ROW_LINES = 20;

/** The parsed options (options.ts) and the file argument. */
export type ImportFlags = UsersImportOptions & {
  file: string;
  /** The command a next step names (users sync passes its own); default `simadmin users import <file>`. */
  rerun?: string;
};

/** What one run decided before reading the file: where the batches go and the side files. */
export interface ImportSetup {
  organizationId: string | undefined;
  /** Service and organization the batches go to: the manifest section of this run. */
  target: ImportTarget | undefined;
  fileName: string;
  manifestPath: string;
  errors: RejectedRowsFile;
  /** The injected clock as an ISO time, for the manifest. */
  now: () => string;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : many}`;
}

/** The file's bytes; a workbook's first sheet as CSV (output/table-file.ts), read by the same rules. */
export function openSource(path: string): AsyncIterable<Uint8Array> {
  return openTableSource(path);
}

/** "row 4, email: …" — the same line for a local problem and one the service reported. */
export function problemLine(row: number | null | undefined, field: string | null | undefined, message: string): string {
  return `row ${row ?? "?"}${field ? `, ${field}` : ""}: ${message}`;
}

/** Each problem of the invalid rows as a stderr line. */
export function problemLines(rows: readonly InvalidRow[]): string[] {
  return rows.flatMap((r) => r.problems.map((p) => problemLine(p.row, p.field, p.message)));
}

/** The columns of a problems report (plus `code` for a problem with the whole file). */
export const PROBLEM_COLUMNS = ["row", "field", "message"];

/** Invalid rows as the result of a run that stops on them: one record per problem. */
export function problemsResult(rows: readonly InvalidRow[]): Extract<CommandResult, { kind: "records" }> {
  const records: JsonRecord[] = rows.flatMap((r) => r.problems.map((p) => ({ row: p.row, field: p.field, message: p.message })));
  return { kind: "records", records, tableColumns: PROBLEM_COLUMNS, knownFields: PROBLEM_COLUMNS };
}

export function showRowLines(ctx: CommandContext, lines: string[], more: string | undefined): void {
  for (const line of lines.slice(0, MAX_ROW_LINES)) ctx.printer.info(`  ${line}`);
  const hidden = lines.length - Math.min(lines.length, MAX_ROW_LINES);
  if (hidden > 0 || more)
    ctx.printer.info(`  …${hidden > 0 ? ` and ${plural(hidden, "more problem")}` : " more"}${more ? `: ${more}` : ""}`);
}
