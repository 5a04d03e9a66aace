import type { CommandContext } from "../../context.js";
import type { Baseline, SyncedUser } from "../../domain/users-sync/plan.js";
import { plural } from "../users-import/common.js";
import { foldAccepted, loadPlanManifest } from "./apply.js";
import type { UsersSyncOptions } from "./options.js";
import { emptyBaseline, type PlanRecord, type SyncSetup } from "./state.js";

// Step 1 of a sync (users-sync.ts): the last run settled before anything is planned. What the
// service accepted of it enters the baseline (a killed run never got that far); the rest is
// planned again. --plan asks nothing and writes nothing.

/** The baseline to plan against, and the users the last run may have sent without a task id. */
export async function settleLastRun(
  ctx: CommandContext,
  options: UsersSyncOptions,
  setup: SyncSetup,
  baseline: Baseline | undefined,
  last: PlanRecord,
): Promise<{ baseline: Baseline | undefined; uncertain: SyncedUser[] }> {
  const { state, organizationId } = setup;
  const manifest = await loadPlanManifest(state);
  const fold = await foldAccepted(
    ctx,
    baseline ?? emptyBaseline(setup, new Date(ctx.services.clock.now()).toISOString()),
    last,
    manifest,
    {
      ask: !options.plan,
      requireCompleted: false,
      organizationId,
    },
  );
  if (fold.accepted > 0) {
    baseline = fold.baseline;
    ctx.printer.info(`the last run's ${plural(fold.accepted, "accepted row")} entered the baseline`);
  }
  const { uncertain } = fold;
  if (uncertain.length > 0)
    ctx.printer.warn(
      `${plural(uncertain.length, "row")} of the last run may have reached the service without a task id (the run was killed or cut off mid-upload): they are planned again; an Add the service then refuses as existing is taken as done`,
    );
  if (fold.left > 0)
    ctx.printer.info(
      `${plural(fold.left, "row")} of the last run did not reach the service or were not accepted (never sent, FAILED, ambiguous or rejected): planned again`,
    );
  if (!options.plan) {
    if (fold.accepted > 0 && baseline) await state.saveBaseline(baseline);
    await state.removePlan();
  }
  return { baseline, uncertain };
}
