import type { CommandContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { displayName } from "../../domain/csv-input/reader.js";
import type { JsonRecord } from "../../domain/records.js";
import { batchAction, countStates, type ImportManifest, type StartDecision } from "../../domain/users-csv/import-manifest.js";
import { planBatchSizes } from "../../domain/users-csv/batches.js";
import type { ValidationSummary } from "../../domain/users-csv/validate.js";
import type { CommandResult } from "../../output/render.js";
import { describeRequestPlan } from "../shared/request-plan.js";
import { type ImportFlags } from "./common.js";
import { plural } from "../shared/row-report.js";
import { NOTHING_TO_SEND } from "./outcome.js";
import { showPath } from "../../messages.js";

// What an import will send, for people before it does: --dry-run's report and the
// confirmation asked on a terminal (docs/cli-contract.md "Confirmation").

/** What the file holds and is going where; a resumed run's batches by what becomes of them. */
interface PlanSubject {
  summary: ValidationSummary;
  fileName: string;
  organizationId: string | undefined;
  resumeFrom: ImportManifest | undefined;
  resendAmbiguous: boolean;
}

/** The fields of a dry run's plan (its `resume` object's fields flattened, as --fields names them). */
export const DRY_RUN_FIELDS = [
  "file",
  "organizationId",
  "rows",
  "validRows",
  "invalidRows",
  "blankRows",
  "batches",
  "batchSizes",
  "adds",
  "updates",
  "inactive",
  "encoding",
  "delimiter",
  "sha256",
  "resume",
  "resume.uploaded",
  "resume.rejected",
  "resume.toSend",
  "resume.toResend",
  "resume.heldAmbiguous",
  "wouldSend",
  "note",
  "realRunWouldStop",
  "requests",
  "leastSeconds",
];

/** --dry-run: the plan as the result (and a real run's refusal, which a dry run only reports). */
export async function dryRunResult(
  ctx: CommandContext,
  subject: PlanSubject,
  decision: StartDecision | undefined,
): Promise<CommandResult> {
  const { summary, resumeFrom, resendAmbiguous } = subject;
  const refusal = decision?.kind === "refuse" ? decision : undefined;
  const sizes = planBatchSizes(summary.validRows);
  // What a real run would upload, and in words when that is nothing: the JSON, the note
  // and the CI summary (report-to-ci.ts) say the same.
  const wouldSend = refusal ? 0 : resumeFrom ? toSend(resumeFrom, resendAmbiguous) : sizes.length;
  const nothing = !refusal && wouldSend === 0 && resumeFrom && countStates(resumeFrom).uploaded > 0 ? NOTHING_TO_SEND : undefined;
  const requests = describeRequestPlan({ requests: { access: wouldSend } }, await ctx.services.rateLimits());
  const value: JsonRecord = {
    file: subject.fileName,
    organizationId: subject.organizationId ?? null,
    rows: summary.totalRows,
    validRows: summary.validRows,
    invalidRows: summary.invalidRowCount,
    blankRows: summary.blankRows,
    batches: sizes.length,
    batchSizes: sizes,
    adds: summary.adds,
    updates: summary.updates,
    inactive: summary.inactive,
    encoding: summary.encoding,
    delimiter: summary.delimiter === "\t" ? "tab" : summary.delimiter,
    sha256: summary.sha256,
  };
  if (resumeFrom) {
    const counts = countStates(resumeFrom);
    value.resume = {
      uploaded: counts.uploaded,
      rejected: counts.rejected,
      toSend: counts.pending,
      toResend: resendAmbiguous ? counts.ambiguous + counts.uploading : 0,
      heldAmbiguous: resendAmbiguous ? 0 : counts.ambiguous + counts.uploading,
    };
  }
  value.wouldSend = wouldSend;
  if (nothing) value.note = nothing;
  if (refusal) {
    value.realRunWouldStop = refusal.message;
    value.note = `a real run would stop: ${refusal.message}`;
  }
  value.requests = requests.value.requests.access?.requests ?? 0;
  value.leastSeconds = requests.value.leastSeconds;
  return {
    kind: "object",
    value,
    note:
      `dry run: nothing was sent. ${planText(subject)}` +
      (nothing ? `\n  ${nothing}` : "") +
      `\n  uploading ${requests.text} (then --wait polls the import tasks)` +
      (refusal ? `\n  a real run would stop here: ${refusal.message}; ${refusal.hint}` : ""),
  };
}

/** On a terminal without --yes: the plan on stderr, then the question; no is exit 2, nothing sent. */
export async function confirmUpload(ctx: CommandContext, flags: ImportFlags, subject: PlanSubject): Promise<void> {
  if (!ctx.printer.io.stdinIsTTY || flags.yes) return;
  // The plan names the file (and counts from it): escaped like every stderr line.
  ctx.printer.say(planText(subject));
  const { confirm } = await import("../../output/prompt.js");
  const { resumeFrom } = subject;
  const sending = resumeFrom
    ? resumeFrom.batches.filter((b) => ["send", "resend-ambiguous"].includes(batchAction(b, flags.resendAmbiguous))).length
    : planBatchSizes(subject.summary.validRows).length;
  if (!(await confirm(ctx.printer.io, `Upload ${plural(sending, "batch", "batches")} to ${subject.organizationId}?`))) {
    throw new UsageError("import cancelled; nothing was sent", { hint: "pass --yes to skip the question" });
  }
}

/** Batches a resumed run would upload: those not sent yet, and with --resend-ambiguous those that may not have arrived. */
function toSend(manifest: ImportManifest, resendAmbiguous: boolean): number {
  const counts = countStates(manifest);
  return counts.pending + (resendAmbiguous ? counts.ambiguous + counts.uploading : 0);
}

/** The plan for people: what the confirmation shows and --dry-run's note. */
function planText({ summary, fileName, organizationId, resumeFrom, resendAmbiguous }: PlanSubject): string {
  const sizes = planBatchSizes(summary.validRows);
  const lines = [
    `${showPath(fileName)}: ${plural(summary.totalRows, "row")}, ${summary.validRows.toLocaleString("en-US")} valid, ${summary.invalidRowCount.toLocaleString("en-US")} invalid` +
      (summary.invalidRowCount > 0 ? " (skipped)" : ""),
    `  ${plural(summary.adds, "Add")}, ${plural(summary.updates, "Update")}; ${plural(summary.inactive, "user")} will be INACTIVE`,
    `  ${plural(sizes.length, "batch", "batches")} of at most 750 rows (${sizes.join(", ")})${organizationId ? ` to organization ${organizationId}` : ""}`,
    `  read as ${displayName(summary.encoding)}, delimiter ${summary.delimiter === "\t" ? "tab" : `"${summary.delimiter}"`}`,
  ];
  if (resumeFrom) {
    const counts = countStates(resumeFrom);
    lines.push(
      `  resuming: ${counts.uploaded} already uploaded, ${counts.rejected} rejected, ${counts.pending} to send, ${counts.ambiguous + counts.uploading} possibly received before` +
        (resendAmbiguous ? " and to be sent again (--resend-ambiguous)" : " and held back (not sent without --resend-ambiguous)"),
    );
  }
  return lines.join("\n");
}
