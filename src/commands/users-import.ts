import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { Context } from "../context.js";
import {
  AuthError,
  CliError,
  ImportFailedError,
  InterruptedError,
  InvalidDataError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceError,
  UnexpectedResponseError,
  UsageError,
  WaitTimeoutError,
} from "../errors.js";
import { formatDuration, parsePositiveDuration } from "../domain/durations.js";
import {
  batchAction,
  batchRecord,
  checkSameBatches,
  countStates,
  decideStart,
  errorsPathFor,
  type ImportManifest,
  type ManifestBatch,
  type ManifestRowError,
  manifestPathFor,
  newManifest,
  pendingBatch,
  rowRange,
} from "../domain/import-manifest.js";
import { isNoValidRowAnswer, parseUploadAnswer, type UploadAnswer } from "../domain/import-response.js";
import type { JsonRecord } from "../domain/records.js";
import { taskStateOf } from "../domain/task-status.js";
import { batchUserRows, planBatchSizes, type UserBatch } from "../domain/user-batches.js";
import {
  readValidUserRows,
  type UserRow,
  UsersCsvFileError,
  validateUsersCsv,
  type ValidationSummary,
} from "../domain/users-csv.js";
import type { CommandResult } from "../output/render.js";
import type { CommandOptions } from "../program.js";
import { refuseTextFormat } from "./access-shared.js";
import { DEFAULT_IMPORT_WAIT_TIMEOUT_MS, waitForTasks } from "./import-wait.js";
import { loadManifest, ManifestStore, RejectedRowsFile } from "./users-import-files.js";

// users import <file> [--dry-run] [--skip-invalid] [--wait [--wait-timeout]] [--resume] [-y]
// (cli-contract.md "Users CSV", "Confirmation", "Retries"; spec §4.8; issue 7).
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
//   manifest, see domain/import-manifest.ts for when it refuses a run) and
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
// - Without --wait each task is shown as SCHEDULED, the state a task starts in (spec §3),
//   without spending a status request per batch of the access budget.
// - Exit 10 (FAILED) and 9 (timeout) only with --wait, as for import-status: without it
//   the outcome would depend on how fast the service happened to be.
// - A declined confirmation ends with exit 2 and nothing sent.

const MAX_ROW_LINES = 20;
const PROBLEM_COLUMNS = ["row", "field", "message"];
// The table keeps what fits 80 columns (the taskId must not be shortened); JSON and CSV keep
// every field, the row range and the count of rejected rows included.
const BATCH_COLUMNS = ["batch", "rows", "taskId", "status", "state"];
const BATCH_FIELDS = ["batch", "rows", "firstRow", "lastRow", "state", "taskId", "status", "rejectedRows"];

