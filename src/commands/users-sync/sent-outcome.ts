import { ImportFailedError, InvalidDataError, LocalFileError, ServiceError, WaitTimeoutError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import { rowRange } from "../../domain/users-csv/import-manifest.js";
import type { HeldBatch } from "../../domain/users-sync/records.js";
import type { ImportStop } from "../../engines/users-import/run.js";
import type { CommandOutcome } from "../types.js";
import { plural } from "../shared/row-report.js";
import { heldError } from "./held.js";
import type { UsersSyncOptions } from "./options.js";
import type { planResult } from "./plan-output.js";
import type { SendResult } from "./send.js";

// How a sync that got as far as sending ends, in the sync's words (the import engine returns
// data only): the plan is the output whatever happened; then the lines for people and the
// exit code. Every next step names this sync's own command (`next`), never a file of its.

export interface SendingEnd {
  result: ReturnType<typeof planResult>;
  /** This run's command, quoted for the shell (follow-up.ts). */
  next: string;
  /** Batches held at the end (earlier ones not settled, and this run's). */
  held: readonly HeldBatch[];
  sent: SendResult | undefined;
}

export function sendingOutcome(
  options: Pick<UsersSyncOptions, "wait" | "timeoutMs" | "skipInvalid">,
  end: SendingEnd,
): CommandOutcome {
  const { result, next, held, sent } = end;
  const again = `the next \`${next}\` sends again what the service did not accept (docs/users-sync.md)`;
  if (sent === undefined) {
    const note = "nothing to do: the roster and the last sync agree; nothing was sent";
    return { ...result, note, ...(held.length > 0 ? { failure: heldError(held, next) } : {}) };
  }
  const { settled, outcome, run } = sent;
  const lines = [`baseline: ${plural(settled.entered, "row")} accepted by the service entered it`];
  if (settled.rejectedExisting > 0)
    lines.push(
      `${plural(settled.rejectedExisting, "Add")} refused as existing were sent before in an upload that may have been received: it was; they are in the baseline`,
    );
  const open = settled.tasks.filter((t) => run.batches.some((b) => b.taskId === t.taskId));
  if (open.length > 0) {
    const rows = open.reduce((n, t) => n + t.rows.length, 0);
    lines.push(
      `${plural(rows, "row")} in ${plural(open.length, "import task")} not known to have ended (no --wait): the next sync asks the service and takes ${
        rows === 1 ? "it" : "them"
      } into the baseline when COMPLETED`,
    );
  }
  const left = settled.notSent + settled.failed + settled.rejected;
  if (left > 0) lines.push(`${plural(left, "row")} not accepted (yet): the next sync plans them again`);
  const done = { ...result, note: lines.join("\n") };
  if (outcome.stop) return { ...done, failure: stopError(outcome.stop, run.batches.length, next) };
  const failed = run.batches.filter((b) => b.status === "FAILED");
  if (options.wait && failed.length > 0)
    return {
      ...done,
      failure: new ImportFailedError(
        `import ${failed.length === 1 ? "task" : "tasks"} ${failed.map((b) => `${b.taskId} (batch ${b.number}, ${plural(b.rows, "user")})`).join(", ")} ended FAILED`,
        { hint: `${again}; the service does not say why, and nothing of a FAILED task was imported` },
      ),
    };
  if (sent.timedOut) {
    const running = run.batches.filter((b) => b.taskId !== undefined && b.status !== "COMPLETED" && b.status !== "FAILED");
    return {
      ...done,
      failure: new WaitTimeoutError(
        `${plural(running.length, "import task")} still running after ${formatDuration(options.timeoutMs)}: ${running.map((b) => b.taskId).join(", ")}`,
        { hint: `the next \`${next}\` asks the service how they ended and takes COMPLETED rows into the baseline` },
      ),
    };
  }
  if (held.length > 0) return { ...done, failure: heldError(held, next) };
  if (settled.rejected > 0 && !options.skipInvalid)
    return {
      ...done,
      failure: new InvalidDataError(`the service rejected ${plural(settled.rejected, "row")}; the other rows were accepted`, {
        hint: `fix them in the roster; ${again}; pass --skip-invalid to accept rejected rows without this exit code`,
      }),
    };
  return done;
}

/** What stopped the uploads, with the sync's ways out. */
function stopError(stop: ImportStop, total: number, next: string): Error {
  const what = `batch ${stop.batch.number} of ${total} (${plural(stop.batch.rows, "user")})`;
  switch (stop.kind) {
    case "changed":
      // The batches are built from the plan in memory: they cannot change (a bug).
      return new Error(`${what} changed during the sync`);
    case "refused":
      return new InvalidDataError(
        `${what} was refused by the service: ${stop.error.message}; no task was created and nothing more was sent`,
        {
          hint: `the next \`${next}\` plans those users again`,
          body: stop.error.body,
          cause: stop.error,
        },
      );
    case "not-sent":
      return stop.error.rephrase(
        `${stop.error.message}; ${what} was not received and nothing more was sent`,
        `${stop.error.hint ? `${stop.error.hint}; then ` : ""}the next \`${next}\` sends what was not sent, and nothing twice`,
      );
    case "ambiguous":
    case "no-task-id": {
      const why =
        stop.kind === "ambiguous"
          ? stop.error instanceof Error
            ? stop.error.message
            : String(stop.error)
          : "the service answered without a task id";
      return new ServiceError(`${what} may have been accepted by the service: ${why}; it is held and nothing more was sent`, {
        delivery: "maybe-received",
        hint: `check in the app whether its users exist (${rowRange(stop.batch)} of this plan); the next \`${next}\` sends the rest and names it; then \`${next} --mark-imported <n>\` records it as imported, or \`${next} --resend-ambiguous\` sends it again`,
        ...(stop.kind === "ambiguous" ? { cause: stop.error } : {}),
      });
    }
    case "unrecorded":
      return new LocalFileError(
        `${stop.error.message}; ${what} was ACCEPTED by the service as task ${stop.taskId} but the state store could not record it; nothing more was sent`,
        {
          path: stop.error.path,
          hint: `do not send it again: the next \`${next}\` holds it back; once \`simadmin import-status --task ${stop.taskId}\` shows it COMPLETED, \`${next} --mark-imported <n>\` records it`,
          cause: stop.error,
        },
      );
  }
}
