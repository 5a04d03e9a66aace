import { ServiceError } from "../../errors.js";
import { rowRange } from "../../domain/users-csv/import-manifest.js";
import type { HeldBatch } from "../../domain/users-sync/records.js";
import { plural } from "../shared/row-report.js";

// Batches that may have been received (docs/import-safety.md "Held batches"), in the sync's
// words: the service has no idempotency key, so a sync never sends such a batch again on its
// own — exactly as `users import --resume` holds one — and names each with the ways out,
// which are this sync's own flags.

/** "held batch 2 (750 users of the plan of 2026-11-20T02:00:00.000Z: a@x.org, b@x.org, …)" */
export function describeHeld(held: HeldBatch): string {
  const emails = held.rows.slice(0, 3).map((r) => r.email);
  const more = held.rows.length > emails.length ? ", …" : "";
  return `held batch ${held.number} (${plural(held.rows.length, "user")} of the plan of ${held.plannedAt}: ${emails.join(", ")}${more})`;
}

/** Why each held batch is held, for people. */
function why(held: HeldBatch): string {
  if (held.batch.disputed !== undefined)
    return `task ${held.batch.taskId}: ${held.batch.disputed}, so which of its rows were imported is not known`;
  return `its upload may have been received (cut off or killed after the body was sent${held.batch.error ? `: ${held.batch.error}` : ""})`;
}

/** Exit 8 ("the service's answer is unknown", docs/cli-contract.md "Exit codes"), with this sync's ways out. */
export function heldError(held: readonly HeldBatch[], followUp: string): ServiceError {
  const numbers = held.map((h) => h.number).join(",");
  const tasks = held.map((h) => h.batch.taskId).filter((t): t is string => t !== undefined);
  const it = held.length === 1 ? "it" : "them";
  return new ServiceError(`${held.map((h) => `${describeHeld(h)}: ${why(h)}`).join("; ")}; not sent again`, {
    delivery: "not-sent",
    hint:
      `check in the app whether ${held.length === 1 ? "its users exist" : "their users exist"} with those values` +
      (tasks.length > 0 ? ` (\`simadmin import-status ${tasks.map((t) => `--task ${t}`).join(" ")}\`)` : "") +
      `; if they do, \`${followUp} --mark-imported ${numbers}\` records ${it} as synced without sending` +
      `; if they do not, \`${followUp} --resend-ambiguous\` sends ${it} again (an Add refused as existing is then taken as done)`,
  });
}

/** The lines a run prints about held batches it leaves held (a --plan, or before sending). */
export function heldLines(held: readonly HeldBatch[]): string[] {
  return held.map(
    (h) => `${describeHeld(h)} is held: ${why(h)}; its users are left as they are (${rowRange(h.batch)} of that plan)`,
  );
}
