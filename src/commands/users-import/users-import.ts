import { basename } from "node:path";
import type { CommandContext } from "../../context.js";
import { InterruptedError, InvalidDataError, LocalFileError, UsageError } from "../../errors.js";
import {
  errorsPathFor,
  type ImportTarget,
  lockPathFor,
  manifestPathFor,
  normalizeBaseUrl,
} from "../../domain/users-csv/import-manifest.js";
import { checkOutputPath } from "../../output/atomic-file.js";
import { checkReadableFile } from "../shared/local-files.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { type ImportFlags, type ImportSetup } from "./common.js";
import { plural, PROBLEM_COLUMNS } from "../shared/row-report.js";
import { UsersImportOptions } from "./options.js";
import { BATCH_FIELDS, importOutcome } from "./outcome.js";
import { confirmUpload, DRY_RUN_FIELDS, dryRunResult } from "./dry-run.js";
import { prepareManifest } from "./prepare.js";
import { reportToCi } from "./report-to-ci.js";
import { ManifestStore, RejectedRowsFile } from "./side-files.js";
import { decideImportStart } from "./start.js";
import { waitForBatches } from "./task-statuses.js";
import { uploadBatches } from "./upload.js";
import { validateImportFile } from "./validation.js";
import { showPath } from "../../messages.js";

// users import <file> [--dry-run] [--skip-invalid] [--wait [--wait-timeout]] [--resume] [-y]
// (docs/cli-contract.md "Users CSV", "Confirmation", "Retries"; docs/service-spec.md §4.8).
//
// The file is read three times, streamed, never held whole (a million rows must fit in
// 150 MiB):
//   pass 1  validates every row (validateUsersCsv). Any invalid row stops here — exit 6,
//           nothing sent — unless --skip-invalid.
//   pass 2  builds every batch and records its hash in the manifest before the first upload,
//           so a file that changed after pass 1 fails here (CHANGED) with nothing sent.
//   pass 3  builds the batches again and uploads them in order, each checked against the
//           hash recorded in pass 2: a file changed during the uploads stops the run before
//           the first batch that differs, and what was sent is what the manifest says.
// Keeping the batches of pass 2 in memory instead would cost ~100 bytes a row (100 MB for
// a million rows); a third read of the file costs far less than the uploads themselves.
//
// Decisions:
// - Side files beside the CSV, named after it without `.csv`: `staff.import.json` (the
//   manifest, see domain/users-csv/import-manifest.ts for when it refuses a run) and
//   `staff.errors.csv`; both mode 0600 (they hold personal data) and written atomically.
// - `<file>.errors.csv` holds every rejected row of this run: the rows that failed local
//   validation, with their cells exactly as in the file, then the rows the service
//   rejected (in batch order), with the values as uploaded (trimmed; ignored columns
//   empty). Each with `row` (spreadsheet row of the original file) and `errors`. A run that
//   rejects no row removes an errors file left by an earlier run, which would otherwise
//   claim rows are still wrong. --dry-run writes it too (it is local; it is what to fix).
// - A batch the service refuses as a whole (400 "no valid row") is recorded `rejected`,
//   its rows reported, and the other batches still go: they are independent files. Such
//   rows, and rows the service rejects inside an accepted batch, end the run with exit 6
//   unless --skip-invalid (the user said to import what is valid and report the rest).
// - Without --wait each task is shown as SCHEDULED, the state a task starts in (docs/service-spec.md §3),
//   without spending a status request per batch of the access budget.
// - Exit 10 (FAILED) and 9 (timeout) only with --wait, as for import-status: without it
//   the outcome would depend on how fast the service happened to be.
// - A declined confirmation ends with exit 2 and nothing sent.
//
// The parts, in the order a run meets them: validation.ts (pass 1), start.ts (what the
// manifest allows), dry-run.ts (--dry-run's report, the confirmation), prepare.ts (pass 2),
// upload.ts with upload-failures.ts and service-rows.ts (pass 3), task-statuses.ts (--wait),
// outcome.ts (the result and exit code), report-to-ci.ts; side-files.ts writes the manifest
// and the errors file.

/**
 * Every field an import prints — its batches, its invalid rows (with a file problem's code),
 * a dry run's plan —: --fields is checked against them before anything is sent.
 */
const IMPORT_FIELDS = [...BATCH_FIELDS, ...PROBLEM_COLUMNS, "code", ...DRY_RUN_FIELDS];

export const run = defineRun(
  UsersImportOptions,
  async ({ options, args, ...ctx }) => {
    const file = args[0];
    if (file === undefined || file.trim() === "")
      throw new UsageError("users import: the CSV file is missing, e.g. `simadmin users import staff.csv`");
    return importUsersFile(ctx, { ...options, file });
  },
  { fields: IMPORT_FIELDS },
);

/**
 * The whole import of one users file — validation, manifest, lock, batches, errors file,
 * --wait. The uploads themselves are the import engine's (engines/users-import/), which
 * `users sync` drives too, with its own journal and words.
 */