interface ImportFlags {
  file: string;
  dryRun: boolean;
  skipInvalid: boolean;
  wait: boolean;
  resume: boolean;
  yes: boolean;
  timeoutMs: number;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : many}`;
}

function readFlags(options: CommandOptions, args: string[]): ImportFlags {
  const file = args[0];
  if (file === undefined || file.trim() === "")
    throw new UsageError("users import: the CSV file is missing, e.g. `simadmin users import staff.csv`");
  const flags: ImportFlags = {
    file,
    dryRun: options.dryRun === true,
    skipInvalid: options.skipInvalid === true,
    wait: options.wait === true,
    resume: options.resume === true,
    yes: options.yes === true,
    timeoutMs: DEFAULT_IMPORT_WAIT_TIMEOUT_MS,
  };
  if (!flags.wait && options.waitTimeout !== undefined) {
    throw new UsageError("--wait-timeout applies only with --wait", { hint: "add --wait, or drop --wait-timeout" });
  }
  if (flags.dryRun && flags.wait) throw new UsageError("--wait has nothing to wait for with --dry-run (nothing is sent)");
  if (options.waitTimeout !== undefined) flags.timeoutMs = parsePositiveDuration(String(options.waitTimeout), "--wait-timeout");
  return flags;
}

function openSource(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 256 * 1024 });
}

async function checkReadable(path: string): Promise<void> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`users import: ${path} is not a file`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `users import: cannot read ${path}${code === "ENOENT" ? ": no such file" : ` (${code ?? String(error)})`}`,
    );
  }
}

/** "row 4, email: …" — the same line for a local problem and one the service reported. */
function problemLine(row: number | null | undefined, field: string | null | undefined, message: string): string {
  return `row ${row ?? "?"}${field ? `, ${field}` : ""}: ${message}`;
}

export async function runUsersImport(ctx: Context, options: CommandOptions, args: string[]): Promise<CommandResult | void> {
  const flags = readFlags(options, args);
  await ctx.requireVersion2("users import");
  await refuseTextFormat(ctx, "users import");
  await checkReadable(flags.file);
  // A dry run sends nothing, so it needs no organization; with one it also checks the manifest.
  const organizationId = flags.dryRun ? (await ctx.settings()).org : await ctx.org();
  const fileName = basename(flags.file);
  const manifestPath = manifestPathFor(flags.file);
  const errors = await RejectedRowsFile.open(errorsPathFor(flags.file));
  let ending: "success" | "failure" | "interrupted" = "failure";
  try {
    const outcome = await importFile(ctx, flags, { organizationId, fileName, manifestPath, errors });
    ending = "success";
    return outcome;
  } catch (error) {
    if (error instanceof InterruptedError || ctx.signal.aborted) ending = "interrupted";
    throw error;
  } finally {
    // Ctrl-C leaves no partial output file (cli-contract.md, exit 130); any other ending
    // keeps the rows found, since they are what the user has to fix. Only an import that
    // went through without rejecting a row removes an errors file of an earlier run.
    if (ending === "interrupted") await errors.abort();
    else if (await errors.finish({ removeStale: ending === "success" && !flags.dryRun })) {
      ctx.info(`removed ${errors.path} left by an earlier run: no row was rejected this time`);
    }
  }
}

interface ImportSetup {
  organizationId: string | undefined;
  fileName: string;
  manifestPath: string;
  errors: RejectedRowsFile;
}

async function importFile(ctx: Context, flags: ImportFlags, setup: ImportSetup): Promise<CommandResult | void> {
  const { errors, fileName } = setup;
  const progress = await ctx.progress();
  progress.update(`validating ${fileName}…`);
  let summary: ValidationSummary;
  try {
    summary = await validateUsersCsv(openSource(flags.file), { onInvalidRow: (row) => errors.addLocal(row) });
  } catch (error) {
    // A problem with the whole file is the report too, so -o json always gets a document.
    if (error instanceof UsersCsvFileError) {
      progress.done();
      await ctx.print(fileProblemResult(error));
    }
    throw error;
  } finally {
    progress.done();
  }
  for (const warning of summary.warnings) ctx.warn(`${fileName}: ${warning}`);
  const invalid = summary.invalidRowCount;

  if (invalid > 0 && !flags.skipInvalid) {
    await ctx.print(problemResult(summary));
    const kept = summary.invalidRows.length;
    if (kept < invalid)
      ctx.info(`the first ${plural(kept, "invalid row")} are shown; ${errors.path} lists all ${invalid.toLocaleString("en-US")}`);
    throw new InvalidDataError(
      `${plural(invalid, "invalid row")} in ${fileName}; nothing was sent; fix ${invalid === 1 ? "it" : "them"} (see ${errors.path}) or use --skip-invalid to upload the ${plural(summary.validRows, "valid row")} only`,
    );
  }
  if (invalid > 0) {
    ctx.warn(
      `${plural(invalid, "invalid row")} in ${fileName} will be skipped (--skip-invalid); they are listed in ${errors.path}`,
    );
    showRowLines(
      ctx,
      summary.invalidRows.flatMap((r) => r.problems.map((p) => problemLine(p.row, p.field, p.message))),
      invalid > summary.invalidRows.length ? `see ${errors.path}` : undefined,
    );
  }

  // The manifest decides before anything else whether this run may send at all.
  const existing = setup.organizationId === undefined ? undefined : await loadManifest(setup.manifestPath);
  const decision =
    setup.organizationId === undefined
      ? undefined
      : decideStart(existing, { sha256: summary.sha256, organizationId: setup.organizationId }, flags.resume, {
          file: fileName,
          manifest: setup.manifestPath,
          command: `simadmin users import ${flags.file}`,
        });
  if (decision?.kind === "refuse") throw new UsageError(decision.message, { hint: decision.hint });
  const resumeFrom = decision?.kind === "resume" ? decision.manifest : undefined;

  if (flags.dryRun) return planResult(summary, fileName, setup.organizationId, resumeFrom);
  const organizationId = setup.organizationId!;

  if (summary.validRows === 0) {
    throw new InvalidDataError(
      `no valid row in ${fileName}: all ${plural(invalid, "row")} are invalid; nothing was sent (see ${errors.path})`,
    );
  }
  if (decision?.kind === "replace") ctx.info(decision.note);

  if (ctx.io.stdinIsTTY && !flags.yes) {
    ctx.io.stderr.write(`${planText(summary, fileName, organizationId, resumeFrom)}\n`);
    const { confirm } = await import("../output/prompt.js");
    const sending = resumeFrom
      ? resumeFrom.batches.filter((b) => batchAction(b) === "send" || batchAction(b) === "resend-ambiguous").length
      : planBatchSizes(summary.validRows).length;
    if (!(await confirm(ctx.io, `Upload ${plural(sending, "batch", "batches")} to ${organizationId}?`))) {
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
  const now = (): string => new Date(ctx.clock.now()).toISOString();
  let manifest: ImportManifest;
  if (resumeFrom) {
    const problem = checkSameBatches(resumeFrom, planned);
    if (problem) {
      throw new UsageError(`--resume: ${setup.manifestPath} does not match ${fileName}: ${problem}; nothing was sent`, {
        hint: `remove ${setup.manifestPath} only if you know which of its batches were imported`,
      });
    }
    manifest = resumeFrom;
  } else {
    manifest = newManifest(
      {
        file: fileName,
        sha256: summary.sha256,
        bytes: summary.bytes,
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
  const store = new ManifestStore(setup.manifestPath, manifest, now);
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
  if (failure instanceof InterruptedError || ctx.signal.aborted) throw failure ?? new InterruptedError();

  const batches = store.manifest.batches;
  await ctx.print({ kind: "records", records: batches.map(batchRecord), tableColumns: BATCH_COLUMNS, knownFields: BATCH_FIELDS });
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the upload's own error, rethrown unchanged
  if (failure !== undefined) throw failure;

  const serviceRejected = batches.reduce((n, b) => n + (b.state === "rejected" ? b.rows : (b.rowErrors?.length ?? 0)), 0);
  const withTask = batches.filter((b) => b.taskId !== undefined);
  ctx.info(
    `${fileName}: ${plural(withTask.length, "batch", "batches")} uploaded to ${organizationId}` +
      (withTask.length > 0 ? ` (${withTask.map((b) => b.taskId).join(", ")})` : "") +
      (serviceRejected > 0 ? `; ${plural(serviceRejected, "row")} rejected by the service` : "") +
      (invalid > 0 ? `; ${plural(invalid, "invalid row")} skipped` : "") +
      (serviceRejected + invalid > 0 ? ` (see ${errors.path})` : ""),
  );
  if (!flags.wait && withTask.length > 0) {
    const tasks = withTask.filter((b) => b.status !== "COMPLETED" && b.status !== "FAILED").map((b) => `--task ${b.taskId}`);
    if (tasks.length > 0 && tasks.length <= 5) ctx.info(`follow them with \`simadmin import-status ${tasks.join(" ")} --wait\``);
  }

  const failed = batches.filter((b) => b.status === "FAILED");
  if (flags.wait && failed.length > 0) {
    throw new ImportFailedError(
      `import ${failed.length === 1 ? "task" : "tasks"} ${failed.map((b) => `${b.taskId} (batch ${b.number}, ${rowRange(b)})`).join(", ")} ended FAILED`,
      { hint: "the service does not say why; nothing of a FAILED task was imported — check those rows and import them again" },
    );
  }
  if (waitOutcome?.timedOut) {
    const open = batches.filter((b) => b.taskId !== undefined && b.status !== "COMPLETED" && b.status !== "FAILED");
    throw new WaitTimeoutError(
      `${plural(open.length, "import task")} still running after ${formatDuration(flags.timeoutMs)}: ${open.map((b) => b.taskId).join(", ")}`,
      {
        hint: `their statuses are recorded in ${setup.manifestPath}; check again with \`simadmin import-status ${open.map((b) => `--task ${b.taskId}`).join(" ")} --wait\``,
      },
    );
  }
  if (serviceRejected > 0 && !flags.skipInvalid) {
    throw new InvalidDataError(
      `the service rejected ${plural(serviceRejected, "row")} of ${fileName}; the other rows were accepted; the rejected ones are in ${errors.path}`,
      { hint: "fix them and import that file; pass --skip-invalid to accept rejected rows without this exit code" },
    );
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

function showRowLines(ctx: Context, lines: string[], more: string | undefined): void {
  for (const line of lines.slice(0, MAX_ROW_LINES)) ctx.info(`  ${line}`);
  const hidden = lines.length - Math.min(lines.length, MAX_ROW_LINES);
  if (hidden > 0 || more)
    ctx.info(`  …${hidden > 0 ? ` and ${plural(hidden, "more problem")}` : " more"}${more ? `: ${more}` : ""}`);
}

function planResult(
  summary: ValidationSummary,
  fileName: string,
  organizationId: string | undefined,
  resumeFrom: ImportManifest | undefined,
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
    sha256: summary.sha256,
  };
  if (resumeFrom) {
    const counts = countStates(resumeFrom);
    value.resume = {
      uploaded: counts.uploaded,
      rejected: counts.rejected,
      toSend: counts.pending,
      toResend: counts.ambiguous + counts.uploading,
    };
  }
  return { kind: "object", value, note: `dry run: nothing was sent. ${planText(summary, fileName, organizationId, resumeFrom)}` };
}

