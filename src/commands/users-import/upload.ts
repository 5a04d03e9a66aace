import { getImportStatus, uploadUsersCsv } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import {
  CliError,
  InterruptedError,
  InvalidDataError,
  LocalFileError,
  ServiceError,
  UnexpectedResponseError,
} from "../../errors.js";
import { escapeControlChars } from "../../text/sanitize.js";
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
  /** Ambiguous batches of an earlier run that this one does not send (no --resend-ambiguous). */
  const held: ManifestBatch[] = [];
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
      const action = batchAction(recorded, flags.resendAmbiguous);
      if (action === "skip-uploaded" || action === "skip-rejected") {
        reportServiceRows(ctx, recorded, users, summary.columns, errors, false);
        continue;
      }
      if (action === "hold-ambiguous") {
        held.push(recorded);
        continue;
      }
      const what = `batch ${batch.number} of ${total} (${rowRange(recorded)})`;
      if (action === "resend-ambiguous") {
        ctx.printer.warn(
          `sending ${what} again (--resend-ambiguous): its earlier upload may have been received by the service, so its rows may be imported twice`,
        );
      }
      current = `uploading ${what}`;
      progress.update(`${current}…`);
      // Room to record the answer first, then "uploading": either failing (disk full) stops
      // the run before anything is sent (ManifestStore.reserve).
      await store.reserve();
      const sent = await store.update(batch.number, { state: "uploading", sends: recorded.sends + 1 }, { spare: true });
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
            hint: `check whether the batch was imported; \`simadmin users import ${flags.file} --resume --resend-ambiguous\` re-sends it and continues`,
          },
        );
      }
      // The accepted taskId reaches stderr before anything else can fail (even under --quiet):
      // if the manifest cannot record it, this line is what remains (issue 22 item 1).
      progress.done();
      ctx.printer.io.stderr.write(
        `${ctx.printer.redactor.apply(escapeControlChars(`accepted: batch ${batch.number} of ${total}, task ${answer.taskId}`))}\n`,
      );
      const accepted = {
        state: "uploaded",
        taskId: answer.taskId,
        // Spec §3: a task is SCHEDULED when its taskId is issued.
        status: "SCHEDULED",
        statusAt: new Date(ctx.services.clock.now()).toISOString(),
        uploadedAt: new Date(ctx.services.clock.now()).toISOString(),
        ...counts(answer),
        error: undefined,
      } satisfies Partial<ManifestBatch>;
      let done: ManifestBatch;
      try {
        done = await store.update(batch.number, { ...accepted, rowErrors: rowErrorsOf(answer) });
      } catch (error) {
        if (!(error instanceof LocalFileError)) throw error;
        done = await recordAcceptedAnyway(store, flags, batch.number, total, answer.taskId, accepted, error);
      }
      if (done.rowErrors?.length) ctx.printer.info(`${what}: ${plural(done.rowErrors.length, "row")} rejected by the service`);
      reportServiceRows(ctx, done, users, summary.columns, errors, true);
    }
    if (held.length > 0) throw heldError(held, total, flags.rerun ?? `simadmin users import ${flags.file}`, store);
  } finally {
    stopListening();
    progress.done();
    await store.dropReservation();
  }
}

/**
 * The answer's full record did not fit (many row errors beyond the reservation, or a
 * copy-on-write disk): the short record — taskId and state, no row errors — is tried once
 * more (a fresh reservation-free write of a smaller file may still fit). If that fails too,
 * exit 11 naming the manifest and the taskId: the batch stays "uploading" in the manifest,
 * which --resume holds back instead of sending again, and the taskId is on stderr.
 */
async function recordAcceptedAnyway(
  store: ManifestStore,
  flags: ImportFlags,
  number: number,
  total: number,
  taskId: string,
  accepted: Partial<ManifestBatch>,
  failure: LocalFileError,
): Promise<ManifestBatch> {
  try {
    return await store.update(number, { ...accepted, error: "the service's row errors could not be recorded (disk full?)" });
  } catch (again) {
    // The short record's failure is the one to name: it is what could not be written last.
    if (again instanceof LocalFileError) failure = again;
    throw new LocalFileError(
      `${failure.message}; batch ${number} of ${total} was ACCEPTED by the service as task ${taskId} but ${store.path} could not record it; nothing more was sent`,
      {
        path: store.path,
        ...(failure.code === undefined ? {} : { code: failure.code }),
        hint: `do not send it again: free some space, then \`${flags.rerun ?? `simadmin users import ${flags.file}`} --resume --accepted-task ${number}=${taskId}\` records that task and sends the remaining batches; follow it with \`simadmin import-status --task ${taskId}\``,
        cause: failure,
      },
    );
  }
}

/** The held-batch errors: their hint is the way out, which users sync keeps (it names the sync's command). */
const heldErrors = new WeakSet<Error>();
export function isHeldBatchesError(error: unknown): boolean {
  return error instanceof Error && heldErrors.has(error);
}

/**
 * Exit 8 ("the service's answer is unknown", docs/cli-contract.md "Retries"): batches an
 * earlier run may have delivered were held back; each is named with how to check it.
 */
function heldError(held: readonly ManifestBatch[], total: number, rerun: string, store: ManifestStore): ServiceError {
  const numbers = held.map((b) => b.number).join(",");
  const names = held.map((b) => `batch ${b.number} of ${total} (${rowRange(b)})`).join(", ");
  const tasks = store.manifest.batches.filter((b) => b.taskId !== undefined);
  const error = new ServiceError(
    `${names} may have been received by the service in an earlier run (killed or cut off after the upload began); not sent again`,
    {
      delivery: "not-sent",
      hint:
        `the service has no idempotency key, so check in the app whether the users of ${held.length === 1 ? "those rows" : "those batches' rows"} exist` +
        ` (an "accepted: batch N of ${total}, task <id>" line printed by that run can be checked with \`simadmin import-status --task <id>\`)` +
        (tasks.length > 0 && tasks.length <= 5 ? `; the recorded tasks: ${tasks.map((b) => b.taskId).join(", ")}` : "") +
        `; if they exist, \`${rerun} --resume --mark-imported ${numbers}\` records ${held.length === 1 ? "it" : "them"} as imported without sending` +
        `; if they do not, \`${rerun} --resume --resend-ambiguous\` sends ${held.length === 1 ? "it" : "them"} again`,
    },
  );
  heldErrors.add(error);
  return error;
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
    `then run \`simadmin users import ${file} --resume\`: it sends the batches never sent and holds this one back; ` +
    `\`--resume --resend-ambiguous\` sends it again too (Add rows already imported are rejected as existing)${follow}`
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
