import { basename } from "node:path";
import type { CommandContext } from "../../context.js";
import { ChangesPendingError, InterruptedError, InvalidDataError, UsageError } from "../../errors.js";
import {
  applyToBaseline,
  type Baseline,
  DEFAULT_MAX_CHANGES,
  DEFAULT_MAX_DEACTIVATE,
  guardProblem,
  planSync,
  type SyncedUser,
} from "../../domain/users-sync/sync-plan.js";
import type { Deactivations, PlannedRow } from "../../domain/users-sync/records.js";
import { markHeldImported, usersInFlight } from "../../domain/users-sync/settle.js";
import { keyOf } from "../../domain/users-sync/user-key.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { plural, PROBLEM_COLUMNS } from "../shared/row-report.js";
import { followUp } from "./follow-up.js";
import { heldLines } from "./held.js";
import { legacyDir, readLegacy, retireLegacy } from "./legacy.js";
import { UsersSyncOptions } from "./options.js";
import { PLAN_FIELDS, planResult, summaryLine } from "./plan-output.js";
import { readRosterFile } from "./roster-file.js";
import { sendPlan } from "./send.js";
import { sendingOutcome } from "./sent-outcome.js";
import { settleLastRun } from "./settle-last.js";
import { SYNC_KIND, type SyncSnapshot, SyncState } from "./sync-state.js";
import { showPath } from "../../messages.js";

// users sync <roster> (docs/cli-contract.md "Sync"; docs/users-sync.md; the whole walk from
// bin/ to the socket and the state written: docs/architecture.md "users sync, end to end").
//
// A run, holding the store's `users-sync` lock for this service and organization from the
// first read to the last write (two machines never interleave): settle what earlier runs
// left (settle-last.ts) → the held batches the user settles (--mark-imported,
// --resend-ambiguous) → read the roster → plan against the baseline, leaving alone the users
// held or in a task not known to have ended → guards → --plan stops (0/12) → confirmation on
// a terminal → the plan through the import engine, recorded in the store as it goes
// (send.ts) → the outcome in the sync's words (sent-outcome.ts). --plan takes no lock and
// writes nothing.

type Options = UsersSyncOptions;

const WEEK_MS = 7 * 24 * 3600_000;
/** Every field a sync prints (the plan, or the roster's invalid rows): --fields is checked against them before anything is sent. */
const SYNC_FIELDS = [...PLAN_FIELDS, ...PROBLEM_COLUMNS];

export const run = defineRun(
  UsersSyncOptions,
  async ({ options, args, ...ctx }) => {
    const rosterPath = args[0];
    if (rosterPath === undefined || rosterPath.trim() === "")
      throw new UsageError("users sync: the roster file is missing, e.g. `simadmin users sync hr-export.xlsx --plan`");
    const organizationId = await ctx.services.org();
    if (!options.plan) await ctx.services.api(); // a missing base URL or key stops here, before the lock
    const state = new SyncState(await ctx.services.state(), await ctx.services.tenant());
    // Held until the run ends (the services release it): settling, planning and sending are one step.
    if (!options.plan) await ctx.services.lockState(SYNC_KIND, "simadmin users sync");
    return sync(ctx, options, { rosterPath, organizationId, state });
  },
  { fields: SYNC_FIELDS },
);

interface Setup {
  rosterPath: string;
  organizationId: string;
  state: SyncState;
}

