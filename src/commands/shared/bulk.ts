import { PROBLEM_COLUMNS } from "./row-report.js";
import { readFile } from "node:fs/promises";
import type { CommandContext } from "../../context.js";
import { isErrnoError, LocalFileError, UsageError } from "../../errors.js";
import {
  BULK_MANIFEST_VERSION,
  bulkErrorsPath,
  bulkManifestPath,
  decideBulkStart,
  parseBulkManifest,
  planBulk,
  type BulkCommand,
  type BulkManifest,
} from "../../domain/bulk-rows.js";
import { acquireFileLock } from "../../output/file-lock.js";
import type { CommandOutcome } from "../types.js";
import { readBulkFile } from "./bulk-file.js";
import { invalidRowsResult } from "./bulk-results.js";
import { BulkRun, type BulkOptions } from "./bulk-run.js";
import type { BulkFlags } from "./flags.js";
import { describeRequestPlan } from "./request-plan.js";
import { showPath } from "../../messages.js";

// `assign | unassign | link --from-csv <file> [--resume] [--dry-run]` (docs/cli-contract.md
// "Bulk operations").
//
// 1. The whole file is read and checked first (users-CSV reading rules: UTF-8 with or
//    without BOM, UTF-16 with BOM, another encoding with --encoding, `,` `;` or tab, quoted
//    cells; columns userId,simulationId found by name).
//    Empty ids, short or long rows and repeated pairs stop the run with exit 6 and nothing
//    sent; the problems are the output and go to <file>.errors.csv. --dry-run stops after
//    this and prints the plan.
// 2. A manifest <file>.<command>.json beside the CSV records every finished row (after each
//    row, atomically). Without --resume a manifest of this same file with finished rows is
//    refused (exit 2): a cohort is never assigned or linked twice by accident. --resume
//    sends only the rows it does not record.
// 3. Rows go one after the other through the shared scheduler (it alone decides when, within
//    the access budget shared with concurrent runs; assignment, deep-links and token are safe
//    to repeat, so the usual retries apply). A row the service rejects (400, 404) is recorded
//    as failed and the run goes on. Anything that would fail every following row too (no
//    key, 403, 429 or 5xx after the retries, Ctrl-C) stops the run with its exit code; the
//    finished rows stay in the manifest for --resume.
// 4. link asks one user token per distinct user of the run, not one per row (a token is per
//    user), and never stores one: the manifest keeps the deep link (no token) of a finished
//    row, so --resume prints finished rows with a fresh token of their user — one request
//    per user, no deep-link request repeated.
// 5. Output: one record per row (userId, simulationId, status ok/failed, error, deepLink —
//    or for link the complete link and its expiresAt) in every format; exit 0 when all rows
//    succeeded, 6 when some were rejected — those rows, with their original columns plus
//    `row` and `errors`, in <file>.errors.csv.
//
// The parts: bulk-file.ts reads and checks the file (1), bulk-run.ts sends the rows (3, 4),
// bulk-results.ts makes the output and the errors file (5); this file decides (2, --dry-run).

function readOptions(command: BulkCommand, options: BulkFlags): BulkOptions {
  const file = options.fromCsv ?? "";
  if (options.user !== undefined || options.sim !== undefined) {
    throw new UsageError(`\`${command} --from-csv\` takes the ids from the file: drop --user and --sim`);
  }
  if (file.trim() === "") throw new UsageError("--from-csv needs a file name");
  return {
    file,
    resume: options.resume === true,
    dryRun: options.dryRun === true,
    assign: options.assign === true,
    encoding: options.encoding,
  };
}

/** Every field a bulk run prints: its invalid rows, one record per row, a dry run's plan. */
function bulkFields(command: BulkCommand): string[] {
  const done = command === "assign" ? ["deepLink"] : command === "link" ? ["link", "expiresAt"] : [];
  const dryRunFields = ["command", "file", "rows", "users", "simulations", "alreadyDone", "requests", "leastSeconds", "manifest"];
  return [...PROBLEM_COLUMNS, "userId", "simulationId", "status", "error", ...done, ...dryRunFields];
}

