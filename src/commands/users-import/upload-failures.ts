import type { CommandContext } from "../../context.js";
import { CliError, InterruptedError, InvalidDataError, LocalFileError, ServiceError } from "../../errors.js";
import { type ManifestBatch, rowRange } from "../../domain/users-csv/import-manifest.js";
import { isNoValidRowAnswer, parseUploadAnswer, type UploadAnswer } from "../../domain/users-csv/import-response.js";
import type { UserBatch } from "../../domain/users-csv/batches.js";
import type { UserRow, ValidationSummary } from "../../domain/users-csv/validate.js";
import { plural, type ImportFlags } from "./common.js";
import { counts, reportServiceRows, rowErrorsOf } from "./service-rows.js";
import type { ManifestStore, RejectedRowsFile } from "./side-files.js";

// An upload of pass 3 (upload.ts) that did not end with a recorded taskId: refused as a
// whole, failed on the way, or accepted but not recordable. Each is written into the
// manifest first, so that a re-run or --resume knows whether the batch may have arrived.

export async function recordRejected(
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
export async function recordFailure(
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

/**
 * The answer's full record did not fit (many row errors beyond the reservation, or a
 * copy-on-write disk): the short record — taskId and state, no row errors — is tried once
 * more (a fresh reservation-free write of a smaller file may still fit). If that fails too,
 * exit 11 naming the manifest and the taskId: the batch stays "uploading" in the manifest,
 * which --resume holds back instead of sending again, and the taskId is on stderr.
 */
export async function recordAcceptedAnyway(
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
