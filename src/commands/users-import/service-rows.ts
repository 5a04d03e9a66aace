import type { CommandContext } from "../../context.js";
import type { ManifestBatch } from "../../domain/users-csv/import-manifest.js";
import type { UserRow } from "../../domain/users-csv/validate.js";
import { MAX_ROW_LINES, problemLine, showRowLines } from "../shared/row-report.js";
import type { RejectedRowsFile } from "./side-files.js";
import { showPath } from "../../messages.js";

// What the service said about a batch's rows (its upload answer, docs/service-spec.md §4.8,
// recorded in the manifest by the import engine): the rejected rows shown and written to the
// errors file like local ones.

/** Shows a batch's service-rejected rows like local ones and writes them to errors.csv. */
export function reportServiceRows(
  ctx: CommandContext,
  recorded: ManifestBatch,
  users: readonly UserRow[],
  columns: string[],
  errors: RejectedRowsFile,
  show: boolean,
): void {
  const byRow = new Map(users.map((u) => [u.row, u]));
  const lines: string[] = [];
  const reported = new Set<number>();
  for (const e of recorded.rowErrors ?? []) {
    const messages =
      e.field && !e.messages.some((m) => m.startsWith(`${e.field}:`)) ? e.messages.map((m) => `${e.field}: ${m}`) : e.messages;
    lines.push(problemLine(e.row, null, messages.join("; ")));
    const user = e.row === null ? undefined : byRow.get(e.row);
    if (user && !reported.has(user.row)) {
      reported.add(user.row);
      errors.addService(user, columns, messages);
    } else if (!user) {
      ctx.printer.warn(
        `batch ${recorded.number}: the service reported row ${e.batchRow ?? "?"} of the upload, which has only ${recorded.rows + 1} lines`,
      );
    }
  }
  // A batch refused as a whole: every row of it is rejected, named or not.
  if (recorded.state === "rejected") {
    for (const user of users) {
      if (reported.has(user.row)) continue;
      errors.addService(user, columns, [recorded.error ?? "rejected by the service with the rest of its batch"]);
    }
  }
  if (show && lines.length > 0)
    showRowLines(ctx, lines, lines.length > MAX_ROW_LINES ? `see ${showPath(errors.path)}` : undefined);
}
