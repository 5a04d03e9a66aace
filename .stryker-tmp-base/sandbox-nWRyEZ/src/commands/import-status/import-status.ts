// @ts-nocheck
import { getImportStatus } from "../../api/endpoints.js";
import { ImportFailedError, NotFoundError, WaitTimeoutError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import type { JsonRecord } from "../../domain/records.js";
import { taskStateOf, taskStatusRecord } from "../../domain/users-csv/task-status.js";
import type { CommandResult } from "../../output/render.js";
import { waitForTasks } from "../shared/import-wait.js";
import { defineRun } from "../types.js";
import { ImportStatusOptions } from "./options.js";

// import-status --task <id>… [--wait [--wait-timeout]] (docs/service-spec.md §4.9, version 2 only).
//
// One record per task: taskId, status, then any other field the service sent (by shape).
// Exit codes: a status read is a success (0) whatever the status says — a script asking
// "what is the status?" gets its answer in the data. Only --wait, which asks "wait until it
// has ended well", ends 10 when a task FAILED and 9 when the time ran out (after printing
// the statuses it has). An unknown task is exit 5 (the service answers 404).

const TABLE_COLUMNS = ["taskId", "status"];

export const run = defineRun(ImportStatusOptions, async ({ options, ...ctx }) => {
  const { task: taskIds, wait, timeoutMs } = options;
  const organizationId = await ctx.services.org();
  const api = await ctx.services.api();

  const fetchBody = async (taskId: string): Promise<unknown> => {
    try {
      return await getImportStatus(api, { organizationId, taskId });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new NotFoundError(`import task ${JSON.stringify(taskId)} not found (404)`, {
        hint: `check --task and the organization ${JSON.stringify(organizationId)} (--org): a task of another organization is not found either`,
        cause: error,
      });
    }
  };

  const records = new Map<string, JsonRecord>();
  for (const taskId of taskIds) records.set(taskId, taskStatusRecord(taskId, await fetchBody(taskId)));

  let timedOut = false;
  if (wait) {
    const outcome = await waitForTasks(
      ctx,
      taskIds.map((taskId) => ({ taskId, label: taskId, status: taskStateOf(records.get(taskId)?.status) })),
      {
        timeoutMs,
        fetchStatus: async (taskId) => {
          const record = taskStatusRecord(taskId, await fetchBody(taskId));
          records.set(taskId, record);
          return taskStateOf(record.status, taskId);
        },
      },
    );
    timedOut = outcome.timedOut;
  }

  const list = taskIds.map((taskId) => records.get(taskId)!);
  const failed = list.filter((r) => r.status === "FAILED").map((r) => String(r.taskId));
  const open = list.filter((r) => r.status !== "FAILED" && r.status !== "COMPLETED").map((r) => String(r.taskId));
  const summary = summarize(list);
  const result: CommandResult = {
    kind: "records",
    records: list,
    tableColumns: TABLE_COLUMNS,
    knownFields: TABLE_COLUMNS,
    note: summary,
  };
  // With --wait the statuses are printed first; then a FAILED task is exit 10, a timeout exit 9.
  if (failed.length > 0 && wait) {
    const failure = new ImportFailedError(`import task${failed.length === 1 ? "" : "s"} ${failed.join(", ")} ended FAILED`, {
      hint: "the service does not say why; check the rows of that upload (e.g. in its <file>.errors.csv) or ask the service operator's support",
    });
    return { ...result, failure };
  }
  if (timedOut) {
    const failure = new WaitTimeoutError(
      `import task${open.length === 1 ? "" : "s"} ${open.join(", ")} did not finish within ${formatDuration(timeoutMs)}`,
      {
        hint: `check again later with \`simadmin import-status ${open.map((t) => `--task ${t}`).join(" ")} --wait\`, or give a longer --wait-timeout`,
      },
    );
    return { ...result, failure };
  }
  return result;
});

function summarize(records: readonly JsonRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(String(r.status), (counts.get(String(r.status)) ?? 0) + 1);
  return `${records.length} task${records.length === 1 ? "" : "s"}: ${[...counts].map(([s, n]) => `${n} ${s}`).join(", ")}`;
}
