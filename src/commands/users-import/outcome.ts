import { ImportFailedError, InvalidDataError, WaitTimeoutError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import { batchRecord, type ManifestBatch, rowRange } from "../../domain/users-csv/import-manifest.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOutcome } from "../types.js";
import { type ImportFlags, type ImportSetup } from "./common.js";
import { plural } from "../shared/row-report.js";
import { showPath } from "../../messages.js";

// How an import that sent its batches ends: the batches are the output whatever happened,
// then the lines for people and the exit code. Exit 10 (FAILED) and 9 (timeout) only with
// --wait; rows the service rejected are exit 6 unless --skip-invalid.

// The table keeps what fits 80 columns (the taskId must not be shortened); JSON and CSV keep
// every field, the row range and the count of rejected rows included.
const BATCH_COLUMNS = ["batch", "rows", "taskId", "status", "state"];
export const BATCH_FIELDS = ["batch", "rows", "firstRow", "lastRow", "state", "taskId", "status", "rejectedRows", "thisRun"];

/** What a run that uploads nothing of an imported file says, everywhere (docs/import-safety.md). */
export const NOTHING_TO_SEND = "nothing to send: already imported";

/**
 * What this run did with a batch (the `thisRun` field): `sent`, or why it sent nothing —
 * a resumed run of an imported file must not read as an upload (docs/import-safety.md).
 */
function thisRun(batch: ManifestBatch, sent: boolean): string {
  if (sent) return "sent";
  if (batch.state === "uploaded") return NOTHING_TO_SEND;
  if (batch.state === "rejected") return "nothing to send: rejected whole by the service before";
  if (batch.state === "pending") return "not sent";
  return "held: an earlier upload may have been received";
}

export interface UploadEnd {
  /** The batches as the manifest records them at the end. */
  batches: readonly ManifestBatch[];
  /** Numbers of the batches this run sent. */
  sentThisRun: ReadonlySet<number>;
  organizationId: string;
  /** Rows pass 1 found invalid (skipped with --skip-invalid). */
  invalidRows: number;
  /** What stopped the uploads or the wait (not Ctrl-C: that is thrown). */
  failure: unknown;
  waitOutcome: { timedOut: boolean } | undefined;
}

export function importOutcome(flags: ImportFlags, setup: ImportSetup, end: UploadEnd): CommandOutcome {
  const { fileName, errors } = setup;
  const { batches, organizationId, invalidRows: invalid, failure } = end;
  const result: CommandResult = {
    kind: "records",
    records: batches.map((b) => ({ ...batchRecord(b), thisRun: thisRun(b, end.sentThisRun.has(b.number)) })),
    tableColumns: BATCH_COLUMNS,
    knownFields: BATCH_FIELDS,
  };
  if (failure !== undefined) return { ...result, failure: failure instanceof Error ? failure : new Error(String(failure)) };

  const serviceRejected = batches.reduce((n, b) => n + (b.state === "rejected" ? b.rows : (b.rowErrors?.length ?? 0)), 0);
  const withTask = batches.filter((b) => b.taskId !== undefined);
  const marked = batches.filter((b) => b.settled !== undefined && b.taskId === undefined);
  const sentNow = batches.filter((b) => end.sentThisRun.has(b.number));
  const earlier = withTask.filter((b) => !end.sentThisRun.has(b.number));
  const notes = [
    (sentNow.length === 0
      ? `${showPath(fileName)}: ${NOTHING_TO_SEND} into ${organizationId} (${plural(earlier.length, "batch", "batches")} uploaded by an earlier run${earlier.length > 0 ? `: ${earlier.map((b) => b.taskId).join(", ")}` : ""})`
      : `${showPath(fileName)}: ${plural(sentNow.length, "batch", "batches")} uploaded to ${organizationId}` +
        (sentNow.some((b) => b.taskId) ? ` (${sentNow.flatMap((b) => b.taskId ?? []).join(", ")})` : "") +
        (earlier.length > 0 ? `; ${plural(earlier.length, "batch", "batches")} already imported by an earlier run` : "")) +
      (serviceRejected > 0 ? `; ${plural(serviceRejected, "row")} rejected by the service` : "") +
      (invalid > 0 ? `; ${plural(invalid, "invalid row")} skipped` : "") +
      (marked.length > 0
        ? `; ${marked.map((b) => `batch ${b.number}`).join(", ")} recorded as imported without a task id (--mark-imported)`
        : "") +
      (serviceRejected + invalid > 0 ? ` (see ${showPath(errors.path)})` : ""),
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
  if (end.waitOutcome?.timedOut) {
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
      `the service rejected ${plural(serviceRejected, "row")} of ${showPath(fileName)}; the other rows were accepted; the rejected ones are in ${showPath(errors.path)}`,
      { hint: "fix them and import that file; pass --skip-invalid to accept rejected rows without this exit code" },
    );
    return { ...done, failure };
  }
  return done;
}