/** The plan for people: what the confirmation shows and --dry-run's note. */
function planText(
  summary: ValidationSummary,
  fileName: string,
  organizationId: string | undefined,
  resumeFrom: ImportManifest | undefined,
): string {
  const sizes = planBatchSizes(summary.validRows);
  const lines = [
    `${fileName}: ${plural(summary.totalRows, "row")}, ${summary.validRows.toLocaleString("en-US")} valid, ${summary.invalidRowCount.toLocaleString("en-US")} invalid` +
      (summary.invalidRowCount > 0 ? " (skipped)" : ""),
    `  ${plural(summary.adds, "Add")}, ${plural(summary.updates, "Update")}; ${plural(summary.inactive, "user")} will be INACTIVE`,
    `  ${plural(sizes.length, "batch", "batches")} of at most 750 rows (${sizes.join(", ")})${organizationId ? ` to organization ${organizationId}` : ""}`,
  ];
  if (resumeFrom) {
    const counts = countStates(resumeFrom);
    lines.push(
      `  resuming: ${counts.uploaded} already uploaded, ${counts.rejected} rejected, ${counts.pending} to send, ${counts.ambiguous + counts.uploading} possibly received before and to be sent again`,
    );
  }
  return lines.join("\n");
}

interface UploadSetup {
  store: ManifestStore;
  summary: ValidationSummary;
  organizationId: string;
  fileName: string;
  errors: RejectedRowsFile;
}

