import { uploadUsersCsv } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import { LocalFileError, UnexpectedResponseError } from "../../errors.js";
import { escapeControlChars } from "../../text/sanitize.js";
import { formatDuration } from "../../domain/durations.js";
import { batchAction, type ManifestBatch, rowRange } from "../../domain/users-csv/import-manifest.js";
import { parseUploadAnswer } from "../../domain/users-csv/import-response.js";
import { batchUserRows, type UserBatch } from "../../domain/users-csv/batches.js";
import { readValidUserRows, type UserRow, UsersCsvFileError, type ValidationSummary } from "../../domain/users-csv/validate.js";
import { heldError } from "./held-batches.js";
import { ManifestStore, RejectedRowsFile } from "./side-files.js";
import { openSource, plural, type ImportFlags } from "./common.js";
import { counts, reportServiceRows, rowErrorsOf } from "./service-rows.js";
import { recordAcceptedAnyway, recordFailure, recordRejected } from "./upload-failures.js";

// Pass 3 of `users import` (see users-import.ts): the batches uploaded in order, each
// recorded in the manifest before and after it is sent.

interface UploadSetup {
  store: ManifestStore;
  summary: ValidationSummary;
  organizationId: string;
  fileName: string;
  errors: RejectedRowsFile;
}

/** Pass 3: the batches in order, each uploaded at most once unless --resume says otherwise. */
export async function uploadBatches(ctx: CommandContext, flags: ImportFlags, setup: UploadSetup): Promise<void> {
  const { store, summary, errors } = setup;
  const total = store.manifest.batches.length;
  const stem = setup.fileName.replace(/\.csv$/i, "");
  const progress = await ctx.printer.progress();
  let current = "";
  const stopListening = ctx.services.onWait((event) => {
    if (current)
      progress.update(
        `${current} · waiting ${formatDuration(event.waitMs)} for the ${event.reason === "budget" ? "access rate budget" : "retry"}`,
      );
  });
  const api = await ctx.services.api();
  /** Ambiguous batches of an earlier run that this one does not send (no --resend-ambiguous). */
  const held: ManifestBatch[] = [];
  try {
    // Without the file hash: it is checked at the end of the file, after the uploads; each
    // batch's own hash, checked before it is sent, is what guards this pass.
    const expected = {
      invalidRowNumbers: summary.invalidRowNumbers,
      validRows: summary.validRows,
      encoding: summary.encoding,
    };
    for await (const { batch, users } of batchesWithUsers(readValidUserRows(openSource(flags.file), expected))) {
      const recorded = store.batch(batch.number);
      if (recorded.sha256 !== batch.sha256) {
        throw new UsersCsvFileError(
          "CHANGED",
          `${setup.fileName} changed during the import: batch ${batch.number} (${rowRange(recorded)}) is no longer the one prepared; it was not sent`,
          {
            hint: `restore the file and run \`simadmin users import ${flags.file} --resume\`; ${store.path} records what was sent`,
          },
        );
      }
      const action = batchAction(recorded, flags.resendAmbiguous);
      if (action === "skip-uploaded" || action === "skip-rejected") {
        reportServiceRows(ctx, recorded, users, summary.columns, errors, false);
        continue;
      }
      if (action === "hold-ambiguous") {
        held.push(recorded);
        continue;
      }
      const what = `batch ${batch.number} of ${total} (${rowRange(recorded)})`;
      if (action === "resend-ambiguous") {
        ctx.printer.warn(
          `sending ${what} again (--resend-ambiguous): its earlier upload may have been received by the service, so its rows may be imported twice`,
        );
      }
      current = `uploading ${what}`;
      progress.update(`${current}…`);
      // Room to record the answer first, then "uploading": either failing (disk full) stops
      // the run before anything is sent (ManifestStore.reserve).
      await store.reserve();
      const sent = await store.update(batch.number, { state: "uploading", sends: recorded.sends + 1 }, { spare: true });
      let body: unknown;
      try {
        body = await uploadUsersCsv(api, {
          organizationId: setup.organizationId,
          csv: batch.csv,
          fileName: `${stem}.batch-${batch.number}-of-${total}.csv`,
        });
      } catch (error) {
        progress.done();
        await recordFailure(ctx, flags, store, sent, batch, users, error, { summary, errors });
        continue;
      }
      const answer = parseUploadAnswer(body, batch);
      if (answer.taskId === undefined) {
        if (answer.validUsersCount === 0) {
          await recordRejected(ctx, store, batch, users, answer, { summary, errors });
          continue;
        }
        await store.update(batch.number, { state: "ambiguous", error: "the service answered without a taskId" });
        throw new UnexpectedResponseError(
          `bulk import: the service accepted ${what} but its answer has no taskId; nothing more was sent`,
          {
            hint: `check whether the batch was imported; \`simadmin users import ${flags.file} --resume --resend-ambiguous\` re-sends it and continues`,
          },
        );
      }
      // The accepted taskId reaches stderr before anything else can fail (even under --quiet):
      // if the manifest cannot record it, this line is what remains (issue 22 item 1).
      progress.done();
      ctx.printer.io.stderr.write(
        `${ctx.printer.redactor.apply(escapeControlChars(`accepted: batch ${batch.number} of ${total}, task ${answer.taskId}`))}\n`,
      );
      const accepted = {
        state: "uploaded",
        taskId: answer.taskId,
        // Spec §3: a task is SCHEDULED when its taskId is issued.
        status: "SCHEDULED",
        statusAt: new Date(ctx.services.clock.now()).toISOString(),
        uploadedAt: new Date(ctx.services.clock.now()).toISOString(),
        ...counts(answer),
        error: undefined,
      } satisfies Partial<ManifestBatch>;
      let done: ManifestBatch;
      try {
        done = await store.update(batch.number, { ...accepted, rowErrors: rowErrorsOf(answer) });
      } catch (error) {
        if (!(error instanceof LocalFileError)) throw error;
        done = await recordAcceptedAnyway(store, flags, batch.number, total, answer.taskId, accepted, error);
      }
      if (done.rowErrors?.length) ctx.printer.info(`${what}: ${plural(done.rowErrors.length, "row")} rejected by the service`);
      reportServiceRows(ctx, done, users, summary.columns, errors, true);
    }
    if (held.length > 0) throw heldError(held, total, flags.rerun ?? `simadmin users import ${flags.file}`, store);
  } finally {
    stopListening();
    progress.done();
    await store.dropReservation();
  }
}

/**
 * The batches of the valid rows, each with its users: batchUserRows keeps only their row
 * numbers, and the rows the service rejects go to errors.csv with their values. A batch is
 * yielded right after its last row was read, so exactly its rows are waiting in `seen`.
 */
async function* batchesWithUsers(rows: AsyncIterable<UserRow>): AsyncGenerator<{ batch: UserBatch; users: UserRow[] }> {
  const seen: UserRow[] = [];
  async function* tee(): AsyncGenerator<UserRow> {
    for await (const user of rows) {
      seen.push(user);
      yield user;
    }
  }
  for await (const batch of batchUserRows(tee())) yield { batch, users: seen.splice(0, batch.rows.length) };
}
