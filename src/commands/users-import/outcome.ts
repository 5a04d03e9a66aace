import { ImportFailedError, InvalidDataError, WaitTimeoutError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import { batchRecord, type ManifestBatch, rowRange } from "../../domain/users-csv/import-manifest.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOutcome } from "../types.js";
import { type ImportFlags, type ImportSetup } from "./common.js";
import { plural } from "../shared/row-report.js";

// How an import that sent its batches ends: the batches are the output whatever happened,
// then the lines for people and the exit code. Exit 10 (FAILED) and 9 (timeout) only with
// --wait; rows the service rejected are exit 6 unless --skip-invalid.

// The table keeps what fits 80 columns (the taskId must not be shortened); JSON and CSV keep
// every field, the row range and the count of rejected rows included.
const BATCH_COLUMNS = ["batch", "rows", "taskId", "status", "state"];
const BATCH_FIELDS = ["batch", "rows", "firstRow", "lastRow", "state", "taskId", "status", "rejectedRows"];

export interface UploadEnd {
  /** The batches as the manifest records them at the end. */
  batches: readonly ManifestBatch[];
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
      `the service rejected ${plural(serviceRejected, "row")} of ${fileName}; the other rows were accepted; the rejected ones are in ${errors.path}`,
      { hint: "fix them and import that file; pass --skip-invalid to accept rejected rows without this exit code" },
    );
    return { ...done, failure };
  }
  return done;
}