async function sync(ctx: CommandContext, options: Options, setup: Setup): Promise<CommandOutcome> {
  const { state, organizationId } = setup;
  const next = followUp(ctx, options, setup.rosterPath);
  const now = ctx.services.clock.now();
  const nowIso = new Date(now).toISOString();
  const snapshot = await loadSnapshot(ctx, options, state);
  // The first send writes the baseline with its run (send.ts), so nothing is kept without one.
  const firstRun = snapshot.baseline === undefined;
  if (firstRun) warnFirstRunInCi(ctx, state);

  // 1. What earlier runs left.
  if (options.resume && snapshot.run === undefined && snapshot.unsent === undefined)
    throw new UsageError(`--resume: there is no unfinished sync of organization ${organizationId} to resume`, {
      hint: `run \`${next}\` without --resume`,
    });
  const settled = await settleLastRun(ctx, state, snapshot, { plan: options.plan, organizationId });
  let baseline: Baseline | undefined = firstRun ? undefined : settled.baseline;
  let held = settled.held;

  // 2. Held batches the user settles now.
  if (options.markImported) {
    const marked = markHeldImported(settled.baseline, held, options.markImported, nowIso);
    if (!marked.ok)
      throw new UsageError(`--mark-imported: ${marked.problem}; nothing was recorded or sent`, {
        hint: `run \`${next}\` to see what is held`,
      });
    await state.put({ baseline: marked.baseline, held: marked.held });
    ctx.printer.info(
      `--mark-imported: held batch ${options.markImported.join(", ")} recorded as imported (${plural(marked.rows, "user")} entered the baseline); nothing was sent`,
    );
    baseline = marked.baseline;
    held = marked.held;
  }
  const released = options.resendAmbiguous ? held : [];
  if (options.resendAmbiguous) {
    if (released.length === 0) ctx.printer.info("--resend-ambiguous: no batch is held; nothing to send again");
    else
      ctx.printer.warn(
        `--resend-ambiguous: sending the users of ${released.map((h) => `held batch ${h.number}`).join(", ")} again; an Add the service refuses as existing is taken as done`,
      );
    held = [];
  }
  const uncertain: Record<string, SyncedUser> = {};
  for (const row of released.flatMap((h) => h.rows)) if (row.action === "Add") uncertain[keyOf(row.email)] = row;

  // 3. The plan: the last run's unsent rows (--resume) or the roster against the baseline.
  // What is sent: a --resume sends the rows left as they were planned, so it has only rows.
  let planned: PlannedRow[];
  let result: ReturnType<typeof planResult>;
  if (options.resume) {
    const unsent = snapshot.run ? settled.unsent : (snapshot.unsent?.rows ?? []);
    const rows = [...unsent, ...released.flatMap((h) => h.rows)];
    const createdAt = snapshot.run?.createdAt ?? snapshot.unsent?.createdAt;
    ctx.printer.info(
      `--resume: finishing the plan of ${createdAt} (${plural(rows.length, "row")} to send); ${showPath(basename(setup.rosterPath))} is not read`,
    );
    planned = rows;
    result = planResult(ctx, { rows });
  } else {
    const read = await readRosterFile(ctx, options, setup.rosterPath);
    if ("outcome" in read) return read.outcome;
    const { roster } = read;
    for (const line of heldLines(held)) ctx.printer.warn(line);
    // --plan asks nothing, so it plans as if the tasks not known to have ended COMPLETED (what
    // a real run most likely finds); a real run asked, and leaves the users of those still
    // running alone.
    const open = settled.tasks.flatMap((t) => t.rows);
    const planBaseline = options.plan && open.length > 0 ? applyToBaseline(settled.baseline, open, nowIso) : baseline;
    const syncPlan = planSync(roster.users, planBaseline, {
      assumeExisting: options.assumeExisting,
      leaveAlone: new Set([...roster.invalidEmails, ...usersInFlight(held, options.plan ? [] : settled.tasks)]),
    });
    if (options.assumeExisting && baseline !== undefined)
      ctx.printer.warn("--assume-existing applies to a first run only: a baseline exists, so new users are Add");
    const summary = summaryLine(syncPlan, organizationId, planBaseline, options.plan);
    ctx.printer.info(summary);
    result = planResult(ctx, syncPlan);
    planned = syncPlan.rows;
    const recent = recentDeactivations(snapshot.deactivations, now, planned);
    const guard = guardProblem(syncPlan, {
      roster: { users: roster.users.length, invalid: roster.invalid.length },
      deactivate: { value: options.maxDeactivate ?? DEFAULT_MAX_DEACTIVATE, explicit: options.maxDeactivate !== undefined },
      changes: { value: options.maxChanges ?? DEFAULT_MAX_CHANGES, explicit: options.maxChanges !== undefined },
      recentDeactivations: recent.others,
      baselineUsers: Object.keys(planBaseline?.users ?? {}).length,
    });
    if (guard) return { ...result, failure: new InvalidDataError(guard.message, { hint: guard.hint }) };
    if (options.plan) {
      if (syncPlan.rows.length === 0) return { ...result, note: "plan: nothing to do; the roster and the last sync agree" };
      return {
        ...result,
        failure: new ChangesPendingError(`plan: ${plural(syncPlan.rows.length, "change")} pending; nothing was sent`, {
          hint: `run \`${next}\` without --plan to send ${syncPlan.rows.length === 1 ? "it" : "them"}`,
        }),
      };
    }
    if (syncPlan.rows.length > 0 && ctx.printer.io.stdinIsTTY && !options.yes) {
      ctx.printer.say(summary);
      const { confirm } = await import("../../output/prompt.js");
      if (!(await confirm(ctx.printer.io, `Send ${plural(syncPlan.rows.length, "change")} to ${organizationId}?`)))
        throw new UsageError("sync cancelled; nothing was sent", { hint: "pass --yes to skip the question" });
    }
  }

  // 4. Send, recorded in the store as it goes; then the outcome in the sync's words.
  if (planned.length === 0) {
    // Held batches released with nothing to send are held still (their users may exist).
    if (snapshot.unsent !== undefined && !options.resume) await state.put({ unsent: null });
    return sendingOutcome(options, { result, next, held, sent: undefined });
  }
  const sent = await sendPlan(ctx, options, {
    state,
    baseline,
    held,
    tasks: settled.tasks,
    rows: planned,
    uncertain,
    deactivations: withDeactivations(snapshot.deactivations, now, planned),
    organizationId,
  }).catch((error: unknown) => {
    // Ctrl-C: what was sent is in the store; the next sync settles it (never a file of ours).
    if (error instanceof InterruptedError || ctx.services.signal.aborted)
      throw new InterruptedError({
        note: `the state store records what was sent: the next \`${next}\` settles it and sends nothing twice`,
      });
    throw error;
  });
  return sendingOutcome(options, { result, next, held: sent.settled.held, sent });
}

