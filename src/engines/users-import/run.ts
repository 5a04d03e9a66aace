import type { ApiClient } from "../../api/client.js";
import { uploadUsersCsv } from "../../api/endpoints.js";
import { CliError, InterruptedError, InvalidDataError, LocalFileError } from "../../errors.js";
import { batchAction, type ManifestBatch } from "../../domain/users-csv/import-manifest.js";
import { isNoValidRowAnswer, parseUploadAnswer, type UploadAnswer } from "../../domain/users-csv/import-response.js";
import type { UserBatch } from "../../domain/users-csv/batches.js";
import type { UserRow } from "../../domain/users-csv/validate.js";
import { answerCounts, answerDisagreement, rowErrorsOf } from "./answer.js";
import type { BatchJournal } from "./journal.js";

// The import engine (docs/import-safety.md): batches uploaded in order, each recorded in a
// journal before and after it is sent, for `users import` and `users sync` alike. It returns
// what happened as data — the batches, which were sent, held back or disputed, and what
// stopped the run — and says nothing to anyone: each command renders its own lines, errors
// and next steps from the outcome (its events and ImportOutcome).
//
// Whether the service may hold a task for a batch decides everything: a batch that cannot
// have arrived (429, refused connection, 401/403/404, a 400) is pending again and a later run
// sends it; one that may have (timeout, reset, 5xx, killed mid-upload) is "ambiguous" and is
// sent again only when the caller says so (resendAmbiguous: the user checked).

/** A batch of the source with its rows, built from the same rows as the journal's. */
export interface SourceBatch {
  batch: UserBatch;
  users: UserRow[];
}

/** What stopped the uploads before the last batch (the journal records each batch's state). */
export type ImportStop =
  /** The source's batch is not the one the journal recorded: not sent. */
  | { kind: "changed"; batch: ManifestBatch }
  /** A 400 that is not "no valid row": the request was wrong; pending again. */
  | { kind: "refused"; batch: ManifestBatch; error: InvalidDataError }
  /** Certainly not received (the error class says so): pending again. */
  | { kind: "not-sent"; batch: ManifestBatch; error: CliError }
  /** May have been received: recorded ambiguous. */
  | { kind: "ambiguous"; batch: ManifestBatch; error: unknown }
  /** Accepted (valid rows counted) but the answer has no task id: recorded ambiguous. */
  | { kind: "no-task-id"; batch: ManifestBatch }
  /** Accepted as `taskId`, but the journal could not record it (disk full). */
  | { kind: "unrecorded"; batch: ManifestBatch; taskId: string; error: LocalFileError };

export interface ImportOutcome {
  /** The journal's batches at the end. */
  batches: readonly ManifestBatch[];
  /** Batches uploaded by this run (accepted, refused whole, or not). */
  sent: number[];
  /** Batches an earlier run may have delivered, not sent again (no resendAmbiguous). */
  held: ManifestBatch[];
  /** Batches accepted with a task whose answer's counts disagree with its row errors. */
  disputed: ManifestBatch[];
  stop: ImportStop | undefined;
}

/** What the engine tells while it works, as data: the command decides the words. */
export interface ImportEvents {
  /** A batch is about to be uploaded (again, when `resending`). */
  uploading?(batch: ManifestBatch, total: number, resending: boolean): void;
  /** The upload ended (answered or failed): a progress line can go. */
  uploaded?(): void;
  /**
   * The service accepted the batch as `taskId`. Called before the journal records it, so
   * that the task id can reach the user even if recording fails.
   */
  accepted?(batch: ManifestBatch, total: number, taskId: string): void;
  /** The service refused the whole batch (no valid row): recorded rejected, the run goes on. */
  refusedWhole?(batch: ManifestBatch): void;
  /** A batch's rows as the service judged them (`fresh`: answered in this run). */
  rows?(batch: ManifestBatch, users: readonly UserRow[], fresh: boolean): void;
}

export interface RunImportInput {
  api: ApiClient;
  organizationId: string;
  journal: BatchJournal;
  /** The batches in order, as prepareImport built them (each checked against the journal). */
  source: AsyncIterable<SourceBatch> | Iterable<SourceBatch>;
  /** Send again batches an earlier run may have delivered (the user checked they were not). */
  resendAmbiguous: boolean;
  /** The file name the service sees for batch `number` of `total`. */
  uploadName(number: number, total: number): string;
  now(): number;
  signal: AbortSignal;
  events?: ImportEvents;
}

