import { getImportStatus } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import type { ManifestBatch } from "../../domain/users-csv/import-manifest.js";
import { taskStateOf } from "../../domain/users-csv/task-status.js";
import { askUnfinishedTasks, unfinishedBatches } from "../../engines/users-import/statuses.js";
import { waitForTasks } from "../shared/import-wait.js";
import { type ImportFlags } from "./common.js";
import { plural } from "../shared/row-report.js";
import type { ManifestStore } from "./side-files.js";

// How the import tasks of the uploaded batches end: --wait polls them (shared/import-wait.ts),
// --retry-failed asks once about those a run without --wait left unknown. Each status is
// written into the manifest's batches.

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
 * but not how their tasks ended. Their status is asked for once (engines/users-import/
 * statuses.ts) and written into `batches`, so a task that ended FAILED is sent again like one
 * a --wait saw fail (docs/cli-contract.md "Users CSV": nothing lost, nothing imported twice).
 * Returns a line for stderr, or undefined when every batch's end was known already.
 */
export async function refreshUnfinishedStatuses(
  ctx: CommandContext,
  batches: ManifestBatch[],
  organizationId: string,
): Promise<string | undefined> {
  const asked = unfinishedBatches(batches).length;
  if (asked === 0) return undefined;
  const counts = await askUnfinishedTasks(
    await ctx.services.api(),
    organizationId,
    batches,
    async (number, patch) =>
      Object.assign(
        batches.find((b) => b.number === number)!,
        patch,
      ),
    () => ctx.services.clock.now(),
  );
  const found = [...counts].map(([status, n]) => `${n} ${status}`).join(", ");
  return `--retry-failed: asked the service how the ${plural(asked, "batch", "batches")} uploaded without --wait ended: ${found}`;
}
