import type { CommandContext } from "../../context.js";
import type { InvalidRow } from "../../domain/users-csv/model.js";
import type { JsonRecord } from "../../domain/records.js";
import type { CommandResult } from "../../output/render.js";

// How `users import` and `users sync` report rows: the problems of invalid rows on stderr
// and as a result, in the same words for a file's rows and a roster's.

/** Row problems shown on stderr before "… and N more" (all of them are in the errors file). */
export const MAX_ROW_LINES = 20;

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : many}`;
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
