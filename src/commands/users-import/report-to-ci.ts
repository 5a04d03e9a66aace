import type { CiReport } from "../../output/ci-report.js";
import type { CommandOutcome } from "../types.js";
import { plural } from "../shared/row-report.js";

/** The batches as CI test cases and summary lines (output/ci-report.ts); a plan (--dry-run) as lines. */
export function reportToCi(ci: CiReport, outcome: CommandOutcome): void {
  if (outcome.kind === "object") {
    const plan = outcome.value;
    ci.dryRun = true;
    if (typeof plan.batches === "number") {
      ci.fact("Plan", `dry run: ${plural(plan.batches, "batch", "batches")} would be sent`);
      ci.output("batches", plan.batches);
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
      failure: failed
        ? `batch ${String(b.batch)}: ${String(b.state)}${b.status ? ` ${String(b.status)}` : ""}${task}`
        : undefined,
      // A task that ended FAILED is the run's news: an annotation, not only a summary line.
      annotate: b.status === "FAILED",
    });
  }
  if (batches.length > 0) {
    const tasks = batches.map((b) => b.taskId).filter((t): t is string => typeof t === "string");
    ci.fact("Batches", `${batches.length}${tasks.length > 0 ? ` (task ids: ${tasks.join(", ")})` : ""}`);
    ci.output("batches", batches.length);
    ci.output("task-ids", tasks.join(" "));
    ci.output("failed-batches", batches.filter((b) => b.state === "rejected" || b.status === "FAILED").length);
  }
}