/** Pass 3: the batches in order, each uploaded at most once unless --resume says otherwise. */
async function uploadBatches(ctx: Context, flags: ImportFlags, setup: UploadSetup): Promise<void> {
  const { store, summary, errors } = setup;
  const total = store.manifest.batches.length;
  const stem = setup.fileName.replace(/\.csv$/i, "");
  const progress = await ctx.progress();
  let current = "";
  const stopListening = ctx.onWait((event) => {
    if (current)
      progress.update(
        `${current} · waiting ${formatDuration(event.waitMs)} for the ${event.reason === "budget" ? "access rate budget" : "retry"}`,
      );
  });
  const [api, { uploadUsersCsv }] = await Promise.all([ctx.api(), import("../api/endpoints.js")]);
  try {
    // Without the file hash: it is checked at the end of the file, after the uploads; each
    // batch's own hash, checked before it is sent, is what guards this pass.
    const expected = { invalidRowNumbers: summary.invalidRowNumbers, validRows: summary.validRows };
    for await (const { batch, users } of batchesWithUsers(readValidUserRows(openSource(flags.file), expected))) {
      const recorded = store.batch(batch.number);
      if (recorded.sha256 !== batch.sha256) {
        throw new UsersCsvFileError(
          "CHANGED",
          `${setup.fileName} changed during the import: batch ${batch.number} (${rowRange(recorded)}) is no longer the one prepared; it was not sent`,
          {
            hint: `restore the file and run \`simadmin users import ${flags.file} --resume\`; ${store.path} records what was sent`,
          },
        );
      }
      const action = batchAction(recorded);
      if (action === "skip-uploaded" || action === "skip-rejected") {
        reportServiceRows(ctx, recorded, users, summary.columns, errors, false);
        continue;
      }
      const what = `batch ${batch.number} of ${total} (${rowRange(recorded)})`;
      if (action === "resend-ambiguous") {
        ctx.warn(
          `sending ${what} again: its earlier upload may have been received by the service; --resume is your say-so to re-send it`,
        );
      }
      current = `uploading ${what}`;
      progress.update(`${current}…`);
      const sent = await store.update(batch.number, { state: "uploading", sends: recorded.sends + 1 });
      let body: unknown;
      try {
        body = await uploadUsersCsv(api, {
          organizationId: setup.organizationId,
          csv: batch.csv,
          fileName: `${stem}.batch-${batch.number}-of-${total}.csv`,
        });
      } catch (error) {
        progress.done();
        await recordFailure(ctx, flags, store, sent, batch, users, error, { summary, errors });
        continue;
      }
      const answer = parseUploadAnswer(body, batch);
      if (answer.taskId === undefined) {
        if (answer.validUsersCount === 0) {
          await recordRejected(ctx, store, batch, users, answer, { summary, errors });
          continue;
        }
        await store.update(batch.number, { state: "ambiguous", error: "the service answered without a taskId" });
        throw new UnexpectedResponseError(
          `bulk import: the service accepted ${what} but its answer has no taskId; nothing more was sent`,
          {
            hint: `check whether the batch was imported; \`simadmin users import ${flags.file} --resume\` re-sends it and continues`,
          },
        );
      }
      const done = await store.update(batch.number, {
        state: "uploaded",
        taskId: answer.taskId,
        // Spec §3: a task is SCHEDULED when its taskId is issued.
        status: "SCHEDULED",
        statusAt: new Date(ctx.clock.now()).toISOString(),
        uploadedAt: new Date(ctx.clock.now()).toISOString(),
        ...counts(answer),
        rowErrors: rowErrorsOf(answer),
        error: undefined,
      });
      progress.done();
      ctx.info(
        `${what}: task ${answer.taskId}${done.rowErrors?.length ? `, ${plural(done.rowErrors.length, "row")} rejected by the service` : ""}`,
      );
      reportServiceRows(ctx, done, users, summary.columns, errors, true);
    }
  } finally {
    stopListening();
    progress.done();
  }
}

