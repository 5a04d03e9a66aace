import type { CommandContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import {
  checkSameBatches,
  countResends,
  type ImportManifest,
  type ManifestBatch,
  newManifest,
} from "../../domain/users-csv/import-manifest.js";
import { prepareImport } from "../../engines/users-import/prepare.js";
import { readValidUserRows, type ValidationSummary } from "../../domain/users-csv/validate.js";
import type { Progress } from "../../output/progress.js";
import { openSource, type ImportFlags, type ImportSetup } from "./common.js";
import { plural } from "../shared/row-report.js";
import type { ImportStart } from "./start.js";
import { showPath } from "../../messages.js";

// Pass 2 of `users import` (users-import.ts): every batch built and its hash recorded in the
// manifest before the first upload, so that a file changed since pass 1 fails here with
// nothing sent, and pass 3 can check each batch against what was recorded.

/** This run's manifest section: a new one, or the resumed one checked against the file as it is now. */
export async function prepareManifest(
  ctx: CommandContext,
  flags: ImportFlags,
  setup: ImportSetup & { organizationId: string; progress: Progress },
  summary: ValidationSummary,
  start: ImportStart,
): Promise<ImportManifest> {
  const { fileName, progress } = setup;
  progress.update(`preparing the batches of ${showPath(fileName)}…`);
  let planned: ManifestBatch[];
  try {
    planned = await prepareImport(readValidUserRows(openSource(flags), summary));
  } finally {
    progress.done();
  }
  const { resumeFrom, decision } = start;
  if (resumeFrom) {
    const problem = checkSameBatches(resumeFrom, planned);
    if (problem) {
      throw new UsageError(`--resume: ${setup.manifestPath} does not match ${fileName}: ${problem}; nothing was sent`, {
        hint: `remove ${setup.manifestPath} only if you know which of its batches were imported`,
      });
    }
    const resend = countResends(decision?.kind === "resume" ? decision.manifest : resumeFrom, flags.retryFailed);
    if (resend.failed > 0)
      ctx.printer.info(
        `--retry-failed: sending ${plural(resend.failed, "FAILED batch", "FAILED batches")} again; their task ids stay in the manifest's history`,
      );
    // A section written before the service was recorded is this service's from now on.
    return { ...resumeFrom, baseUrl: setup.target!.baseUrl, apiVersion: setup.target!.apiVersion };
  }
  return newManifest(
    {
      file: fileName,
      sha256: summary.sha256,
      bytes: summary.bytes,
      baseUrl: setup.target!.baseUrl,
      apiVersion: setup.target!.apiVersion,
      organizationId: setup.organizationId,
      skipInvalid: flags.skipInvalid,
      totalRows: summary.totalRows,
      validRows: summary.validRows,
      invalidRows: summary.invalidRowCount,
    },
    planned,
    setup.now(),
  );
}