export async function runBulk(ctx: CommandContext, command: BulkCommand, flags: BulkFlags): Promise<CommandOutcome> {
  const options = readOptions(command, flags);
  // --fields checked before the file is read or anything sent; every result then knows them all.
  // (Only then: without --fields, an empty CSV's header stays the result's own columns.)
  if (ctx.printer.outputPlan.fields === undefined) return runBulkFile(ctx, command, options);
  const fields = bulkFields(command);
  const { checkFields, withKnownFields } = await import("../../output/fields-check.js");
  checkFields(ctx.printer.outputPlan.fields, fields);
  return withKnownFields(await runBulkFile(ctx, command, options), fields);
}

async function runBulkFile(
  ctx: CommandContext,
  command: BulkCommand,
  options: ReturnType<typeof readOptions>,
): Promise<CommandOutcome> {
  const file = await readBulkFile(options.file, options.encoding);
  const errorsPath = bulkErrorsPath(options.file);
  const manifestPath = bulkManifestPath(options.file, command);
  for (const warning of file.warnings) ctx.printer.notice(`${showPath(options.file)}: ${warning}`);

  // The CI report covers the run from here, a run stopped by a later error included.
  await ctx.printer.ci();
  if (file.problems.length > 0) return invalidRowsResult(ctx, options.file, file, errorsPath);

  // --sandbox gets a new port each run but keeps its state: it is one service for --resume (services.ts tenant()).
  const { service: baseUrl, organizationId } = await ctx.services.tenant();
  let existing: BulkManifest | undefined | "unreadable";
  try {
    const text = await readFile(manifestPath, "utf8");
    existing = parseBulkManifest(text) ?? "unreadable";
  } catch (error) {
    if (!(isErrnoError(error) && error.code === "ENOENT")) throw LocalFileError.fromSystem(error, manifestPath, "read");
  }
  const start = decideBulkStart(
    existing,
    { command, sha256: file.sha256, organizationId, baseUrl, assign: options.assign },
    options.resume,
    manifestPath,
  );
  if (start.kind === "refuse") throw new UsageError(start.message, { hint: start.hint });
  const now = (): string => new Date(ctx.services.clock.now()).toISOString();
  const manifest: BulkManifest =
    start.kind === "resume"
      ? start.manifest
      : {
          version: BULK_MANIFEST_VERSION,
          command,
          sha256: file.sha256,
          organizationId,
          baseUrl,
          ...(command === "link" ? { assign: options.assign } : {}),
          startedAt: now(),
          updatedAt: now(),
          rows: {},
        };
  const finished = new Set(file.rows.filter((r) => manifest.rows[String(r.row)] !== undefined).map((r) => r.row));
  const bulkPlan = planBulk(command, file.rows, finished);

  if (options.dryRun) {
    const requests = describeRequestPlan({ requests: { access: bulkPlan.requests } }, await ctx.services.rateLimits());
    return {
      kind: "object",
      value: {
        command: options.assign && command === "link" ? "link --assign" : command,
        file: options.file,
        rows: bulkPlan.rows,
        users: bulkPlan.users,
        simulations: bulkPlan.simulations,
        alreadyDone: bulkPlan.finished,
        requests: bulkPlan.requests,
        leastSeconds: requests.value.leastSeconds,
        manifest: manifestPath,
      },
      note: `dry run: nothing was sent; the run ${requests.text}`,
    };
  }

  // The users-import lock (docs/cli-contract.md "Concurrency"): one run per file and command.
  const lock = await acquireFileLock(`${manifestPath}.lock`, {
    what: `\`${command} --from-csv ${options.file}\``,
    command,
    now: () => ctx.services.clock.now(),
  });
  try {
    return await new BulkRun(ctx, command, options, file, manifest, manifestPath, errorsPath, bulkPlan.requests).execute();
  } finally {
    await lock.release();
  }
}
