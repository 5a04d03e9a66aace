import { getImportStatus } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import { formatDuration } from "../../domain/durations.js";
import { rowRange } from "../../domain/users-csv/import-manifest.js";
import { taskStateOf } from "../../domain/users-csv/task-status.js";
import type { UserRow } from "../../domain/users-csv/validate.js";
import type { Baseline, SyncedUser } from "../../domain/users-sync/sync-plan.js";
import type { Deactivations, HeldBatch, OpenTask, PlannedRow, SyncRun } from "../../domain/users-sync/records.js";
import { settleRun, type Settled } from "../../domain/users-sync/settle.js";
import { prepareImport, sourceBatches } from "../../engines/users-import/prepare.js";
import { runImport, type ImportOutcome } from "../../engines/users-import/run.js";
import { waitForTasks } from "../shared/import-wait.js";
import { plural, problemLine, showRowLines } from "../shared/row-report.js";
import { SyncJournal } from "./journal.js";
import { unsentOf } from "./settle-last.js";
import type { UsersSyncOptions } from "./options.js";
import type { SyncState } from "./sync-state.js";

// Step 4 of a sync (users-sync.ts): the plan sent through the import engine, its batches
// recorded in the state store's `run` entry as they go (journal.ts), --wait, and the run
// settled into the baseline (domain/users-sync/settle.ts) in one put at the end.

export interface SendInput {
  state: SyncState;
  /** The state as this run left it before sending (settled, held batches settled). */
  baseline: Baseline | undefined;
  held: HeldBatch[];
  tasks: OpenTask[];
  rows: PlannedRow[];
  /** Adds re-sent after an upload that may have delivered them (--resend-ambiguous). */
  uncertain: Record<string, SyncedUser>;
  /** The deactivation history with this plan's, written with the run. */
  deactivations: Deactivations;
  organizationId: string;
}

export interface SendResult {
  outcome: ImportOutcome;
  settled: Settled;
  run: SyncRun;
  /** --wait ran out of time. */
  timedOut: boolean;
}

/** Plan row r (0-based) as row r + 2 of the batches, in the users CSV's columns. */
export function userRowsOf(rows: readonly PlannedRow[]): UserRow[] {
  return rows.map((r, i) => ({
    row: i + 2,
    firstName: r.firstName,
    lastName: r.lastName,
    username: r.email,
    email: r.email,
    role: "trainee",
    teamName: r.teamName,
    status: r.status,
    action: r.action,
  }));
}

export async function sendPlan(ctx: CommandContext, options: UsersSyncOptions, input: SendInput): Promise<SendResult> {
  const { state } = input;
  const nowIso = (): string => new Date(ctx.services.clock.now()).toISOString();
  const users = userRowsOf(input.rows);
  const createdAt = nowIso();
  const run: SyncRun = {
    version: 1,
    createdAt,
    rows: input.rows,
    batches: await prepareImport(users),
    uncertain: input.uncertain,
  };
  // The baseline exists from the first send on: a later run is never a "first sync" again.
  const baseline: Baseline = input.baseline ?? {
    version: 1,
    baseUrl: state.tenant.service,
    organizationId: state.tenant.organizationId,
    createdAt,
    updatedAt: createdAt,
    users: {},
  };
  // With the held batches as this run leaves them: those --resend-ambiguous sends again are
  // in this run's rows now, in the same put.
  await state.put({ run, baseline, deactivations: input.deactivations, held: input.held, unsent: null });
  const journal = new SyncJournal(state, run);
  const progress = await ctx.printer.progress();
  // Set by `uploading`, which the engine calls before each request of the run: every wait
  // (budget or retry, docs/rate-limits.md) comes after it.
  let current: string;
  const stopListening = ctx.services.onWait((event) => {
    progress.update(
      `${current} · waiting ${formatDuration(event.waitMs)} for the ${event.reason === "budget" ? "access rate budget" : "retry"}`,
    );
  });
  let outcome: ImportOutcome;
  try {
    outcome = await runImport({
      api: await ctx.services.api(),
      organizationId: input.organizationId,
      journal,
      source: sourceBatches(users),
      resendAmbiguous: false,
      uploadName: (number, total) => `users-sync.batch-${number}-of-${total}.csv`,
      now: () => ctx.services.clock.now(),
      signal: ctx.services.signal,
      events: {
        uploading: (batch, total) => {
          current = `uploading batch ${batch.number} of ${total} (${plural(batch.rows, "user")})`;
          progress.update(`${current}…`);
        },
        uploaded: () => progress.done(),
        // The task id reaches stderr before the store records it (even under --quiet): if the
        // store cannot, this line is what tells the user which task holds the batch.
        accepted: (batch, total, taskId) => ctx.printer.say(`accepted: batch ${batch.number} of ${total}, task ${taskId}`),
        refusedWhole: (batch) =>
          ctx.printer.warn(
            `batch ${batch.number} (${plural(batch.rows, "user")}): the service rejected every row; no task was created; continuing with the other batches`,
          ),
        rows: (batch, _users, fresh) => {
          if (!fresh || !batch.rowErrors?.length) return;
          ctx.printer.info(
            `batch ${batch.number} (${rowRange(batch)}): ${plural(batch.rowErrors.length, "row")} rejected by the service`,
          );
          showRowLines(
            ctx,
            batch.rowErrors.map((e) => {
              const row = e.row === null ? undefined : input.rows[e.row - 2];
              return problemLine(row?.rosterRow ?? null, null, `${row ? `${row.email}: ` : ""}${e.messages.join("; ")}`);
            }),
            undefined,
          );
        },
      },
    });
  } finally {
    stopListening();
    progress.done();
  }
  let timedOut = false;
  if (outcome.stop === undefined && options.wait) timedOut = await waitForRun(ctx, options, journal, input.organizationId);
  // Settled in one put: the run's accepted rows into the baseline, the rest held, open or
  // planned again, and the run gone.
  const settled = settleRun({
    baseline,
    run: journal.run,
    held: input.held,
    tasks: input.tasks,
    taskStates: new Map(),
    nowIso: nowIso(),
  });
  await state.put({
    baseline: settled.baseline,
    held: settled.held,
    tasks: settled.tasks,
    run: null,
    unsent: unsentOf(createdAt, settled),
  });
  return { outcome, settled, run: journal.run, timedOut };
}

/** --wait: the run's tasks polled until they end; each status written into the run. Returns whether time ran out. */
async function waitForRun(
  ctx: CommandContext,
  options: UsersSyncOptions,
  journal: SyncJournal,
  organizationId: string,
): Promise<boolean> {
  const api = await ctx.services.api();
  const withTask = journal.batches.filter((b): b is typeof b & { taskId: string } => b.taskId !== undefined);
  const byTask = new Map(withTask.map((b) => [b.taskId, b.number]));
  const waited = await waitForTasks(
    ctx,
    withTask.map((b) => ({ taskId: b.taskId, label: `batch ${b.number}`, status: b.status ?? "SCHEDULED" })),
    {
      timeoutMs: options.timeoutMs,
      fetchStatus: async (taskId) => taskStateOf(await getImportStatus(api, { organizationId, taskId }), taskId),
      onChange: async (task) => {
        const number = byTask.get(task.taskId);
        if (number !== undefined)
          await journal.update(number, { status: task.status, statusAt: new Date(ctx.services.clock.now()).toISOString() });
      },
    },
  );
  return waited.timedOut;
}
