import { CliError, InvalidDataError, LocalFileError, ServiceError } from "../../errors.js";
import { type ManifestBatch, rowRange } from "../../domain/users-csv/import-manifest.js";
import { type ImportFlags } from "./common.js";
import { plural } from "../shared/row-report.js";
import type { ManifestStore } from "./side-files.js";

// An upload of pass 3 (upload.ts) that did not end with a recorded taskId, in the import's
// words: the engine (engines/users-import/run.ts) has recorded it in the manifest already —
// pending again when the service cannot have received it, ambiguous when it may have.

/** A 400 that is not "no valid row": the batch is pending again. */
export function refusedError(flags: ImportFlags, what: string, error: InvalidDataError): InvalidDataError {
  return new InvalidDataError(
    `${what} was refused by the service: ${error.message}; no task was created and nothing more was sent`,
    { hint: `\`simadmin users import ${flags.file} --resume\` sends it again and continues`, body: error.body, cause: error },
  );
}

/** Certainly not received (429 after the retries, connection refused, 401…): pending again. */
export function notSentError(
  flags: ImportFlags,
  store: ManifestStore,
  what: string,
  batch: ManifestBatch,
  error: CliError,
): Error {
  const done = store.batches.filter((b) => b.number < batch.number && b.taskId).length;
  return error.rephrase(
    `${error.message}; ${what} was not received and nothing more was sent (${plural(done, "earlier batch", "earlier batches")} uploaded)`,
    `${error.hint ? `${error.hint}; then ` : ""}\`simadmin users import ${flags.file} --resume\` continues without sending an uploaded batch again`,
  );
}

/** Timeout, reset, 5xx, dropped after sending: the service may hold a task for this batch. */
export function ambiguousError(
  flags: ImportFlags,
  store: ManifestStore,
  what: string,
  batch: ManifestBatch,
  error: unknown,
): ServiceError {
  const message = error instanceof Error ? error.message : String(error);
  return new ServiceError(
    `${what} may have been accepted by the service: ${message}; it was not sent again and nothing more was sent`,
    {
      delivery: "maybe-received",
      hint: ambiguousHint(store, batch, flags.file),
      cause: error,
    },
  );
}

/**
 * What to do about a batch that may have been received: it has no task id to look up, so
 * the advice names what exists — its rows, and the task ids of the batches that have one.
 */
function ambiguousHint(store: ManifestStore, batch: ManifestBatch, file: string): string {
  const withTask = store.batches.filter((b) => b.taskId !== undefined && b.number !== batch.number);
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
 * Accepted as `taskId`, but neither the answer's full record nor the short one could be
 * written: exit 11 naming the manifest and the taskId. The batch stays "uploading", which
 * --resume holds back instead of sending again, and the taskId is on stderr already.
 */
export function acceptedUnrecordedError(
  store: ManifestStore,
  flags: ImportFlags,
  number: number,
  total: number,
  taskId: string,
  failure: LocalFileError,
): LocalFileError {
  return new LocalFileError(
    `${failure.message}; batch ${number} of ${total} was ACCEPTED by the service as task ${taskId} but ${store.path} could not record it; nothing more was sent`,
    {
      path: store.path,
      ...(failure.code === undefined ? {} : { code: failure.code }),
      hint: `do not send it again: free some space, then \`simadmin users import ${flags.file} --resume --accepted-task ${number}=${taskId}\` records that task and sends the remaining batches; follow it with \`simadmin import-status --task ${taskId}\``,
      cause: failure,
    },
  );
}
