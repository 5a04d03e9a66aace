import { basename } from "node:path";
import type { CommandContext } from "../../context.js";
import { ChangesPendingError, InvalidDataError, UsageError } from "../../errors.js";
import {
  type Baseline,
  DEFAULT_MAX_DEACTIVATE,
  guardProblem,
  keyOf,
  planSync,
  type SyncedUser,
} from "../../domain/users-sync/plan.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { plural } from "../users-import/common.js";
import { planCsv } from "./apply.js";
import { followUp } from "./follow-up.js";
import { importPlan } from "./import-plan.js";
import { UsersSyncOptions } from "./options.js";
import { planResult, summaryLine } from "./plan-output.js";
import { readRosterFile } from "./roster-file.js";
import { settleLastRun } from "./settle.js";
import { planRows, type PlanRecord, SyncState, type SyncSetup } from "./state.js";

// users sync <roster> (docs/cli-contract.md "Sync"; docs/users-sync.md).
//
// A run: settle the last run (its accepted batches enter the baseline; the rest is planned
// again) → read the roster → plan against the baseline → guards → --plan stops (0/12) →
// confirmation on a terminal → the plan as a users CSV through `users import`'s machinery →
// the accepted rows enter the baseline. The sync lock is held from the settling to the end,
// so two runs never interleave; --plan takes none and writes nothing.
//
// The steps' parts: settle.ts (1), roster-file.ts (2), plan-output.ts (the plan for people),
// import-plan.ts with apply.ts (4); state.ts keeps the baseline and the last plan;
// follow-up.ts writes the command a hint names.

type Options = UsersSyncOptions;

export const run = defineRun(UsersSyncOptions, async ({ options, args, ...ctx }) => {
  const rosterPath = args[0];
  if (rosterPath === undefined || rosterPath.trim() === "")
    throw new UsageError("users sync: the roster file is missing, e.g. `simadmin users sync hr-export.xlsx --plan`");
  const { service: serviceKey, organizationId } = await ctx.services.tenant();
  if (!options.plan) await ctx.services.api(); // a missing base URL or key stops here, before the lock
  // Under --sandbox the address changes from run to run and the settings directory is a
  // temporary one: the baseline lives beside the sandbox's own kept state instead (services.ts).
  const root = await ctx.services.stateDir();
  const state = SyncState.for(root, serviceKey, organizationId);
  await state.ensureDir();
  const lock = options.plan
    ? undefined
    : await (
        await import("../../output/file-lock.js")
      ).acquireFileLock(state.lockPath, {
        what: `a users sync of organization ${organizationId}`,
        command: `simadmin users sync ${rosterPath}`,
        now: () => ctx.services.clock.now(),
      });
  try {
    return await sync(ctx, options, { rosterPath, organizationId, serviceKey, state });
  } finally {
    await lock?.release();
  }
});

async function sync(ctx: CommandContext, options: Options, setup: SyncSetup): Promise<CommandOutcome> {
  const { state, organizationId } = setup;
  const nowIso = (): string => new Date(ctx.services.clock.now()).toISOString();
  let baseline = await state.loadBaseline();

  // 1. The last run: what the service accepted of it enters the baseline (a killed run
  //    never got that far); the rest is planned again below.
  const last = await state.loadPlan();
  if (last && options.resume) return resumeLastPlan(ctx, options, setup, baseline, last);
  if (options.resume) {
    throw new UsageError(`--resume: there is no unfinished sync of organization ${organizationId} to resume`, {
      hint: `run \`${followUp(ctx, options, setup.rosterPath)}\` without --resume`,
    });
  }
  let uncertain: SyncedUser[] = [];
  if (last) ({ baseline, uncertain } = await settleLastRun(ctx, options, setup, baseline, last));

  // 2. The roster.
  const read = await readRosterFile(ctx, options, setup.rosterPath);
  if ("outcome" in read) return read.outcome;
  const { roster } = read;

  // 3. The plan and its guards.
  const plan = planSync(roster.users, baseline, {
    assumeExisting: options.assumeExisting,
    leaveAlone: roster.invalidEmails,
  });
  if (options.assumeExisting && baseline !== undefined)
    ctx.printer.warn("--assume-existing applies to a first run only: a baseline exists, so new users are Add");
  const summary = summaryLine(plan, organizationId, baseline);
  ctx.printer.info(summary);
  const result = planResult(ctx, plan);
  const guard = guardProblem(
    plan,
    { users: roster.users.length, invalid: roster.invalid.length },
    { value: options.maxDeactivate ?? DEFAULT_MAX_DEACTIVATE, explicit: options.maxDeactivate !== undefined },
  );
  if (guard) return { ...result, failure: new InvalidDataError(guard.message, { hint: guard.hint }) };
  if (options.plan) {
    if (plan.rows.length === 0) return { ...result, note: "plan: nothing to do; the roster and the last sync agree" };
    return {
      ...result,
      failure: new ChangesPendingError(`plan: ${plural(plan.rows.length, "change")} pending; nothing was sent`, {
        hint: `run \`${followUp(ctx, options, setup.rosterPath)}\` without --plan to send ${plan.rows.length === 1 ? "it" : "them"}`,
      }),
    };
  }
  if (plan.rows.length === 0) return { ...result, note: "nothing to do: the roster and the last sync agree; nothing was sent" };

  if (ctx.printer.io.stdinIsTTY && !options.yes) {
    ctx.printer.say(summary);
    const { confirm } = await import("../../output/prompt.js");
    if (!(await confirm(ctx.printer.io, `Send ${plural(plan.rows.length, "change")} to ${organizationId}?`))) {
      throw new UsageError("sync cancelled; nothing was sent", { hint: "pass --yes to skip the question" });
    }
  }

  // 4. Send, then move the baseline by what was accepted.
  const addKeys = new Set(plan.rows.filter((r) => r.action === "Add").map((r) => keyOf(r.email)));
  const record: PlanRecord = {
    version: 1,
    createdAt: nowIso(),
    wait: options.wait,
    rows: planRows(plan.rows),
    folded: [],
    foldedRows: 0,
    uncertain: Object.fromEntries(uncertain.filter((u) => addKeys.has(keyOf(u.email))).map((u) => [keyOf(u.email), u])),
  };
  await state.writePlanCsv(planCsv(plan.rows));
  await state.savePlan(record);
  const applied = await importPlan(ctx, options, setup, baseline, record);
  return { ...result, note: applied.note, ...(applied.failure ? { failure: applied.failure } : {}) };
}

/** --resume: the last plan's batches never sent go out through the import's --resume; the roster is not read. */
async function resumeLastPlan(
  ctx: CommandContext,
  options: Options,
  setup: SyncSetup,
  baseline: Baseline | undefined,
  last: PlanRecord,
): Promise<CommandOutcome> {
  ctx.printer.info(
    `--resume: finishing the plan of ${last.createdAt} (${plural(last.rows.length, "row")}); ${basename(setup.rosterPath)} is not read`,
  );
  const applied = await importPlan(ctx, options, setup, baseline, last, true);
  const result = planResult(ctx, {
    rows: last.rows,
    counts: { add: 0, update: 0, deactivate: 0, reactivate: 0, unchanged: 0 },
    baselineActive: 0,
    firstRun: false,
  });
  return { ...result, note: applied.note, ...(applied.failure ? { failure: applied.failure } : {}) };
}