function counts(answer: UploadAnswer): Partial<ManifestBatch> {
  const out: Partial<ManifestBatch> = {};
  if (answer.validUsersCount !== undefined) out.validUsersCount = answer.validUsersCount;
  if (answer.invalidUsersCount !== undefined) out.invalidUsersCount = answer.invalidUsersCount;
  return out;
}

function rowErrorsOf(answer: UploadAnswer): ManifestRowError[] {
  return answer.rowErrors.map((e) => ({
    row: e.row ?? null,
    batchRow: e.batchRow ?? null,
    field: e.field ?? null,
    messages: e.messages,
  }));
}

/** Shows a batch's service-rejected rows like local ones and writes them to errors.csv. */
function reportServiceRows(
  ctx: Context,
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
      ctx.warn(
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
  if (show && lines.length > 0) showRowLines(ctx, lines, lines.length > MAX_ROW_LINES ? `see ${errors.path}` : undefined);
}

/**
 * The batches of the valid rows, each with its users: batchUserRows keeps only their row
 * numbers, and the rows the service rejects go to errors.csv with their values. A batch is
 * yielded right after its last row was read, so exactly its rows are waiting in `seen`.
 */
async function* batchesWithUsers(rows: AsyncIterable<UserRow>): AsyncGenerator<{ batch: UserBatch; users: UserRow[] }> {
  const seen: UserRow[] = [];
  async function* tee(): AsyncGenerator<UserRow> {
    for await (const user of rows) {
      seen.push(user);
      yield user;
    }
  }
  for await (const batch of batchUserRows(tee())) yield { batch, users: seen.splice(0, batch.rows.length) };
}

async function recordRejected(
  ctx: Context,
  store: ManifestStore,
  batch: UserBatch,
  users: readonly UserRow[],
  answer: UploadAnswer,
  setup: { summary: ValidationSummary; errors: RejectedRowsFile },
): Promise<void> {
  const rejected = await store.update(batch.number, {
    state: "rejected",
    ...counts(answer),
    rowErrors: rowErrorsOf(answer),
    error: "no valid row: the service created no task",
  });
  ctx.warn(
    `batch ${batch.number} (${rowRange(rejected)}): the service rejected every row; no task was created; continuing with the other batches`,
  );
  reportServiceRows(ctx, rejected, users, setup.summary.columns, setup.errors, true);
}

/**
 * An upload that did not get a taskId. Whether the service may have received it decides
 * everything: if it cannot have (429, refused connection, 401/403/404, a 400), the batch is
 * pending again and a plain re-run sends it; if it may have, the batch is `ambiguous`, the
 * run stops, and only --resume sends it again.
 */
async function recordFailure(
  ctx: Context,
  flags: ImportFlags,
  store: ManifestStore,
  sent: ManifestBatch,
  batch: UserBatch,
  users: readonly UserRow[],
  error: unknown,
  setup: { summary: ValidationSummary; errors: RejectedRowsFile },
): Promise<void> {
  const what = `batch ${batch.number} of ${store.manifest.batches.length} (${rowRange(sent)})`;
  const message = error instanceof Error ? error.message : String(error);
  const resume = `simadmin users import ${flags.file} --resume`;
  if (error instanceof InvalidDataError) {
    const answer = parseUploadAnswer(error.body, batch);
    if (isNoValidRowAnswer(answer)) {
      await recordRejected(ctx, store, batch, users, answer, setup);
      return;
    }
    await store.update(batch.number, { state: "pending", error: message });
    throw new InvalidDataError(`${what} was refused by the service: ${message}; no task was created and nothing more was sent`, {
      hint: `\`${resume}\` sends it again and continues`,
      body: error.body,
      cause: error,
    });
  }
  const notReceived =
    error instanceof RateLimitError ||
    error instanceof AuthError ||
    error instanceof PermissionError ||
    error instanceof NotFoundError ||
    error instanceof UsageError ||
    (error instanceof ServiceError && !(error instanceof UnexpectedResponseError) && error.delivery === "not-sent");
  if (notReceived) {
    await store.update(batch.number, { state: "pending", error: message });
    const done = store.manifest.batches.filter((b) => b.number < batch.number && b.taskId).length;
    throw withContext(
      error,
      `${message}; ${what} was not received and nothing more was sent (${plural(done, "earlier batch", "earlier batches")} uploaded)`,
      `${(error as CliError).hint ? `${(error as CliError).hint}; then ` : ""}\`${resume}\` continues without sending an uploaded batch again`,
    );
  }
  // Timeout, reset, 5xx, dropped after sending, a strange answer, Ctrl-C mid-upload: the
  // service may hold a task for this batch that we will never hear of.
  await store.update(batch.number, { state: "ambiguous", error: message });
  if (error instanceof InterruptedError || ctx.signal.aborted) throw error;
  throw new ServiceError(
    `${what} may have been accepted by the service: ${message}; it was not sent again and nothing more was sent`,
    {
      delivery: "maybe-received",
      hint:
        `${store.path} marks it "ambiguous". Check whether its users were imported (\`simadmin import-status --task <id>\` shows the batches that have a taskId in the manifest), ` +
        `then run \`${resume}\`: it re-sends that batch (Add rows already imported would be rejected as existing) and the rest, and skips uploaded ones`,
      cause: error,
    },
  );
}

/** The same failure (same exit code) told in terms of the import. */
function withContext(error: CliError, message: string, hint: string): CliError {
  const options = { hint, cause: error };
  if (error instanceof RateLimitError)
    return new RateLimitError(message, {
      ...options,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    });
  if (error instanceof AuthError) return new AuthError(message, options);
  if (error instanceof PermissionError) return new PermissionError(message, options);
  if (error instanceof NotFoundError) return new NotFoundError(message, options);
  if (error instanceof UsageError) return new UsageError(message, options);
  if (error instanceof ServiceError)
    return new ServiceError(message, {
      ...options,
      delivery: error.delivery,
      ...(error.status === undefined ? {} : { status: error.status }),
    });
  return error;
}

async function waitForBatches(
  ctx: Context,
  flags: ImportFlags,
  store: ManifestStore,
  organizationId: string,
): Promise<{ timedOut: boolean }> {
  const [api, { getImportStatus }] = await Promise.all([ctx.api(), import("../api/endpoints.js")]);
  const withTask = store.manifest.batches.filter((b): b is ManifestBatch & { taskId: string } => b.taskId !== undefined);
  const byTask = new Map(withTask.map((b) => [b.taskId, b.number]));
  const outcome = await waitForTasks(
    ctx,
    withTask.map((b) => ({ taskId: b.taskId, label: `batch ${b.number}`, status: b.status ?? "SCHEDULED" })),
    {
      timeoutMs: flags.timeoutMs,
      fetchStatus: async (taskId) => taskStateOf(await getImportStatus(api, { organizationId, taskId }), taskId),
      onChange: async (task) => {
        const number = byTask.get(task.taskId);
        if (number !== undefined)
          await store.update(number, { status: task.status, statusAt: new Date(ctx.clock.now()).toISOString() });
      },
    },
  );
  return { timedOut: outcome.timedOut };
}
