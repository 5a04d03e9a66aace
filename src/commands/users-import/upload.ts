import type { CommandContext } from "../../context.js";
import { UnexpectedResponseError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import { rowRange } from "../../domain/users-csv/import-manifest.js";
import { readValidUserRows, UsersCsvFileError, type ValidationSummary } from "../../domain/users-csv/validate.js";
import { sourceBatches } from "../../engines/users-import/prepare.js";
import { runImport, type ImportStop } from "../../engines/users-import/run.js";
import { heldError } from "./held-batches.js";
import { ManifestStore, RejectedRowsFile } from "./side-files.js";
import { openSource, type ImportFlags } from "./common.js";
import { plural } from "../shared/row-report.js";
import { reportServiceRows } from "./service-rows.js";
import { acceptedUnrecordedError, ambiguousError, notSentError, refusedError } from "./upload-failures.js";

// Pass 3 of `users import` (see users-import.ts): the file read again and its batches handed
// to the import engine (engines/users-import/run.ts), which records each in the manifest
// before and after it is sent; this file says what happened, in the import's words.

interface UploadSetup {
  store: ManifestStore;
  summary: ValidationSummary;
  organizationId: string;
  fileName: string;
  errors: RejectedRowsFile;
  /** Filled with the number of each batch this run sends (the output tells them from those an earlier run sent). */
  sentThisRun: Set<number>;
}

/** Pass 3: the batches in order, each uploaded at most once unless --resume says otherwise; throws what stopped it. */
export async function uploadBatches(ctx: CommandContext, flags: ImportFlags, setup: UploadSetup): Promise<void> {
  const { store, summary, errors } = setup;
  const stem = setup.fileName.replace(/\.csv$/i, "");
  const progress = await ctx.printer.progress();
  let current = "";
  const stopListening = ctx.services.onWait((event) => {
    if (current)
      progress.update(
        `${current} · waiting ${formatDuration(event.waitMs)} for the ${event.reason === "budget" ? "access rate budget" : "retry"}`,
      );
  });
  try {
    // Without the file hash: it is checked at the end of the file, after the uploads; each
    // batch's own hash, checked before it is sent, is what guards this pass.
    const expected = {
      invalidRowNumbers: summary.invalidRowNumbers,
      validRows: summary.validRows,
      encoding: summary.encoding,
    };
    const outcome = await runImport({
      api: await ctx.services.api(),
      organizationId: setup.organizationId,
      journal: store,
      source: sourceBatches(readValidUserRows(openSource(flags), expected)),
      resendAmbiguous: flags.resendAmbiguous,
      uploadName: (number, total) => `${stem}.batch-${number}-of-${total}.csv`,
      now: () => ctx.services.clock.now(),
      signal: ctx.services.signal,
      events: {
        uploading: (batch, total, resending) => {
          setup.sentThisRun.add(batch.number);
          const what = `batch ${batch.number} of ${total} (${rowRange(batch)})`;
          if (resending)
            ctx.printer.warn(
              `sending ${what} again (--resend-ambiguous): its earlier upload may have been received by the service, so its rows may be imported twice`,
            );
          current = `uploading ${what}`;
          progress.update(`${current}…`);
        },
        uploaded: () => progress.done(),
        // The accepted taskId reaches stderr before anything else can fail (even under
        // --quiet): if the manifest cannot record it, this line is what remains.
        accepted: (batch, total, taskId) => ctx.printer.say(`accepted: batch ${batch.number} of ${total}, task ${taskId}`),
        refusedWhole: (batch) =>
          ctx.printer.warn(
            `batch ${batch.number} (${rowRange(batch)}): the service rejected every row; no task was created; continuing with the other batches`,
          ),
        rows: (batch, users, fresh) => {
          if (fresh && batch.state === "uploaded" && batch.rowErrors?.length)
            ctx.printer.info(
              `batch ${batch.number} of ${store.batches.length} (${rowRange(batch)}): ${plural(batch.rowErrors.length, "row")} rejected by the service`,
            );
          reportServiceRows(ctx, batch, users, summary.columns, errors, fresh);
        },
      },
    });
    for (const batch of outcome.disputed)
      ctx.printer.warn(`batch ${batch.number} (${rowRange(batch)}), task ${batch.taskId}: ${batch.disputed}; check its rows`);
    if (outcome.stop) throw stopError(flags, setup.fileName, store, outcome.stop);
    if (outcome.held.length > 0)
      throw heldError(outcome.held, store.batches.length, `simadmin users import ${flags.file}`, store);
  } finally {
    stopListening();
    progress.done();
  }
}

/** The import's error for what stopped the uploads. */
function stopError(flags: ImportFlags, fileName: string, store: ManifestStore, stop: ImportStop): Error {
  const what = `batch ${stop.batch.number} of ${store.batches.length} (${rowRange(stop.batch)})`;
  switch (stop.kind) {
    case "changed":
      return new UsersCsvFileError(
        "CHANGED",
        `${fileName} changed during the import: batch ${stop.batch.number} (${rowRange(stop.batch)}) is no longer the one prepared; it was not sent`,
        {
          hint: `restore the file and run \`simadmin users import ${flags.file} --resume\`; ${store.path} records what was sent`,
        },
      );
    case "refused":
      return refusedError(flags, what, stop.error);
    case "not-sent":
      return notSentError(flags, store, what, stop.batch, stop.error);
    case "ambiguous":
      return ambiguousError(flags, store, what, stop.batch, stop.error);
    case "no-task-id":
      return new UnexpectedResponseError(
        `bulk import: the service accepted ${what} but its answer has no taskId; nothing more was sent`,
        {
          hint: `check whether the batch was imported; \`simadmin users import ${flags.file} --resume --resend-ambiguous\` re-sends it and continues`,
        },
      );
    case "unrecorded":
      return acceptedUnrecordedError(store, flags, stop.batch.number, store.batches.length, stop.taskId, stop.error);
  }
}