/** Uploads the batches the journal allows; Ctrl-C (an InterruptedError) is thrown, after the journal has recorded it. */
export async function runImport(input: RunImportInput): Promise<ImportOutcome> {
  const { journal, events = {} } = input;
  const total = journal.batches.length;
  const sent: number[] = [];
  const held: ManifestBatch[] = [];
  const disputed: ManifestBatch[] = [];
  const end = (stop?: ImportStop): ImportOutcome => ({ batches: journal.batches, sent, held, disputed, stop });
  const iso = (): string => new Date(input.now()).toISOString();
  try {
    for await (const { batch, users } of input.source) {
      const recorded = journal.batch(batch.number);
      if (recorded.sha256 !== batch.sha256) return end({ kind: "changed", batch: recorded });
      const action = batchAction(recorded, input.resendAmbiguous);
      if (action === "skip-uploaded" || action === "skip-rejected") {
        if (recorded.disputed !== undefined) disputed.push(recorded);
        events.rows?.(recorded, users, false);
        continue;
      }
      if (action === "hold-ambiguous") {
        held.push(recorded);
        continue;
      }
      events.uploading?.(recorded, total, action === "resend-ambiguous");
      // Room to record the answer first, then "uploading": either failing (disk full) stops
      // the run before anything is sent.
      await journal.reserve();
      const sending = await journal.update(batch.number, { state: "uploading", sends: recorded.sends + 1 }, { spare: true });
      sent.push(batch.number);
      let body: unknown;
      try {
        body = await uploadUsersCsv(input.api, {
          organizationId: input.organizationId,
          csv: batch.csv,
          fileName: input.uploadName(batch.number, total),
        });
      } catch (error) {
        events.uploaded?.();
        const stop = await recordFailure(journal, sending, batch, error);
        if (stop === undefined) {
          const answer = parseUploadAnswer((error as InvalidDataError).body, batch);
          // Recorded whether or not anyone listens (`events.rows?.(await …)` would skip the record).
          const rejected = await recordRefusedWhole(journal, batch, answer, events);
          events.rows?.(rejected, users, true);
          continue;
        }
        if (error instanceof InterruptedError || input.signal.aborted) throw error;
        return end(stop);
      }
      events.uploaded?.();
      const answer = parseUploadAnswer(body, batch);
      if (answer.taskId === undefined) {
        if (answer.validUsersCount === 0) {
          const rejected = await recordRefusedWhole(journal, batch, answer, events);
          events.rows?.(rejected, users, true);
          continue;
        }
        const ambiguous = await journal.update(batch.number, {
          state: "ambiguous",
          error: "the service answered without a taskId",
        });
        return end({ kind: "no-task-id", batch: ambiguous });
      }
      events.accepted?.(sending, total, answer.taskId);
      const disagreement = answerDisagreement(answer, batch.rows.length);
      const accepted = {
        state: "uploaded",
        taskId: answer.taskId,
        // Spec §3: a task is SCHEDULED when its taskId is issued.
        status: "SCHEDULED",
        statusAt: iso(),
        uploadedAt: iso(),
        ...answerCounts(answer),
        error: undefined,
        ...(disagreement === undefined ? {} : { disputed: disagreement }),
      } satisfies Partial<ManifestBatch>;
      let done: ManifestBatch;
      try {
        done = await journal.update(batch.number, { ...accepted, rowErrors: rowErrorsOf(answer) });
      } catch (error) {
        if (!(error instanceof LocalFileError)) throw error;
        const short = await recordShort(journal, batch.number, accepted, error);
        if ("stop" in short)
          return end({ kind: "unrecorded", batch: journal.batch(batch.number), taskId: answer.taskId, error: short.stop });
        done = short.batch;
      }
      if (done.disputed !== undefined) disputed.push(done);
      events.rows?.(done, users, true);
    }
    return end();
  } finally {
    await journal.dropReservation();
  }
}

/**
 * An upload that got no answer with a task: undefined when it is the "no valid row" 400
 * (recorded by the caller as refused whole), else the stop, recorded first.
 */
async function recordFailure(
  journal: BatchJournal,
  sending: ManifestBatch,
  batch: UserBatch,
  error: unknown,
): Promise<ImportStop | undefined> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof InvalidDataError) {
    if (isNoValidRowAnswer(parseUploadAnswer(error.body, batch))) return undefined;
    return { kind: "refused", batch: await journal.update(batch.number, { state: "pending", error: message }), error };
  }
  // Each error class says whether the service can have received the upload (errors.ts).
  if (error instanceof CliError && error.delivery === "not-sent")
    return { kind: "not-sent", batch: await journal.update(batch.number, { state: "pending", error: message }), error };
  // Timeout, reset, 5xx, dropped after sending, a strange answer, Ctrl-C mid-upload: the
  // service may hold a task for this batch that we will never hear of.
  return { kind: "ambiguous", batch: await journal.update(sending.number, { state: "ambiguous", error: message }), error };
}

async function recordRefusedWhole(
  journal: BatchJournal,
  batch: UserBatch,
  answer: UploadAnswer,
  events: ImportEvents,
): Promise<ManifestBatch> {
  const rejected = await journal.update(batch.number, {
    state: "rejected",
    ...answerCounts(answer),
    rowErrors: rowErrorsOf(answer),
    error: "no valid row: the service created no task",
  });
  events.refusedWhole?.(rejected);
  return rejected;
}

/**
 * The answer's full record did not fit (many row errors beyond the reservation, or a
 * copy-on-write disk): the short record — task id and state, no row errors — is tried once
 * more. If that fails too, the batch stays "uploading" (held back by a later run, never sent
 * twice) and the failure to name is the last one.
 */
async function recordShort(
  journal: BatchJournal,
  number: number,
  accepted: Partial<ManifestBatch>,
  failure: LocalFileError,
): Promise<{ batch: ManifestBatch } | { stop: LocalFileError }> {
  try {
    return {
      batch: await journal.update(number, { ...accepted, error: "the service's row errors could not be recorded (disk full?)" }),
    };
  } catch (again) {
    // The short record's failure is the one to name when it is a file's: it was written last.
    return { stop: again instanceof LocalFileError ? again : failure };
  }
}
