import type { CommandContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import {
  decideStart,
  describeTarget,
  type ImportManifest,
  type ImportSection,
  markImported,
  prepareResend,
  splitManifest,
  type StartDecision,
} from "../../domain/users-csv/import-manifest.js";
import type { ValidationSummary } from "../../domain/users-csv/validate.js";
import type { ImportFlags, ImportSetup } from "./common.js";
import { loadManifest } from "./side-files.js";
import { refreshUnfinishedStatuses } from "./task-statuses.js";
import { showPath } from "../../messages.js";

// Whether this run may send at all, and from where: the manifest of an earlier run decides
// (domain/users-csv/import-manifest.ts decideStart), with --resume, --retry-failed,
// --mark-imported and --accepted-task applied to it.

export interface ImportStart {
  decision: StartDecision | undefined;
  /** The earlier run's manifest this one goes on from, ready to send (--resume, --retry-failed). */
  resumeFrom: ImportManifest | undefined;
  /** Imports of the same file into other services or organizations: kept as they are. */
  others: ImportSection[];
}

/** Throws the refusal (exit 2, nothing sent) unless --dry-run, which reports it instead. */
export async function decideImportStart(
  ctx: CommandContext,
  flags: ImportFlags,
  setup: ImportSetup,
  summary: ValidationSummary,
): Promise<ImportStart> {
  // Only the section of this service and organization counts; others are kept.
  const { mine: existing, others } =
    setup.target === undefined
      ? { mine: undefined, others: [] }
      : splitManifest(await loadManifest(setup.manifestPath), setup.target);
  if (others.length > 0) {
    ctx.printer.info(
      `${showPath(setup.manifestPath)} also records ${others.map((o) => `an import into ${describeTarget(o)}`).join("; ")}: not this run's (another service or organization); kept as it is`,
    );
  }
  let decision: StartDecision | undefined =
    setup.target === undefined
      ? undefined
      : decideStart(
          existing,
          { sha256: summary.sha256, organizationId: setup.target.organizationId },
          flags.resume || flags.retryFailed,
          {
            file: setup.fileName,
            manifest: setup.manifestPath,
            command: `simadmin users import ${flags.file}`,
          },
        );
  if (decision?.kind === "refuse" && existing === undefined && others.length > 0 && setup.target) {
    decision = {
      kind: "refuse",
      message: `${flags.retryFailed ? "--retry-failed" : "--resume"}: ${setup.manifestPath} records no import of ${setup.fileName} into ${describeTarget(setup.target)}, only imports into another service or organization`,
      hint: `run without ${flags.retryFailed ? "--retry-failed" : "--resume"} to start this import (the other records are kept)`,
    };
  }
  // A dry run never needs the manifest's permission: it says what a real
  // run would do, refusal included.
  if (decision?.kind === "refuse" && !flags.dryRun) throw new UsageError(decision.message, { hint: decision.hint });
  // A run without --wait left its tasks' ends unknown: --retry-failed asks before deciding.
  if (decision?.kind === "resume" && flags.retryFailed && !flags.dryRun && setup.organizationId !== undefined) {
    const asked = await refreshUnfinishedStatuses(ctx, decision.manifest.batches, setup.organizationId);
    if (asked) ctx.printer.info(asked);
  }
  let resumeFrom =
    decision?.kind === "resume"
      ? prepareResend(decision.manifest, flags.retryFailed, setup.now(), flags.resendAmbiguous)
      : undefined;
  if (resumeFrom && (flags.markImported !== undefined || flags.acceptedTask !== undefined)) {
    // The user checked at the service (the held-batch message says how): recorded, never sent.
    const marked = markImported(resumeFrom, flags.markImported ?? [], setup.now(), flags.acceptedTask);
    if (!marked.ok)
      throw new UsageError(
        `${flags.markImported ? "--mark-imported" : "--accepted-task"}: ${marked.problem}; nothing was recorded or sent`,
        {
          hint: `only batches a --resume held back as possibly received can be marked; see ${setup.manifestPath}`,
        },
      );
    resumeFrom = marked.manifest;
    if (flags.markImported)
      ctx.printer.info(
        `--mark-imported: ${flags.markImported.map((n) => `batch ${n}`).join(", ")} recorded as imported without a task id (not sent again)`,
      );
    for (const [n, taskId] of flags.acceptedTask ?? [])
      ctx.printer.info(`--accepted-task: batch ${n} recorded as uploaded, task ${taskId} (not sent again)`);
  }
  return { decision, resumeFrom, others };
}
