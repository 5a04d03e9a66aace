import type { CommandContext } from "../../context.js";
import type { Cell } from "../../domain/records.js";
import type { Baseline, SyncPlan } from "../../domain/users-sync/sync-plan.js";
import type { CommandResult } from "../../output/render.js";
import { fitColumns, tableHint } from "../../output/table-columns.js";
import { plural } from "../shared/row-report.js";

// The plan for people: the summary line on stderr and the plan rows as the result.

export const PLAN_FIELDS = ["change", "action", "email", "firstName", "lastName", "teamName", "status", "row", "changed"];
/**
 * The plan table's columns, most wanted first: as many as fit the terminal at their full
 * width (output/table-columns.ts fitColumns), so that an email is never split; the rest are
 * named in one hint line. Shown in PLAN_FIELDS order.
 */
const PLAN_TABLE_ORDER = ["email", "change", "status", "changed", "teamName", "firstName", "lastName", "action", "row"];

/** `planOnly`: a --plan, which writes nothing, so a first one establishes no baseline. */
export function summaryLine(
  syncPlan: SyncPlan,
  organizationId: string,
  baseline: Baseline | undefined,
  planOnly = false,
): string {
  const c = syncPlan.counts;
  const parts = [
    plural(c.add, "Add"),
    plural(c.update, "Update"),
    `${c.deactivate.toLocaleString("en-US")} to INACTIVE`,
    `${c.reactivate.toLocaleString("en-US")} ACTIVE again`,
    `${c.unchanged.toLocaleString("en-US")} unchanged`,
  ];
  const base =
    baseline === undefined
      ? `first sync: no baseline yet for this service and organization; ${planOnly ? "the first run without --plan establishes it" : "this run establishes it"}`
      : `baseline of ${baseline.updatedAt}: ${plural(Object.keys(baseline.users).length, "user")}, ${syncPlan.baselineActive.toLocaleString("en-US")} active`;
  return `plan for organization ${organizationId}: ${parts.join(", ")} (${base})`;
}

type RecordsResult = Extract<CommandResult, { kind: "records" }>;

export function planResult(ctx: CommandContext, syncPlan: Pick<SyncPlan, "rows"> & Partial<SyncPlan>): RecordsResult {
  const records: Record<string, Cell>[] = syncPlan.rows.map((r) => ({
    change: r.change,
    action: r.action,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    teamName: r.teamName,
    status: r.status,
    row: r.rosterRow,
    changed: r.changed.join(","),
  }));
  const { format, fields, width } = ctx.printer.outputPlan;
  const { shown, hidden } = fitColumns(PLAN_TABLE_ORDER, records, width ?? 120);
  const tableColumns = PLAN_FIELDS.filter((c) => shown.includes(c));
  if (format === "table" && fields === undefined && records.length > 0 && hidden.length > 0)
    ctx.printer.info(tableHint("plan", { shown: tableColumns, hidden }, width));
  return { kind: "records", records, tableColumns, knownFields: PLAN_FIELDS };
}
