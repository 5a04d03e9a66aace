import { checkReadableFile } from "../shared/local-files.js";
import type { CiReport } from "../../output/ci-report.js";
import { describeRequestPlan } from "../shared/request-plan.js";
import { basename } from "node:path";
import type { CommandContext } from "../../context.js";
import {
  ImportFailedError,
  InterruptedError,
  InvalidDataError,
  LocalFileError,
  UsageError,
  WaitTimeoutError,
} from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import {
  batchAction,
  batchRecord,
  checkSameBatches,
  countStates,
  countResends,
  decideStart,
  describeTarget,
  errorsPathFor,
  type ImportManifest,
  type ImportTarget,
  lockPathFor,
  type ManifestBatch,
  markImported,
  manifestPathFor,
  newManifest,
  normalizeBaseUrl,
  pendingBatch,
  prepareResend,
  rowRange,
  splitManifest,
  type StartDecision,
} from "../../domain/users-csv/import-manifest.js";
import { checkOutputPath } from "../../output/atomic-file.js";
import type { JsonRecord } from "../../domain/records.js";
import { displayName } from "../../domain/csv-input/reader.js";
import { batchUserRows, planBatchSizes } from "../../domain/users-csv/batches.js";
import {
  readValidUserRows,
  UsersCsvFileError,
  validateUsersCsv,
  type ValidationSummary,
} from "../../domain/users-csv/validate.js";
import type { CommandResult } from "../../output/render.js";
import { escapeControlChars } from "../../text/sanitize.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { UsersImportOptions } from "./options.js";
import { loadManifest, ManifestStore, RejectedRowsFile } from "./side-files.js";
import { openSource, plural, problemLine, showRowLines, type ImportFlags } from "./common.js";
import { refreshUnfinishedStatuses, uploadBatches, waitForBatches } from "./upload.js";

// users import <file> [--dry-run] [--skip-invalid] [--wait [--wait-timeout]] [--resume] [-y]
// (docs/cli-contract.md "Users CSV", "Confirmation", "Retries"; docs/service-spec.md §4.8; issue 7).
//
// The file is read three times, streamed, never held whole (a million rows must fit in
// 150 MiB):
//   pass 1  validates every row (validateUsersCsv). Any invalid row stops here — exit 6,
//           nothing sent — unless --skip-invalid.
//   pass 2  builds every batch and records its hash in the manifest before the first upload,
//           so a file that changed after pass 1 fails here (CHANGED) with nothing sent.
//   pass 3  builds the batches again and uploads them in order, each checked against the
//           hash recorded in pass 2: a file changed during the uploads stops the run before
//           the first batch that differs, and what was sent is what the manifest says.
// Keeping the batches of pass 2 in memory instead would cost ~100 bytes a row (100 MB for
// a million rows); a third read of the file costs far less than the uploads themselves.
//
// Decisions:
// - Side files beside the CSV, named after it without `.csv`: `staff.import.json` (the
//   manifest, see domain/users-csv/import-manifest.ts for when it refuses a run) and
//   `staff.errors.csv`; both mode 0600 (they hold personal data) and written atomically.
// - `<file>.errors.csv` holds every rejected row of this run: the rows that failed local
//   validation, with their cells exactly as in the file, then the rows the service
//   rejected (in batch order), with the values as uploaded (trimmed; ignored columns
//   empty). Each with `row` (spreadsheet row of the original file) and `errors`. A run that
//   rejects no row removes an errors file left by an earlier run, which would otherwise
//   claim rows are still wrong. --dry-run writes it too (it is local; it is what to fix).
// - A batch the service refuses as a whole (400 "no valid row") is recorded `rejected`,
//   its rows reported, and the other batches still go: they are independent files. Such
//   rows, and rows the service rejects inside an accepted batch, end the run with exit 6
//   unless --skip-invalid (the user said to import what is valid and report the rest).
// - Without --wait each task is shown as SCHEDULED, the state a task starts in (docs/service-spec.md §3),
//   without spending a status request per batch of the access budget.
// - Exit 10 (FAILED) and 9 (timeout) only with --wait, as for import-status: without it
//   the outcome would depend on how fast the service happened to be.
// - A declined confirmation ends with exit 2 and nothing sent.

