// @ts-nocheck
import { getImportStatus, uploadUsersCsv } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import { CliError, InterruptedError, InvalidDataError, ServiceError, UnexpectedResponseError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import { batchAction, type ManifestBatch, type ManifestRowError, rowRange } from "../../domain/users-csv/import-manifest.js";
import { isNoValidRowAnswer, parseUploadAnswer, type UploadAnswer } from "../../domain/users-csv/import-response.js";
import { taskStateOf } from "../../domain/users-csv/task-status.js";
import { batchUserRows, type UserBatch } from "../../domain/users-csv/batches.js";
import { readValidUserRows, type UserRow, UsersCsvFileError, type ValidationSummary } from "../../domain/users-csv/validate.js";
import { waitForTasks } from "../shared/import-wait.js";
import { ManifestStore, RejectedRowsFile } from "./side-files.js";
import { MAX_ROW_LINES, openSource, plural, problemLine, showRowLines, type ImportFlags } from "./common.js";

// Uploading the batches of `users import` and waiting for their tasks (see users-import.ts).

interface UploadSetup {
  store: ManifestStore;
  summary: ValidationSummary;
  organizationId: string;
  fileName: string;
  errors: RejectedRowsFile;
}

/** Pass 3: the batches in order, each uploaded at most once unless --resume says otherwise. */
export async function uploadBatches(ctx: CommandContext, flags: ImportFlags, setup: UploadSetup): Promise<void> {
  const { store, summary, errors } = setup;
  const total = store.manifest.batches.length;
  const stem = setup.fileName.replace(/\.csv$/i, "");
  const progress = await ctx.printer.progress();
  let current = "";
  const stopListening = ctx.services.onWait((event) => {
    if (current)
      progress.update(
        `${current} · waiting ${formatDuration(event.waitMs)} for the ${event.reason === "budget" ? "access rate budget" : "retry"}`,
      );
  });
  const api = await ctx.services.api();
  try {
    // Without the file hash: it is checked at the end of the file, after the uploads; each
    // batch's own hash, checked before it is sent, is what guards this pass.
    const expected = {
      invalidRowNumbers: summary.invalidRowNumbers,
      validRows: summary.validRows,
      encoding: summary.encoding,
    };
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
        ctx.printer.warn(
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
        statusAt: new Date(ctx.services.clock.now()).toISOString(),
        uploadedAt: new Date(ctx.services.clock.now()).toISOString(),
        ...counts(answer),
        rowErrors: rowErrorsOf(answer),
        error: undefined,
      });
      progress.done();
      ctx.printer.info(
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
  ctx: CommandContext,
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
  ctx.printer.warn(
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
  ctx: CommandContext,
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
  // Each error class says whether the service can have received the upload (errors.ts).
  if (error instanceof CliError && error.delivery === "not-sent") {
    await store.update(batch.number, { state: "pending", error: message });
    const done = store.manifest.batches.filter((b) => b.number < batch.number && b.taskId).length;
    throw error.rephrase(
      `${message}; ${what} was not received and nothing more was sent (${plural(done, "earlier batch", "earlier batches")} uploaded)`,
      `${error.hint ? `${error.hint}; then ` : ""}\`${resume}\` continues without sending an uploaded batch again`,
    );
  }
  // Timeout, reset, 5xx, dropped after sending, a strange answer, Ctrl-C mid-upload: the
  // service may hold a task for this batch that we will never hear of.
  await store.update(batch.number, { state: "ambiguous", error: message });
  if (error instanceof InterruptedError || ctx.services.signal.aborted) throw error;
  throw new ServiceError(
    `${what} may have been accepted by the service: ${message}; it was not sent again and nothing more was sent`,
    {
      delivery: "maybe-received",
      hint: ambiguousHint(store, sent, flags.file),
      cause: error,
    },
  );
}

/**
 * What to do about a batch that may have been received: it has no task id to look up, so
 * the advice names what exists — its rows, and the task ids of the batches that have one.
 */
function ambiguousHint(store: ManifestStore, batch: ManifestBatch, file: string): string {
  const withTask = store.manifest.batches.filter((b) => b.taskId !== undefined && b.number !== batch.number);
  const follow =
    withTask.length > 0 && withTask.length <= 5
      ? `; the uploaded batches can be followed with \`simadmin import-status ${withTask.map((b) => `--task ${b.taskId}`).join(" ")}\``
      : "";
  return (
    `${store.path} marks batch ${batch.number} "ambiguous": the service gave it no task id, so check whether the users of its ${rowRange(batch)} exist, ` +
    `then run \`simadmin users import ${file} --resume\`: it sends that batch again (Add rows already imported are rejected as existing) and the rest, and skips uploaded ones${follow}`
  );
}

export async function waitForBatches(
  ctx: CommandContext,
  flags: ImportFlags,
  store: ManifestStore,
  organizationId: string,
): Promise<{ timedOut: boolean }> {
  const api = await ctx.services.api();
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
          await store.update(number, { status: task.status, statusAt: new Date(ctx.services.clock.now()).toISOString() });
      },
    },
  );
  return { timedOut: outcome.timedOut };
}

/**
 * --retry-failed after a run without --wait: the manifest knows its batches were uploaded
 * but not how their tasks ended. Their status is asked for once (read-only requests) and
 * written into `batches`, so a task that ended FAILED is sent again like one a --wait saw
 * fail (docs/cli-contract.md "Users CSV": nothing lost, nothing imported twice). Returns a
 * line for stderr, or undefined when every batch's end was known already.
 */
export async function refreshUnfinishedStatuses(
  ctx: CommandContext,
  batches: ManifestBatch[],
  organizationId: string,
): Promise<string | undefined> {
  const unknown = batches.filter(
    (b): b is ManifestBatch & { taskId: string } =>
      b.state === "uploaded" && b.taskId !== undefined && b.status !== "COMPLETED" && b.status !== "FAILED",
  );
  if (unknown.length === 0) return undefined;
  const api = await ctx.services.api();
  const counts = new Map<string, number>();
  for (const batch of unknown) {
    batch.status = taskStateOf(await getImportStatus(api, { organizationId, taskId: batch.taskId }), batch.taskId);
    batch.statusAt = new Date(ctx.services.clock.now()).toISOString();
    counts.set(batch.status, (counts.get(batch.status) ?? 0) + 1);
  }
  const found = [...counts].map(([status, n]) => `${n} ${status}`).join(", ");
  return `--retry-failed: asked the service how the ${plural(unknown.length, "batch", "batches")} uploaded without --wait ended: ${found}`;
}
