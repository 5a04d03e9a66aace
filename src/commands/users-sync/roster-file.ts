import { basename } from "node:path";
import type { CommandContext } from "../../context.js";
import { InvalidDataError, UsageError } from "../../errors.js";
import { readRoster, type Roster, RosterMapError } from "../../domain/users-sync/roster.js";
import { readTableFile } from "../../output/table-file.js";
import { checkReadableFile } from "../shared/local-files.js";
import type { CommandOutcome } from "../types.js";
import { plural, problemLines, problemsResult, showRowLines } from "../shared/row-report.js";
import type { UsersSyncOptions } from "./options.js";
import { showPath } from "../../messages.js";

// Step 2 of a sync (users-sync.ts): the roster read (CSV or workbook, --map, --encoding)
// and its invalid rows reported — the end of the run without --skip-invalid (exit 6).

/** The roster, or the outcome that ends the run: its invalid rows as the result. */
export async function readRosterFile(
  ctx: CommandContext,
  options: UsersSyncOptions,
  rosterPath: string,
): Promise<{ roster: Roster } | { outcome: CommandOutcome }> {
  const roster = await loadRoster(ctx, options, rosterPath);
  const name = basename(rosterPath);
  // CI (output/ci-report.ts): invalid roster rows annotated on the roster; rows the service
  // rejects are annotated by the import, on plan.csv (the file it sends).
  const ci = await ctx.printer.ci();
  ci.source(rosterPath, options.encoding);
  for (const invalid of roster.invalid) {
    ci.reject({
      file: rosterPath,
      row: invalid.row,
      message: invalid.problems.map((p) => `${p.field}: ${p.message}`).join("; "),
      skipped: options.skipInvalid === true,
    });
  }
  ci.fact("Roster", `${plural(roster.users.length, "user")}, ${plural(roster.invalid.length, "invalid row")}`);
  if (roster.invalid.length > 0 && !options.skipInvalid) {
    const failure = new InvalidDataError(
      `${plural(roster.invalid.length, "invalid row")} in ${name}; nothing was sent; fix ${roster.invalid.length === 1 ? "it" : "them"} or pass --skip-invalid to leave those users as they are`,
    );
    return { outcome: { ...problemsResult(roster.invalid), failure } };
  }
  if (roster.invalid.length > 0) {
    ctx.printer.warn(
      `${plural(roster.invalid.length, "invalid row")} in ${showPath(name)} skipped (--skip-invalid); those users are left as they are`,
    );
    showRowLines(ctx, problemLines(roster.invalid), undefined);
  }
  return { roster };
}

async function loadRoster(ctx: CommandContext, options: UsersSyncOptions, path: string): Promise<Roster> {
  await checkReadableFile(path);
  const table = await readTableFile(path, { encoding: options.encoding, sheet: options.sheet, headerRow: options.headerRow });
  let roster: Roster;
  try {
    roster = readRoster(table, options.map ?? []);
  } catch (error) {
    if (error instanceof RosterMapError) throw new UsageError(`${error.message}; nothing was sent`);
    throw error;
  }
  for (const note of table.info.notes ?? []) ctx.printer.notice(`${showPath(basename(path))}: ${note}`);
  for (const warning of roster.warnings) ctx.printer.notice(`${showPath(basename(path))}: ${warning}`);
  return roster;
}
