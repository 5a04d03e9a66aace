import { stringify } from "csv-stringify/sync";
import { getImportStatus } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import type { ImportManifest } from "../../domain/users-csv/import-manifest.js";
import { USER_COLUMNS } from "../../domain/users-csv/model.js";
import { taskStateOf } from "../../domain/users-csv/task-status.js";
import { applyToBaseline, type Baseline, keyOf, type PlanRow, type SyncedUser } from "../../domain/users-sync/plan.js";
import { loadManifest } from "../users-import/side-files.js";
import type { PlanRecord, SyncState } from "./state.js";

// From a plan to the service and back into the baseline (docs/cli-contract.md "Sync": "the
// baseline changes only for rows the service accepted").
//
// The plan is written as a users CSV (plan.csv) and imported by the import machinery of
// `users import` (validation, batches of 750, manifest, errors file, --wait). Its rows are
// in plan order, so row r of plan.csv (header = 1) is plan row r - 2, and a batch's
// firstRow..lastRow name exactly its plan rows.
//
// A batch's rows enter the baseline when the service accepted it: it has a taskId and,
// when its end is known, did not end FAILED — with --wait only when it ended COMPLETED.
// Rows the service rejected inside an accepted batch stay out. Batches never sent, sent
// ambiguously (killed mid-upload, timeout) or FAILED stay out too: the next run plans
// those users again, so nothing is lost and nothing accepted is sent twice.

export function planCsv(rows: readonly PlanRow[]): string {
  return stringify(
    rows.map((r) => [r.firstName, r.lastName, r.email, r.email, "trainee", r.teamName, r.status, r.action]),
    // USER_COLUMNS order: firstName, lastName, username (= email), email, role, teamName, status, action.
    { header: true, columns: [...USER_COLUMNS], delimiter: ",", record_delimiter: "unix" },
  );
}

/**
 * The import manifest of the last plan. Its directory is this service's and organization's
 * already, so the newest section (the top one) is the plan's, whatever base URL it names
 * (under --sandbox the address changes from run to run).
 */
export async function loadPlanManifest(state: SyncState): Promise<ImportManifest | undefined> {
  return loadManifest(state.planManifestPath);
}

export interface FoldResult {
  baseline: Baseline;
  plan: PlanRecord;
  /** Rows that entered the baseline now. */
  accepted: number;
  /** Rows of the plan still not in the baseline (to be planned again). */
  left: number;
  /** Rows of batches that may have reached the service without a task id (ambiguous, killed mid-upload). */
  uncertain: SyncedUser[];
  /** Rows the service rejected: re-sent Adds of an ambiguous upload (the user exists: it went through), and others. */
  rejectedExisting: number;
  rejectedOther: number;
}

/**
 * Moves into the baseline the rows of every batch of `plan` the service accepted and that
 * is not in it yet. `ask`: the status of a task whose end is unknown is asked (one
 * read-only request per batch); otherwise such a batch counts as accepted unless
 * `requireCompleted` (a --wait run: only COMPLETED counts).
 */
export async function foldAccepted(
  ctx: CommandContext,
  baseline: Baseline,
  plan: PlanRecord,
  manifest: ImportManifest | undefined,
  options: { ask: boolean; requireCompleted: boolean; organizationId: string },
): Promise<FoldResult> {
  const folded = new Set(plan.folded);
  const accepted: SyncedUser[] = [];
  const uncertain: SyncedUser[] = [];
  let rejectedExisting = 0;
  let rejectedOther = 0;
  let rowsIn = 0;
  for (const batch of manifest?.batches ?? []) {
    const rowsOf = (): PlanRecord["rows"] => plan.rows.slice(batch.firstRow - 2, batch.lastRow - 1);
    if (batch.state === "ambiguous" || batch.state === "uploading") {
      uncertain.push(...rowsOf());
      continue;
    }
    if (folded.has(batch.number)) continue;
    // A batch refused whole (400, no valid row): every row of it is rejected.
    const refused = batch.state === "rejected";
    // A held batch the user checked and marked imported (--mark-imported) has no taskId: accepted.
    const marked = batch.state === "uploaded" && batch.taskId === undefined && batch.settled !== undefined;
    if (!refused && !marked && (batch.taskId === undefined || batch.state !== "uploaded")) continue;
    let status = refused ? undefined : batch.status;
    if (!refused && batch.taskId !== undefined && status !== "COMPLETED" && status !== "FAILED" && options.ask) {
      const api = await ctx.services.api();
      status = taskStateOf(
        await getImportStatus(api, { organizationId: options.organizationId, taskId: batch.taskId }),
        batch.taskId,
      );
    }
    if (status === "FAILED") continue;
    if (!refused && !marked && status !== "COMPLETED" && options.requireCompleted) continue;
    const rejected = new Set((batch.rowErrors ?? []).map((e) => e.row));
    if (refused) for (let row = batch.firstRow; row <= batch.lastRow; row++) rejected.add(row);
    for (let row = batch.firstRow; row <= batch.lastRow; row++) {
      const planned = plan.rows[row - 2];
      if (planned === undefined) continue;
      if (!rejected.has(row)) {
        accepted.push(planned);
        rowsIn++;
        continue;
      }
      const sentBefore = planned.action === "Add" ? plan.uncertain[keyOf(planned.email)] : undefined;
      if (sentBefore) {
        // An Add refused now, after an upload of it that may have gone through: it did.
        accepted.push(sentBefore);
        rowsIn++;
        rejectedExisting++;
      } else rejectedOther++;
    }
    folded.add(batch.number);
  }
  // Users still uncertain from an earlier night whose row was not settled now (the batch
  // was never sent, or cut off again) stay uncertain, so that a later refusal of their Add
  // is still read as "it exists" (newer values first). A user already in the baseline is
  // settled, even when the batch that put it there was folded by an earlier call (the
  // sending run itself): warning about it night after night would be false (QA, bug 2).
  const acceptedKeys = new Set(accepted.map((u) => keyOf(u.email)));
  const uncertainKeys = new Set(uncertain.map((u) => keyOf(u.email)));
  for (const [key, values] of Object.entries(plan.uncertain)) {
    if (!acceptedKeys.has(key) && !uncertainKeys.has(key) && !(key in baseline.users)) uncertain.push(values);
  }
  const now = new Date(ctx.services.clock.now()).toISOString();
  return {
    baseline: accepted.length > 0 ? applyToBaseline(baseline, accepted, now) : baseline,
    plan: { ...plan, folded: [...folded].sort((a, b) => a - b), foldedRows: plan.foldedRows + rowsIn },
    accepted: accepted.length,
    left: plan.rows.length - plan.foldedRows - rowsIn,
    uncertain,
    rejectedExisting,
    rejectedOther,
  };
}