async function importUsersFile(ctx: CommandContext, flags: ImportFlags): Promise<CommandOutcome> {
  await checkReadableFile(flags.file);
  const fileName = basename(flags.file);
  const manifestPath = manifestPathFor(flags.file);
  // Every side file is checked before anything is read or sent (exit 11 naming it): the
  // errors file even for --dry-run (it writes it), the manifest and lock when uploading.
  // A dry run writes no manifest, and its errors file only when there is a row to put in it:
  // a valid file in a read-only directory is a clean dry run.
  if (!flags.dryRun) {
    await checkOutputPath(errorsPathFor(flags.file));
    await checkOutputPath(manifestPath);
  } else {
    await checkOutputPath(manifestPath).catch((error: unknown) => {
      if (!(error instanceof LocalFileError)) throw error;
      ctx.printer.warn(`dry run: a real run would stop here: ${error.message}`);
    });
  }
  // A dry run sends nothing, so it needs no organization; with one it also checks the manifest.
  const organizationId = flags.dryRun ? (await ctx.services.settings()).org : await ctx.services.org();
  if (!flags.dryRun) await ctx.services.api(); // a missing base URL or key stops here, before the lock
  const settings = await ctx.services.settings();
  const target: ImportTarget | undefined =
    organizationId === undefined
      ? undefined
      : { baseUrl: normalizeBaseUrl(settings.baseUrl ?? ""), apiVersion: settings.apiVersion, organizationId };
  // One run at a time per file (output/file-lock.ts); a dry run sends nothing and needs none.
  const lock = flags.dryRun
    ? undefined
    : await (
        await import("../../output/file-lock.js")
      ).acquireFileLock(lockPathFor(flags.file), {
        what: `an import of ${fileName}`,
        command: `simadmin users import ${flags.file}`,
        now: () => ctx.services.clock.now(),
      });
  try {
    const errors = flags.dryRun
      ? await RejectedRowsFile.openOrSkip(errorsPathFor(flags.file), ctx.printer.sideFileFlags())
      : await RejectedRowsFile.open(errorsPathFor(flags.file), ctx.printer.sideFileFlags());
    const ci = await ctx.printer.ci();
    ci.source(flags.file, flags.encoding);
    errors.onRejected = (row, message, local) =>
      ci.reject({ file: flags.file, row, message, skipped: local && flags.skipInvalid === true });
    let ending: "success" | "failure" | "interrupted" = "failure";
    try {
      const outcome = await importFile(ctx, flags, {
        organizationId,
        target,
        fileName,
        manifestPath,
        errors,
        now: () => new Date(ctx.services.clock.now()).toISOString(),
      });
      reportToCi(ci, outcome);
      // A result printed before its error (the invalid rows, then exit 6) is not a success.
      if (outcome.failure === undefined) ending = "success";
      else if (outcome.failure instanceof InterruptedError) ending = "interrupted";
      return outcome;
    } catch (error) {
      if (error instanceof InterruptedError || ctx.services.signal.aborted) ending = "interrupted";
      throw error;
    } finally {
      // Ctrl-C leaves no partial output file (docs/cli-contract.md, exit 130); any other ending
      // keeps the rows found, since they are what the user has to fix. Only an import that
      // went through without rejecting a row removes an errors file of an earlier run.
      if (errors.unwritable && errors.rows > 0) {
        ctx.printer.warn(`dry run: the rejected rows were not written to ${showPath(errors.path)}: ${errors.unwritable.message}`);
      }
      if (ending === "interrupted") await errors.abort();
      else if (await errors.finish({ removeStale: ending === "success" && !flags.dryRun })) {
        ctx.printer.info(`removed ${showPath(errors.path)} left by an earlier run: no row was rejected this time`);
      }
      if (ending !== "interrupted" && errors.rows > 0) ci.setErrorsFile(errors.path);
    }
  } finally {
    await lock?.release();
  }
}

async function importFile(ctx: CommandContext, flags: ImportFlags, setup: ImportSetup): Promise<CommandOutcome> {
  const { errors, fileName } = setup;
  const progress = await ctx.printer.progress();
  const validated = await validateImportFile(ctx, flags, { fileName, errors, progress });
  if ("outcome" in validated) return validated.outcome;
  const { summary } = validated;

  // The manifest decides before anything else whether this run may send at all.
  const start = await decideImportStart(ctx, flags, setup, summary);
  const { decision, resumeFrom } = start;
  const subject = {
    summary,
    fileName,
    organizationId: setup.organizationId,
    resumeFrom,
    resendAmbiguous: flags.resendAmbiguous,
  };
  if (flags.dryRun) return dryRunResult(ctx, subject, decision);
  const organizationId = setup.organizationId!;

  if (summary.validRows === 0) {
    throw new InvalidDataError(
      `no valid row in ${fileName}: all ${plural(summary.invalidRowCount, "row")} are invalid; nothing was sent (see ${errors.path})`,
    );
  }
  if (decision?.kind === "replace") ctx.printer.info(decision.note);
  await confirmUpload(ctx, flags, subject);

  const manifest = await prepareManifest(ctx, flags, { ...setup, organizationId, progress }, summary, start);
  const store = new ManifestStore(setup.manifestPath, manifest, setup.now, start.others);
  const interruptNote = `${setup.manifestPath} records the batches sent: \`simadmin users import ${flags.file} --resume\` finishes the import`;
  await store.save();

  // Pass 3, then --wait.
  let failure: unknown;
  const sentThisRun = new Set<number>();
  try {
    await uploadBatches(ctx, flags, { store, summary, organizationId, fileName, errors, sentThisRun });
  } catch (error) {
    failure = error;
  }
  let waitOutcome: { timedOut: boolean } | undefined;
  if (failure === undefined && flags.wait) {
    try {
      waitOutcome = await waitForBatches(ctx, flags, store, organizationId);
    } catch (error) {
      failure = error;
    }
  }
  if (failure instanceof InterruptedError || ctx.services.signal.aborted) throw new InterruptedError({ note: interruptNote });
  return importOutcome(flags, setup, {
    batches: store.manifest.batches,
    sentThisRun,
    organizationId,
    invalidRows: summary.invalidRowCount,
    failure,
    waitOutcome,
  });
}
