import { getImportStatus } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import { taskStateOf, type ImportTaskState } from "../../domain/users-csv/task-status.js";
import type { Baseline } from "../../domain/users-sync/sync-plan.js";
import type { Unsent } from "../../domain/users-sync/records.js";
import { settleRun, type Settled } from "../../domain/users-sync/settle.js";
import { askUnfinishedTasks } from "../../engines/users-import/statuses.js";
import { plural } from "../shared/row-report.js";
import { SyncJournal } from "./journal.js";
import type { SyncSnapshot, SyncState } from "./sync-state.js";

// Step 1 of a sync (users-sync.ts): what earlier runs left is settled before anything is
// planned (domain/users-sync/settle.ts). A real run first asks the service how the tasks
// whose end is not known ended (one read-only request each, each answer written into the
// store as it comes), then writes the settled state in one put. --plan asks nothing and
// writes nothing: a task not known to have ended keeps its users out of the plan.

export async function settleLastRun(
  ctx: CommandContext,
  state: SyncState,
  snapshot: SyncSnapshot,
  options: { plan: boolean; organizationId: string },
): Promise<Settled> {
  const nowIso = (): string => new Date(ctx.services.clock.now()).toISOString();
  let run = snapshot.run;
  const taskStates = new Map<string, ImportTaskState>();
  if (!options.plan) {
    // The client a real run built before taking the lock (users-sync.ts); asked only when
    // something is open.
    const api = await ctx.services.api();
    if (run) {
      const journal = new SyncJournal(state, run);
      await askUnfinishedTasks(
        api,
        options.organizationId,
        run.batches,
        (n, patch) => journal.update(n, patch),
        () => ctx.services.clock.now(),
      );
      run = journal.run;
    }
    for (const task of snapshot.tasks)
      taskStates.set(
        task.taskId,
        taskStateOf(await getImportStatus(api, { organizationId: options.organizationId, taskId: task.taskId }), task.taskId),
      );
  }
  const baseline: Baseline = snapshot.baseline ?? {
    version: 1,
    baseUrl: state.tenant.service,
    organizationId: state.tenant.organizationId,
    createdAt: nowIso(),
    updatedAt: nowIso(),
    users: {},
  };
  const settled = settleRun({ baseline, run, held: snapshot.held, tasks: snapshot.tasks, taskStates, nowIso: nowIso() });
  if (settled.entered > 0) ctx.printer.info(`the last run's ${plural(settled.entered, "accepted row")} entered the baseline`);
  if (settled.rejectedExisting > 0)
    ctx.printer.info(
      `${plural(settled.rejectedExisting, "Add")} refused as existing were sent before in an upload that may have been received: it was; they are in the baseline`,
    );
  const again = settled.notSent + settled.failed + settled.rejected;
  if (again > 0)
    ctx.printer.info(
      `${plural(again, "row")} of the last run did not reach the service or were not imported (never sent, FAILED or rejected): planned again`,
    );
  if (settled.tasks.length > 0) {
    const users = plural(
      settled.tasks.reduce((n, t) => n + t.rows.length, 0),
      "user",
    );
    const tasks = plural(settled.tasks.length, "import task");
    ctx.printer.info(
      options.plan
        ? `${users} in ${tasks} not known to have ended: planned as if ${settled.tasks.length === 1 ? "it" : "they"} COMPLETED; a real run asks the service first`
        : `${users} in ${tasks} still running: left as they are until ${settled.tasks.length === 1 ? "it ends" : "they end"}`,
    );
  }
  // Written when there was something to settle: a run left, or a task that ended (rows enter
  // the baseline only from one of the two).
  if (!options.plan && (snapshot.run !== undefined || snapshot.tasks.length !== settled.tasks.length))
    await state.put({
      baseline: settled.baseline,
      held: settled.held,
      tasks: settled.tasks,
      run: null,
      ...(snapshot.run !== undefined ? { unsent: unsentOf(snapshot.run.createdAt, settled) } : {}),
    });
  return settled;
}

/** The `unsent` entry a settled run leaves (null: nothing to resume). */
export function unsentOf(createdAt: string, settled: Pick<Settled, "unsent">): Unsent | null {
  return settled.unsent.length > 0 ? { createdAt, rows: settled.unsent } : null;
}
