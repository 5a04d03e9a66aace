import { join } from "node:path";
import type { CommandContext } from "../../context.js";
import { CliError, InterruptedError, InvalidDataError, LocalFileError } from "../../errors.js";
import type { Baseline } from "../../domain/users-sync/plan.js";
import type { CommandOutcome } from "../types.js";
import { plural } from "../users-import/common.js";
import { isHeldBatchesError } from "../users-import/held-batches.js";
import { UsersImportOptions } from "../users-import/options.js";
import { importUsersFile } from "../users-import/users-import.js";
import { foldAccepted, loadPlanManifest } from "./apply.js";
import { followUp } from "./follow-up.js";
import type { UsersSyncOptions } from "./options.js";
import { emptyBaseline, type PlanRecord, type SyncSetup } from "./state.js";

// Step 4 of a sync (users-sync.ts): plan.csv sent through `users import`'s machinery, then
// the baseline moved by what the service accepted (apply.ts), whatever became of the import.

/** Imports plan.csv and folds what the service accepted into the baseline, whatever happened to the import. */
export async function importPlan(
  ctx: CommandContext,
  options: UsersSyncOptions,
  setup: SyncSetup,
  baseline: Baseline | undefined,
  record: PlanRecord,
  resume = false,
): Promise<{ note: string; failure: Error | undefined }> {
  const { state, organizationId } = setup;
  let outcome: CommandOutcome | undefined;
  let thrown: unknown;
  try {
    // Through the import's own option schema, so that a flag it gains later takes its
    // default here instead of breaking this call.
    const importOptions = UsersImportOptions.parse({
      skipInvalid: options.skipInvalid,
      wait: options.wait,
      resume,
      resendAmbiguous: resume && options.resendAmbiguous,
      ...(resume && options.markImported ? { markImported: options.markImported.map(String).join(",") } : {}),
      // The sync asked already (or was told not to).
      yes: true,
    });
    outcome = await importUsersFile(ctx, {
      ...importOptions,
      timeoutMs: options.timeoutMs,
      file: state.planCsvPath,
      rerun: `simadmin users sync ${setup.rosterPath}`,
    });
  } catch (error) {
    thrown = error;
  }
  const fold = await foldAccepted(
    ctx,
    baseline ?? emptyBaseline(setup, record.createdAt),
    record,
    await loadPlanManifest(state),
    {
      ask: false,
      requireCompleted: options.wait,
      organizationId,
    },
  );
  if (fold.accepted > 0) await state.saveBaseline(fold.baseline);
  await state.savePlan(fold.plan);
  // The import's next steps name plan.csv and `users import`; a sync's next step is the next sync.
  const next = `the next \`${followUp(ctx, options, setup.rosterPath)}\` sends again what the service did not accept (docs/users-sync.md)`;
  const retold = (error: unknown): unknown =>
    // A held batch's hint names this sync's own ways out (--resume --mark-imported / --resend-ambiguous).
    error instanceof CliError &&
    !(error instanceof InterruptedError) &&
    !(error instanceof LocalFileError) &&
    !isHeldBatchesError(error)
      ? error.rephrase(error.message, next)
      : error;
  if (thrown !== undefined) throw retold(thrown);
  let failure = outcome?.failure === undefined ? undefined : (retold(outcome.failure) as Error);
  if (fold.rejectedExisting > 0) {
    ctx.printer.info(
      `${plural(fold.rejectedExisting, "Add")} refused as existing were sent before in an upload that was cut off: it went through; they are in the baseline`,
    );
    // Only those rejections: the run did what it had to.
    if (fold.rejectedOther === 0 && failure instanceof InvalidDataError) failure = undefined;
  }
  const importNote = outcome && "note" in outcome ? outcome.note : undefined;
  const lines = [importNote, `baseline: ${plural(fold.accepted, "row")} accepted by the service entered it`];
  if (fold.left > 0)
    lines.push(
      `${plural(fold.left, "row")} not accepted (yet): the next sync plans them again; rejected rows are in ${join(state.dir, "plan.errors.csv")}`,
    );
  return { note: lines.filter((l) => l !== undefined).join("\n"), failure };
}
