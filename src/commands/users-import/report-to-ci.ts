import type { CiReport } from "../../output/ci-report.js";
import type { CommandOutcome } from "../types.js";
import { plural } from "../shared/row-report.js";
import { NOTHING_TO_SEND } from "./outcome.js";

/** The batches as CI test cases and summary lines (output/ci-report.ts); a plan (--dry-run) as lines. */
export function reportToCi(ci: CiReport, outcome: CommandOutcome): void {
  if (outcome.kind === "object") {
    const importPlan = outcome.value;
    ci.dryRun = true;
    // The same numbers as the plan's JSON: what a real run would send (dry-run.ts wouldSend).
    if (typeof importPlan.wouldSend === "number") {
      ci.fact(
        "Plan",
        typeof importPlan.note === "string"
          ? `dry run: ${importPlan.note}`
          : `dry run: ${plural(importPlan.wouldSend, "batch", "batches")} would be sent`,
      );
      ci.output("batches", importPlan.wouldSend);
    }
    return;
  }
  if (outcome.kind !== "records") return;
  const batches = outcome.records.filter((r) => typeof r.batch === "number");
  for (const b of batches) {
    const rows = b.firstRow === undefined ? "" : ` (rows ${String(b.firstRow)}-${String(b.lastRow)})`;
    const task = typeof b.taskId === "string" ? ` task ${b.taskId}` : "";
    const failed = b.state === "rejected" || b.status === "FAILED";
    ci.testCase({
      name: `batch ${String(b.batch)}${rows}${task}`,
      okText: b.thisRun === "sent" || typeof b.thisRun !== "string" ? undefined : b.thisRun,
      failure: failed
        ? `batch ${String(b.batch)}: ${String(b.state)}${b.status ? ` ${String(b.status)}` : ""}${task}`
        : undefined,
      // A task that ended FAILED is the run's news: an annotation, not only a summary line.
      annotate: b.status === "FAILED",
    });
  }
  if (batches.length > 0) {
    const tasks = batches.map((b) => b.taskId).filter((t): t is string => typeof t === "string");
    const sent = batches.filter((b) => b.thisRun === "sent").length;
    ci.fact("Batches", `${batches.length}${tasks.length > 0 ? ` (task ids: ${tasks.join(", ")})` : ""}`);
    ci.fact(
      "Sent",
      sent === 0 && batches.every((b) => b.thisRun === NOTHING_TO_SEND)
        ? NOTHING_TO_SEND
        : `${plural(sent, "batch", "batches")} this run`,
    );
    ci.output("batches", batches.length);
    ci.output("sent-batches", sent);
    ci.output("task-ids", tasks.join(" "));
    ci.output("failed-batches", batches.filter((b) => b.state === "rejected" || b.status === "FAILED").length);
  }
}