const PROBLEM_COLUMNS = ["row", "field", "message"];
// The table keeps what fits 80 columns (the taskId must not be shortened); JSON and CSV keep
// every field, the row range and the count of rejected rows included.
const BATCH_COLUMNS = ["batch", "rows", "taskId", "status", "state"];
const BATCH_FIELDS = ["batch", "rows", "firstRow", "lastRow", "state", "taskId", "status", "rejectedRows"];

/** "row 4, email: …" — the same line for a local problem and one the service reported. */

export const run = defineRun(UsersImportOptions, async ({ options, args, ...ctx }) => {
  const file = args[0];
  if (file === undefined || file.trim() === "")
    throw new UsageError("users import: the CSV file is missing, e.g. `simadmin users import staff.csv`");
  return importUsersFile(ctx, { ...options, file });
});

/**
 * The whole import of one users file — validation, manifest, lock, batches, errors file,
 * --wait — for `users import` and for `users sync`, which writes its plan as a users CSV
 * and imports it through here (issue 23: one import machinery, not two).
 */
export async function importUsersFile(ctx: CommandContext, flags: ImportFlags): Promise<CommandOutcome> {
  await checkReadableFile(flags.file);
  const fileName = basename(flags.file);
  const manifestPath = manifestPathFor(flags.file);
  // Every side file is checked before anything is read or sent (exit 11 naming it): the
  // errors file even for --dry-run (it writes it), the manifest and lock when uploading.
  // A dry run writes no manifest, and its errors file only when there is a row to put in it:
  // a valid file in a read-only directory is a clean dry run (issue 22 item 3).
  if (!flags.dryRun) {
    await checkOutputPath(errorsPathFor(flags.file));
    await checkOutputPath(manifestPath);
  } else {
    await checkOutputPath(manifestPath).catch((error: unknown) => {
      if (!(error instanceof LocalFileError)) throw error;
      ctx.printer.warn(`dry run: a real run would stop here: ${error.message}`);
    });
  }
  // A dry run sends nothing, so it needs no organization; with one it also checks the manifest.
  const organizationId = flags.dryRun ? (await ctx.services.settings()).org : await ctx.services.org();
  if (!flags.dryRun) await ctx.services.api(); // a missing base URL or key stops here, before the lock
  const settings = await ctx.services.settings();
  const target: ImportTarget | undefined =
    organizationId === undefined
      ? undefined
      : { baseUrl: normalizeBaseUrl(settings.baseUrl ?? ""), apiVersion: settings.apiVersion, organizationId };
  // One run at a time per file (output/file-lock.ts); a dry run sends nothing and needs none.
  const lock = flags.dryRun
    ? undefined
    : await (
        await import("../../output/file-lock.js")
      ).acquireFileLock(lockPathFor(flags.file), {
        what: `an import of ${fileName}`,
        command: `simadmin users import ${flags.file}`,
        now: () => ctx.services.clock.now(),
      });
  try {
    const errors = flags.dryRun
      ? await RejectedRowsFile.openOrSkip(errorsPathFor(flags.file))
      : await RejectedRowsFile.open(errorsPathFor(flags.file));
    const ci = await ctx.printer.ci();
    ci.source(flags.file, flags.encoding);
    errors.onRejected = (row, message) => ci.reject({ file: flags.file, row, message });
    let ending: "success" | "failure" | "interrupted" = "failure";
    try {
      const outcome = await importFile(ctx, flags, { organizationId, target, fileName, manifestPath, errors });
      reportToCi(ci, outcome);
      // A result printed before its error (the invalid rows, then exit 6) is not a success.
      if (outcome.failure === undefined) ending = "success";
      else if (outcome.failure instanceof InterruptedError) ending = "interrupted";
      return outcome;
    } catch (error) {
      if (error instanceof InterruptedError || ctx.services.signal.aborted) ending = "interrupted";
      throw error;
    } finally {
      // Ctrl-C leaves no partial output file (docs/cli-contract.md, exit 130); any other ending
      // keeps the rows found, since they are what the user has to fix. Only an import that
      // went through without rejecting a row removes an errors file of an earlier run.
      if (errors.unwritable && errors.rows > 0) {
        ctx.printer.warn(`dry run: the rejected rows were not written to ${errors.path}: ${errors.unwritable.message}`);
      }
      if (ending === "interrupted") await errors.abort();
      else if (await errors.finish({ removeStale: ending === "success" && !flags.dryRun })) {
        ctx.printer.info(`removed ${errors.path} left by an earlier run: no row was rejected this time`);
      }
      if (ending !== "interrupted" && errors.rows > 0) ci.setErrorsFile(errors.path);
    }
  } finally {
    await lock?.release();
  }
}

