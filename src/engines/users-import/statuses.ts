import type { ApiClient } from "../../api/client.js";
import { getImportStatus } from "../../api/endpoints.js";
import type { ManifestBatch } from "../../domain/users-csv/import-manifest.js";
import { type ImportTaskState, taskStateOf } from "../../domain/users-csv/task-status.js";

// How the tasks of uploaded batches ended, when a run did not wait for them: asked once
// (read-only requests, docs/service-spec.md §6) and written into the journal, so that a
// FAILED task's rows are sent again and never counted as imported (docs/import-safety.md).

/** Uploaded batches with a task whose end is not known. */
export function unfinishedBatches(batches: readonly ManifestBatch[]): (ManifestBatch & { taskId: string })[] {
  return batches.filter(
    (b): b is ManifestBatch & { taskId: string } =>
      b.state === "uploaded" && b.taskId !== undefined && b.status !== "COMPLETED" && b.status !== "FAILED",
  );
}

/** One status request per unfinished batch; returns how many ended in each state (empty when none was asked). */
export async function askUnfinishedTasks(
  api: ApiClient,
  organizationId: string,
  batches: readonly ManifestBatch[],
  record: (number: number, patch: Pick<ManifestBatch, "status" | "statusAt">) => Promise<unknown>,
  now: () => number,
): Promise<Map<ImportTaskState, number>> {
  const counts = new Map<ImportTaskState, number>();
  for (const batch of unfinishedBatches(batches)) {
    const status = taskStateOf(await getImportStatus(api, { organizationId, taskId: batch.taskId }), batch.taskId);
    await record(batch.number, { status, statusAt: new Date(now()).toISOString() });
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return counts;
}
