// How a sync's run ends up in the baseline (docs/cli-contract.md "Sync": "the baseline
// changes only for rows the service accepted"; docs/users-sync.md "Settling a run").
//
// Each batch of the run, by what the import engine recorded of it:
//   pending                    never reached the service: planned again
//   rejected                   refused whole (no valid row, no task): its rows planned again
//   uploading, ambiguous       may have been received: held (never sent again unasked)
//   uploaded, disputed         its answer contradicts itself: held like an ambiguous one
//   uploaded, marked imported  the user checked (--mark-imported): its rows enter the baseline
//   uploaded, task COMPLETED   its rows enter the baseline, but for those the service rejected
//   uploaded, task FAILED      nothing of it was imported: planned again
//   uploaded, task unknown     an open task, asked about by the next run
// A rejected row of an Add that an earlier upload may already have delivered (--resend-
// ambiguous) is taken as done: the user exists, with the values sent then. Such an Add that
// is not sent after all, or whose task FAILED, is held again: the earlier upload may still
// have delivered it, so it is never planned again as if it had not.
//
// Pure: the statuses were asked before (engines/users-import/statuses.ts).

import type { ManifestBatch } from "../users-csv/manifest-schema.js";
import type { ImportTaskState } from "../users-csv/task-status.js";
import { applyToBaseline, type Baseline, type SyncedUser } from "./sync-plan.js";
import { keyOf } from "./user-key.js";
import type { HeldBatch, OpenTask, PlannedRow, SyncRun } from "./records.js";

export interface SettleInput {
  baseline: Baseline;
  run: SyncRun | undefined;
  held: readonly HeldBatch[];
  tasks: readonly OpenTask[];
  /** What the open tasks were found to be (taskId → state); a task not in it is still open. */
  taskStates: ReadonlyMap<string, ImportTaskState>;
  nowIso: string;
}

export interface Settled {
  baseline: Baseline;
  held: HeldBatch[];
  tasks: OpenTask[];
  /** Rows that entered the baseline now. */
  entered: number;
  /** Rows of batches never sent: planned again. */
  notSent: number;
  /** The rows of the run's batches never sent, in plan order (what --resume sends). */
  unsent: PlannedRow[];
  /** Rows of FAILED tasks: planned again. */
  failed: number;
  /** Rows the service rejected (inside an accepted batch, or refused whole): planned again. */
  rejected: number;
  /** Re-sent Adds refused as existing: an earlier upload delivered them. */
  rejectedExisting: number;
  /** Batches of the run held now. */
  newlyHeld: HeldBatch[];
}

/** The plan rows of a batch (row r of the batches is plan row r - 2). */
export function rowsOfBatch(run: Pick<SyncRun, "rows">, batch: Pick<ManifestBatch, "firstRow" | "lastRow">): PlannedRow[] {
  return run.rows.slice(batch.firstRow - 2, batch.lastRow - 1);
}

/** Folds the run and the open tasks into the baseline, the held batches and the tasks still open. */
export function settleRun(input: SettleInput): Settled {
  const out: Settled = {
    baseline: input.baseline,
    held: [...input.held],
    tasks: [],
    entered: 0,
    notSent: 0,
    unsent: [],
    failed: 0,
    rejected: 0,
    rejectedExisting: 0,
    newlyHeld: [],
  };
  const entering: SyncedUser[] = [];
  for (const task of input.tasks) {
    const state = input.taskStates.get(task.taskId);
    if (state === "COMPLETED") entering.push(...task.rows);
    else if (state === "FAILED") out.failed += task.rows.length;
    else out.tasks.push(task);
  }
  const run = input.run;
  for (const batch of run?.batches ?? []) {
    const rows = rowsOfBatch(run!, batch);
    const notImported = (counted: "notSent" | "failed"): void => {
      const uncertain = rows.filter((r) => r.action === "Add" && run!.uncertain[keyOf(r.email)] !== undefined);
      const others = rows.filter((r) => !uncertain.includes(r));
      out[counted] += others.length;
      if (batch.state === "pending") out.unsent.push(...others);
      if (uncertain.length > 0) hold(uncertain);
    };
    const hold = (heldRows: PlannedRow[]): void => {
      const held: HeldBatch = { number: freeNumber(out.held, batch.number), plannedAt: run!.createdAt, rows: heldRows, batch };
      out.held.push(held);
      out.newlyHeld.push(held);
    };
    if (batch.state === "pending") {
      notImported("notSent");
      continue;
    }
    if (batch.state === "uploading" || batch.state === "ambiguous" || batch.disputed !== undefined) {
      hold(rows);
      continue;
    }
    if (batch.status === "FAILED") {
      notImported("failed");
      continue;
    }
    // Refused whole (no task), or accepted: the rows the service did not reject.
    const refused = batch.state === "rejected";
    const rejectedRows = new Set((batch.rowErrors ?? []).map((e) => e.row));
    const kept: PlannedRow[] = [];
    rows.forEach((row, i) => {
      if (!refused && !rejectedRows.has(batch.firstRow + i)) {
        kept.push(row);
        return;
      }
      const sentBefore = row.action === "Add" ? run!.uncertain[keyOf(row.email)] : undefined;
      if (sentBefore === undefined) {
        out.rejected++;
        return;
      }
      entering.push(sentBefore);
      out.rejectedExisting++;
    });
    if (refused) continue;
    const marked = batch.taskId === undefined && batch.settled !== undefined;
    if (marked || batch.status === "COMPLETED") entering.push(...kept);
    else if (batch.taskId !== undefined && kept.length > 0)
      out.tasks.push({
        taskId: batch.taskId,
        plannedAt: run!.createdAt,
        ...(batch.uploadedAt === undefined ? {} : { uploadedAt: batch.uploadedAt }),
        rows: kept,
      });
  }
  out.entered = entering.length;
  if (entering.length > 0) out.baseline = applyToBaseline(out.baseline, entering, input.nowIso);
  return out;
}

/** `preferred` unless a held batch has it already; else one more than the highest. */
function freeNumber(held: readonly HeldBatch[], preferred: number): number {
  if (!held.some((h) => h.number === preferred)) return preferred;
  return Math.max(...held.map((h) => h.number)) + 1;
}

/**
 * --mark-imported: the held batches the user checked at the service leave the held list and
 * their rows enter the baseline. Returns the problem when a number names no held batch.
 */
export function markHeldImported(
  baseline: Baseline,
  held: readonly HeldBatch[],
  numbers: readonly number[],
  nowIso: string,
): { ok: true; baseline: Baseline; held: HeldBatch[]; rows: number } | { ok: false; problem: string } {
  const unknown = numbers.filter((n) => !held.some((h) => h.number === n));
  if (unknown.length > 0) {
    const known = held.map((h) => h.number).join(", ");
    return {
      ok: false,
      problem: `no held batch ${unknown.join(", ")} (${held.length === 0 ? "no batch is held" : `held: ${known}`})`,
    };
  }
  const marked = held.filter((h) => numbers.includes(h.number));
  const rows = marked.flatMap((h) => h.rows);
  return {
    ok: true,
    baseline: applyToBaseline(baseline, rows, nowIso),
    held: held.filter((h) => !numbers.includes(h.number)),
    rows: rows.length,
  };
}

/** The users a run must leave alone: held, or in a task whose end is not known. */
export function usersInFlight(held: readonly HeldBatch[], tasks: readonly OpenTask[]): Set<string> {
  return new Set([...held.flatMap((h) => h.rows), ...tasks.flatMap((t) => t.rows)].map((r) => keyOf(r.email)));
}