interface ImportSetup {
  organizationId: string | undefined;
  /** Service and organization the batches go to: the manifest section of this run. */
  target: ImportTarget | undefined;
  fileName: string;
  manifestPath: string;
  errors: RejectedRowsFile;
}

async function importFile(ctx: CommandContext, flags: ImportFlags, setup: ImportSetup): Promise<CommandOutcome> {
  const { errors, fileName } = setup;
  const progress = await ctx.printer.progress();
  progress.update(`validating ${fileName}…`);
  let summary: ValidationSummary;
  try {
    summary = await validateUsersCsv(openSource(flags.file), {
      onInvalidRow: (row) => errors.addLocal(row),
      encoding: flags.encoding,
    });
  } catch (error) {
    // A problem with the whole file is the report too, so -o json always gets a document.
    if (error instanceof UsersCsvFileError) {
      progress.done();
      return { ...fileProblemResult(error), failure: error };
    }
    throw error;
  } finally {
    progress.done();
  }
  for (const warning of summary.warnings) ctx.printer.warn(`${fileName}: ${warning}`);
  const invalid = summary.invalidRowCount;
  (await ctx.printer.ci()).fact(
    "Rows",
    `${summary.totalRows.toLocaleString("en-US")} (${summary.validRows.toLocaleString("en-US")} valid, ${invalid.toLocaleString("en-US")} invalid)`,
  );

  if (invalid > 0 && !flags.skipInvalid) {
    const kept = summary.invalidRows.length;
    const note =
      kept < invalid
        ? `the first ${plural(kept, "invalid row")} are shown; ${errors.path} lists all ${invalid.toLocaleString("en-US")}`
        : undefined;
    const failure = new InvalidDataError(
      `${plural(invalid, "invalid row")} in ${fileName}; nothing was sent; fix ${invalid === 1 ? "it" : "them"} (see ${errors.path}) or use --skip-invalid to upload the ${plural(summary.validRows, "valid row")} only`,
    );
    return { ...problemResult(summary), ...(note ? { note } : {}), failure };
  }
  if (invalid > 0) {
    ctx.printer.warn(
      `${plural(invalid, "invalid row")} in ${fileName} will be skipped (--skip-invalid); they are listed in ${errors.path}`,
    );
    showRowLines(
      ctx,
      summary.invalidRows.flatMap((r) => r.problems.map((p) => problemLine(p.row, p.field, p.message))),
      invalid > summary.invalidRows.length ? `see ${errors.path}` : undefined,
    );
  }

  // The manifest decides before anything else whether this run may send at all. Only the
  // section of this service and organization counts (issue 12 item 12); others are kept.
  const now = (): string => new Date(ctx.services.clock.now()).toISOString();
  const { mine: existing, others } =
    setup.target === undefined
      ? { mine: undefined, others: [] }
      : splitManifest(await loadManifest(setup.manifestPath), setup.target);
  if (others.length > 0) {
    ctx.printer.info(
      `${setup.manifestPath} also records ${others.map((o) => `an import into ${describeTarget(o)}`).join("; ")}: not this run's (another service or organization); kept as it is`,
    );
  }
  let decision: StartDecision | undefined =
    setup.target === undefined
      ? undefined
      : decideStart(
          existing,
          { sha256: summary.sha256, organizationId: setup.target.organizationId },
          flags.resume || flags.retryFailed,
          {
            file: fileName,
            manifest: setup.manifestPath,
            command: `simadmin users import ${flags.file}`,
          },
        );
  if (decision?.kind === "refuse" && existing === undefined && others.length > 0 && setup.target) {
    decision = {
      kind: "refuse",
      message: `${flags.retryFailed ? "--retry-failed" : "--resume"}: ${setup.manifestPath} records no import of ${fileName} into ${describeTarget(setup.target)}, only imports into another service or organization`,
      hint: `run without ${flags.retryFailed ? "--retry-failed" : "--resume"} to start this import (the other records are kept)`,
    };
  }
  // A dry run never needs the manifest's permission (issue 12 item 13): it says what a real
  // run would do, refusal included.
  if (decision?.kind === "refuse" && !flags.dryRun) throw new UsageError(decision.message, { hint: decision.hint });
  // A run without --wait left its tasks' ends unknown: --retry-failed asks before deciding.
  if (decision?.kind === "resume" && flags.retryFailed && !flags.dryRun && setup.organizationId !== undefined) {
    const asked = await refreshUnfinishedStatuses(ctx, decision.manifest.batches, setup.organizationId);
    if (asked) ctx.printer.info(asked);
  }
  let resumeFrom =
    decision?.kind === "resume" ? prepareResend(decision.manifest, flags.retryFailed, now(), flags.resendAmbiguous) : undefined;
  if (resumeFrom && (flags.markImported !== undefined || flags.acceptedTask !== undefined)) {
    // The user checked at the service (the held-batch message says how): recorded, never sent.
    const marked = markImported(resumeFrom, flags.markImported ?? [], now(), flags.acceptedTask);
    if (!marked.ok)
      throw new UsageError(
        `${flags.markImported ? "--mark-imported" : "--accepted-task"}: ${marked.problem}; nothing was recorded or sent`,
        {
          hint: `only batches a --resume held back as possibly received can be marked; see ${setup.manifestPath}`,
        },
      );
    resumeFrom = marked.manifest;
    if (flags.markImported)
      ctx.printer.info(
        `--mark-imported: ${flags.markImported.map((n) => `batch ${n}`).join(", ")} recorded as imported without a task id (not sent again)`,
      );
    for (const [n, taskId] of flags.acceptedTask ?? [])
      ctx.printer.info(`--accepted-task: batch ${n} recorded as uploaded, task ${taskId} (not sent again)`);
  }

  if (flags.dryRun) {
    const requests = describeRequestPlan(
      { requests: { access: resumeFrom ? toSend(resumeFrom) : planBatchSizes(summary.validRows).length } },
      await ctx.services.rateLimits(),
    );
    return planResult(
      summary,
      fileName,
      setup.organizationId,
      resumeFrom,
      decision?.kind === "refuse" ? decision : undefined,
      flags.resendAmbiguous,
      requests,
    );
  }
  const organizationId = setup.organizationId!;

  if (summary.validRows === 0) {
    throw new InvalidDataError(
      `no valid row in ${fileName}: all ${plural(invalid, "row")} are invalid; nothing was sent (see ${errors.path})`,
    );
  }
  if (decision?.kind === "replace") ctx.printer.info(decision.note);

  if (ctx.printer.io.stdinIsTTY && !flags.yes) {
    // The plan names the file (and counts from it): escaped like every stderr line.
    ctx.printer.io.stderr.write(
      `${escapeControlChars(planText(summary, fileName, organizationId, resumeFrom, flags.resendAmbiguous))}\n`,
    );
    const { confirm } = await import("../../output/prompt.js");
    const sending = resumeFrom
      ? resumeFrom.batches.filter((b) => ["send", "resend-ambiguous"].includes(batchAction(b, flags.resendAmbiguous))).length
      : planBatchSizes(summary.validRows).length;
    if (!(await confirm(ctx.printer.io, `Upload ${plural(sending, "batch", "batches")} to ${organizationId}?`))) {
      throw new UsageError("import cancelled; nothing was sent", { hint: "pass --yes to skip the question" });
    }
  }

  // Pass 2: every batch's hash in the manifest before the first upload.
  progress.update(`preparing the batches of ${fileName}…`);
  const planned: ManifestBatch[] = [];
  try {
    for await (const batch of batchUserRows(readValidUserRows(openSource(flags.file), summary)))
      planned.push(pendingBatch(batch));
  } finally {
    progress.done();
  }
  let manifest: ImportManifest;
  if (resumeFrom) {
    const problem = checkSameBatches(resumeFrom, planned);
    if (problem) {
      throw new UsageError(`--resume: ${setup.manifestPath} does not match ${fileName}: ${problem}; nothing was sent`, {
        hint: `remove ${setup.manifestPath} only if you know which of its batches were imported`,
      });
    }
    // A section written before the service was recorded is this service's from now on.
    manifest = { ...resumeFrom, baseUrl: setup.target!.baseUrl, apiVersion: setup.target!.apiVersion };
    const resend = countResends(decision?.kind === "resume" ? decision.manifest : resumeFrom, flags.retryFailed);
    if (resend.failed > 0)
      ctx.printer.info(
        `--retry-failed: sending ${plural(resend.failed, "FAILED batch", "FAILED batches")} again; their task ids stay in the manifest's history`,
      );
  } else {
    manifest = newManifest(
      {
        file: fileName,
        sha256: summary.sha256,
        bytes: summary.bytes,
        baseUrl: setup.target!.baseUrl,
        apiVersion: setup.target!.apiVersion,
        organizationId,
        skipInvalid: flags.skipInvalid,
        totalRows: summary.totalRows,
        validRows: summary.validRows,
        invalidRows: invalid,
      },
      planned,
      now(),
    );
  }
  const store = new ManifestStore(setup.manifestPath, manifest, now, others);
  ctx.printer.interruptNote = `${setup.manifestPath} records the batches sent: \`simadmin users import ${flags.file} --resume\` finishes the import`;
  await store.save();

  let failure: unknown;
  try {
    await uploadBatches(ctx, flags, { store, summary, organizationId, fileName, errors });
  } catch (error) {
    failure = error;
  }

  let waitOutcome: { timedOut: boolean } | undefined;
  if (failure === undefined && flags.wait) {
    try {
      waitOutcome = await waitForBatches(ctx, flags, store, organizationId);
    } catch (error) {
      failure = error;
    }
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the upload's own error, rethrown unchanged
  if (failure instanceof InterruptedError || ctx.services.signal.aborted) throw failure ?? new InterruptedError();

  // The batches are the output whatever happened next; the lines for people follow them.
  const batches = store.manifest.batches;
  const result: CommandResult = {
    kind: "records",
    records: batches.map(batchRecord),
    tableColumns: BATCH_COLUMNS,
    knownFields: BATCH_FIELDS,
  };
  if (failure !== undefined) return { ...result, failure: failure instanceof Error ? failure : new Error(String(failure)) };

  const serviceRejected = batches.reduce((n, b) => n + (b.state === "rejected" ? b.rows : (b.rowErrors?.length ?? 0)), 0);
  const withTask = batches.filter((b) => b.taskId !== undefined);
  const marked = batches.filter((b) => b.settled !== undefined && b.taskId === undefined);
  const notes = [
    `${fileName}: ${plural(withTask.length, "batch", "batches")} uploaded to ${organizationId}` +
      (withTask.length > 0 ? ` (${withTask.map((b) => b.taskId).join(", ")})` : "") +
      (serviceRejected > 0 ? `; ${plural(serviceRejected, "row")} rejected by the service` : "") +
      (invalid > 0 ? `; ${plural(invalid, "invalid row")} skipped` : "") +
      (marked.length > 0
        ? `; ${marked.map((b) => `batch ${b.number}`).join(", ")} recorded as imported without a task id (--mark-imported)`
        : "") +
      (serviceRejected + invalid > 0 ? ` (see ${errors.path})` : ""),
  ];
  if (!flags.wait && withTask.length > 0) {
    const tasks = withTask.filter((b) => b.status !== "COMPLETED" && b.status !== "FAILED").map((b) => `--task ${b.taskId}`);
    if (tasks.length > 0 && tasks.length <= 5)
      notes.push(`follow them with \`simadmin import-status ${tasks.join(" ")} --wait\``);
  }
  const done = { ...result, note: notes.join("\n") };

  const failed = batches.filter((b) => b.status === "FAILED");
  if (flags.wait && failed.length > 0) {
    const failure = new ImportFailedError(
      `import ${failed.length === 1 ? "task" : "tasks"} ${failed.map((b) => `${b.taskId} (batch ${b.number}, ${rowRange(b)})`).join(", ")} ended FAILED`,
      {
        hint: `the service does not say why; nothing of a FAILED task was imported — check those rows, then \`simadmin users import ${flags.file} --retry-failed\` sends those batches again (their task ids stay in ${setup.manifestPath})`,
      },
    );
    return { ...done, failure };
  }
  if (waitOutcome?.timedOut) {
    const open = batches.filter((b) => b.taskId !== undefined && b.status !== "COMPLETED" && b.status !== "FAILED");
    const failure = new WaitTimeoutError(
      `${plural(open.length, "import task")} still running after ${formatDuration(flags.timeoutMs)}: ${open.map((b) => b.taskId).join(", ")}`,
      {
        hint: `their statuses are recorded in ${setup.manifestPath}; check again with \`simadmin import-status ${open.map((b) => `--task ${b.taskId}`).join(" ")} --wait\``,
      },
    );
    return { ...done, failure };
  }
  if (serviceRejected > 0 && !flags.skipInvalid) {
    const failure = new InvalidDataError(
      `the service rejected ${plural(serviceRejected, "row")} of ${fileName}; the other rows were accepted; the rejected ones are in ${errors.path}`,
      { hint: "fix them and import that file; pass --skip-invalid to accept rejected rows without this exit code" },
    );
    return { ...done, failure };
  }
  return done;
}

/** The batches as CI test cases and summary lines (output/ci-report.ts); a plan (--dry-run) as lines. */
function reportToCi(ci: CiReport, outcome: CommandOutcome): void {
  if (outcome.kind === "object") {
    const plan = outcome.value;
    if (typeof plan.batches === "number") ci.fact("Plan", `dry run: ${plural(plan.batches, "batch", "batches")} would be sent`);
    return;
  }
  if (outcome.kind !== "records") return;
  const batches = outcome.records.filter((r) => typeof r.batch === "number");
  for (const b of batches) {
    const rows = b.firstRow === undefined ? "" : ` (rows ${String(b.firstRow)}-${String(b.lastRow)})`;
    const task = typeof b.taskId === "string" ? ` task ${b.taskId}` : "";
    const failed = b.state === "rejected" || b.status === "FAILED";
    ci.testCase({
      name: `batch ${String(b.batch)}${rows}${task}`,
      failure: failed ? `batch ${String(b.batch)}: ${String(b.state)}${b.status ? ` ${String(b.status)}` : ""}` : undefined,
    });
  }
  if (batches.length > 0) {
    const tasks = batches.map((b) => b.taskId).filter((t): t is string => typeof t === "string");
    ci.fact("Batches", `${batches.length}${tasks.length > 0 ? ` (task ids: ${tasks.join(", ")})` : ""}`);
  }
}

function problemResult(summary: ValidationSummary): CommandResult {
  const records: JsonRecord[] = summary.invalidRows.flatMap((r) =>
    r.problems.map((p) => ({ row: p.row, field: p.field, message: p.message })),
  );
  return { kind: "records", records, tableColumns: PROBLEM_COLUMNS, knownFields: PROBLEM_COLUMNS };
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

/** Batches a resumed run would upload: those not sent yet and those that may not have arrived. */
function toSend(manifest: ImportManifest): number {
  const counts = countStates(manifest);
  return counts.pending + counts.ambiguous + counts.uploading;
}

function planResult(
  summary: ValidationSummary,
  fileName: string,
  organizationId: string | undefined,
  resumeFrom: ImportManifest | undefined,
  refusal: { message: string; hint: string } | undefined,
  resendAmbiguous: boolean,
  requests: ReturnType<typeof describeRequestPlan>,
): CommandResult {
  const sizes = planBatchSizes(summary.validRows);
  const value: JsonRecord = {
    file: fileName,
    organizationId: organizationId ?? null,
    rows: summary.totalRows,
    validRows: summary.validRows,
    invalidRows: summary.invalidRowCount,
    blankRows: summary.blankRows,
    batches: sizes.length,
    batchSizes: sizes,
    adds: summary.adds,
    updates: summary.updates,
    inactive: summary.inactive,
    encoding: summary.encoding,
    delimiter: summary.delimiter === "\t" ? "tab" : summary.delimiter,
    sha256: summary.sha256,
  };
  if (resumeFrom) {
    const counts = countStates(resumeFrom);
    value.resume = {
      uploaded: counts.uploaded,
      rejected: counts.rejected,
      toSend: counts.pending,
      toResend: resendAmbiguous ? counts.ambiguous + counts.uploading : 0,
      heldAmbiguous: resendAmbiguous ? 0 : counts.ambiguous + counts.uploading,
    };
  }
  if (refusal) value.realRunWouldStop = refusal.message;
  value.requests = requests.value.requests.access?.requests ?? 0;
  value.leastSeconds = requests.value.leastSeconds;
  return {
    kind: "object",
    value,
    note:
      `dry run: nothing was sent. ${planText(summary, fileName, organizationId, resumeFrom, resendAmbiguous)}` +
      `\n  the uploads ${requests.text} (then --wait polls the import tasks)` +
      (refusal ? `\n  a real run would stop here: ${refusal.message}; ${refusal.hint}` : ""),
  };
}

/** The plan for people: what the confirmation shows and --dry-run's note. */
function planText(
  summary: ValidationSummary,
  fileName: string,
  organizationId: string | undefined,
  resumeFrom: ImportManifest | undefined,
  resendAmbiguous: boolean,
): string {
  const sizes = planBatchSizes(summary.validRows);
  const lines = [
    `${fileName}: ${plural(summary.totalRows, "row")}, ${summary.validRows.toLocaleString("en-US")} valid, ${summary.invalidRowCount.toLocaleString("en-US")} invalid` +
      (summary.invalidRowCount > 0 ? " (skipped)" : ""),
    `  ${plural(summary.adds, "Add")}, ${plural(summary.updates, "Update")}; ${plural(summary.inactive, "user")} will be INACTIVE`,
    `  ${plural(sizes.length, "batch", "batches")} of at most 750 rows (${sizes.join(", ")})${organizationId ? ` to organization ${organizationId}` : ""}`,
    `  read as ${displayName(summary.encoding)}, delimiter ${summary.delimiter === "\t" ? "tab" : `"${summary.delimiter}"`}`,
  ];
  if (resumeFrom) {
    const counts = countStates(resumeFrom);
    lines.push(
      `  resuming: ${counts.uploaded} already uploaded, ${counts.rejected} rejected, ${counts.pending} to send, ${counts.ambiguous + counts.uploading} possibly received before` +
        (resendAmbiguous ? " and to be sent again (--resend-ambiguous)" : " and held back (not sent without --resend-ambiguous)"),
    );
  }
  return lines.join("\n");
}