/** The store's snapshot; an empty store first takes in what an earlier version kept in the settings directory. */
async function loadSnapshot(ctx: CommandContext, options: Options, state: SyncState): Promise<SyncSnapshot> {
  const snapshot = await state.load();
  // Under --sandbox the settings directory is a temporary one: there is nothing to move.
  if (ctx.services.globals.sandbox || !(await state.isEmpty())) return snapshot;
  const settings = await ctx.services.settings();
  const dir = legacyDir(settings.configDir, state.tenant.service, state.tenant.organizationId);
  const legacy = await readLegacy(dir);
  if (!legacy) return snapshot;
  if (options.plan) {
    ctx.printer.info(
      `--plan: using the users sync state of ${showPath(dir)} as it is; a real run moves it into the state store ${showPath(state.store.location)}`,
    );
    return { ...snapshot, ...legacy.changes, run: legacy.changes.run ?? undefined } as SyncSnapshot;
  }
  await state.put(legacy.changes);
  const moved = await retireLegacy(dir);
  ctx.printer.info(
    `moved the users sync state of ${showPath(dir)} into the state store ${showPath(state.store.location)} (the old files are kept in ${showPath(moved)})`,
  );
  return state.load();
}

/** docs/users-sync.md "In CI": a runner that starts empty has no baseline, so leavers are never found. */
function warnFirstRunInCi(ctx: CommandContext, state: SyncState): void {
  const env = ctx.services.env;
  const ci = [env.CI, env.GITHUB_ACTIONS].some((v) => v !== undefined && v !== "" && v !== "false" && v !== "0");
  if (!ci) return;
  ctx.printer.warn(
    `first sync of this service and organization in the state store ${showPath(state.store.location)}, on a CI runner: without a baseline, users who left the roster cannot be found (they are never deactivated) and every user is sent as Add; keep the state between runs — SIMADMIN_STATE=postgres://… (a shared PostgreSQL), or cache that directory between runs (docs/users-sync.md "In CI")`,
  );
}

/** Users sent INACTIVE by the syncs of the last 7 days, other than those this plan deactivates. */
function recentDeactivations(history: Deactivations, now: number, planned: readonly PlannedRow[]): { others: number } {
  const mine = new Set(planned.filter((r) => r.change === "deactivate").map((r) => keyOf(r.email)));
  const others = Object.entries(history).filter(([key, at]) => !mine.has(key) && now - Date.parse(at) < WEEK_MS).length;
  return { others };
}

/** The history written with a run: the last 7 days, and this plan's deactivations now. */
function withDeactivations(history: Deactivations, now: number, planned: readonly PlannedRow[]): Deactivations {
  const kept = Object.fromEntries(Object.entries(history).filter(([, at]) => now - Date.parse(at) < WEEK_MS));
  const at = new Date(now).toISOString();
  for (const row of planned) if (row.change === "deactivate") kept[keyOf(row.email)] = at;
  return kept;
}
