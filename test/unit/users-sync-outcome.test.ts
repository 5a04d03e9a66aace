import { describe, expect, it } from "vitest";
import { sendingOutcome, type SendingEnd } from "../../src/commands/users-sync/sent-outcome.js";
import type { SendResult } from "../../src/commands/users-sync/send.js";
import type { ManifestBatch } from "../../src/domain/users-csv/import-manifest.js";
import type { HeldBatch } from "../../src/domain/users-sync/records.js";
import type { ImportStop } from "../../src/engines/users-import/run.js";
import {
  CliError,
  ImportFailedError,
  InvalidDataError,
  LocalFileError,
  RateLimitError,
  ServiceError,
  WaitTimeoutError,
} from "../../src/errors.js";

// How `users sync` ends once it got as far as sending (docs/users-sync.md): the plan is the
// output whatever happened; the note, the error and its exit code come from the engine's
// outcome. Every message here is written out as a user reads it; each names this sync's own
// command (`NEXT`), never a file of the sync's.

const NEXT = "simadmin users sync hr.csv --yes";
const RESULT = { kind: "records", records: [{ change: "add", email: "a@x.org" }] } as unknown as SendingEnd["result"];
const OPTIONS = { wait: false, timeoutMs: 300_000, skipInvalid: false };

const batch = (number: number, extra: Partial<ManifestBatch> = {}): ManifestBatch => ({
  number,
  rows: 2,
  firstRow: 2 + (number - 1) * 2,
  lastRow: 3 + (number - 1) * 2,
  sha256: "0".repeat(64),
  state: "uploaded",
  sends: 1,
  ...extra,
});

interface Sent {
  entered?: number;
  rejectedExisting?: number;
  notSent?: number;
  failed?: number;
  rejected?: number;
  tasks?: { taskId: string; rows: unknown[] }[];
  batches?: ManifestBatch[];
  stop?: ImportStop;
  timedOut?: boolean;
}

function sent(s: Sent): SendResult {
  return {
    settled: {
      entered: s.entered ?? 0,
      rejectedExisting: s.rejectedExisting ?? 0,
      notSent: s.notSent ?? 0,
      failed: s.failed ?? 0,
      rejected: s.rejected ?? 0,
      tasks: s.tasks ?? [],
      held: [],
    },
    outcome: { stop: s.stop },
    run: { batches: s.batches ?? [] },
    timedOut: s.timedOut ?? false,
  } as unknown as SendResult;
}

const noteOf = (outcome: object): unknown => (outcome as { note?: unknown }).note;

const end = (s: SendResult | undefined, held: HeldBatch[] = []): SendingEnd => ({ result: RESULT, next: NEXT, held, sent: s });

const HELD = {
  number: 2,
  plannedAt: "2026-11-20T02:00:00.000Z",
  rows: [{ email: "a@x.org" }],
  batch: batch(2, { taskId: "task-9" }),
} as unknown as HeldBatch;

describe("sendingOutcome", () => {
  it("nothing to send: a note, exit 0; with a batch still held, that batch's exit 8", () => {
    const quiet = sendingOutcome(OPTIONS, end(undefined));
    expect(quiet).toEqual({ ...RESULT, note: "nothing to do: the roster and the last sync agree; nothing was sent" });
    const held = sendingOutcome(OPTIONS, end(undefined, [HELD]));
    expect(held.failure).toBeInstanceOf(ServiceError);
    expect(held.failure?.message).toMatch(/^held batch 2 \(1 user of the plan of 2026-11-20T02:00:00.000Z: a@x.org\)/);
    expect((held.failure as CliError).hint).toContain(`\`${NEXT} --mark-imported 2\``);
  });

  it("sums up what entered the baseline, what waits on open tasks and what is planned again", () => {
    const out = sendingOutcome(
      OPTIONS,
      end(
        sent({
          entered: 1500,
          rejectedExisting: 2,
          notSent: 1,
          failed: 2,
          rejected: 0,
          tasks: [
            { taskId: "t-1", rows: [{}, {}, {}] },
            { taskId: "t-old", rows: [{}] },
          ],
          batches: [batch(1, { taskId: "t-1" })],
        }),
      ),
    );
    expect(noteOf(out)).toBe(
      [
        "baseline: 1,500 rows accepted by the service entered it",
        "2 Adds refused as existing were sent before in an upload that may have been received: it was; they are in the baseline",
        "3 rows in 1 import task not known to have ended (no --wait): the next sync asks the service and takes them into the baseline when COMPLETED",
        "3 rows not accepted (yet): the next sync plans them again",
      ].join("\n"),
    );
    expect(out.failure).toBeUndefined();
  });

  it("only what happened is said: all accepted and ended is one line and exit 0", () => {
    const batches = [batch(1, { taskId: "t-1", status: "COMPLETED" }), batch(2, { taskId: "t-2", status: "COMPLETED" })];
    const out = sendingOutcome(
      { ...OPTIONS, wait: true },
      end(sent({ entered: 4, tasks: [{ taskId: "t-old", rows: [{}] }], batches })),
    );
    expect(out).toEqual({ ...RESULT, note: "baseline: 4 rows accepted by the service entered it" });
  });

  it("counts the rows of this run's open tasks only, and every row not accepted", () => {
    const out = sendingOutcome(
      { ...OPTIONS, skipInvalid: true },
      end(
        sent({
          entered: 2,
          notSent: 1,
          failed: 2,
          rejected: 3,
          tasks: [
            { taskId: "t-2", rows: [{}, {}] },
            { taskId: "t-old", rows: [{}] },
          ],
          batches: [batch(1, { taskId: "t-1", status: "COMPLETED" }), batch(2, { taskId: "t-2" })],
        }),
      ),
    );
    expect(noteOf(out)).toBe(
      [
        "baseline: 2 rows accepted by the service entered it",
        "2 rows in 1 import task not known to have ended (no --wait): the next sync asks the service and takes them into the baseline when COMPLETED",
        "6 rows not accepted (yet): the next sync plans them again",
      ].join("\n"),
    );
    expect(out.failure).toBeUndefined();
  });

  it("one row, one Add, one task: the singular words", () => {
    const out = sendingOutcome(
      OPTIONS,
      end(
        sent({
          entered: 1,
          rejectedExisting: 1,
          tasks: [{ taskId: "t-1", rows: [{}] }],
          batches: [batch(1, { taskId: "t-1" })],
          notSent: 1,
        }),
      ),
    );
    expect(noteOf(out)).toBe(
      [
        "baseline: 1 row accepted by the service entered it",
        "1 Add refused as existing were sent before in an upload that may have been received: it was; they are in the baseline",
        "1 row in 1 import task not known to have ended (no --wait): the next sync asks the service and takes it into the baseline when COMPLETED",
        "1 row not accepted (yet): the next sync plans them again",
      ].join("\n"),
    );
  });

  it("--wait and a FAILED task: exit 10 naming the task, its batch and its users", () => {
    const batches = [batch(1, { taskId: "t-1", status: "COMPLETED" }), batch(2, { taskId: "t-2", status: "FAILED" })];
    const out = sendingOutcome({ ...OPTIONS, wait: true }, end(sent({ entered: 2, failed: 2, batches })));
    expect(out.failure).toBeInstanceOf(ImportFailedError);
    expect(out.failure?.message).toBe("import task t-2 (batch 2, 2 users) ended FAILED");
    expect((out.failure as CliError).hint).toBe(
      `the next \`${NEXT}\` sends again what the service did not accept (docs/users-sync.md); the service does not say why, and nothing of a FAILED task was imported`,
    );
    const two = sendingOutcome(
      { ...OPTIONS, wait: true },
      end(
        sent({
          batches: [batch(1, { taskId: "t-1", status: "FAILED", rows: 1 }), batch(2, { taskId: "t-2", status: "FAILED" })],
        }),
      ),
    );
    expect(two.failure?.message).toBe("import tasks t-1 (batch 1, 1 user), t-2 (batch 2, 2 users) ended FAILED");
    // Without --wait a FAILED status is not this run's failure (the next sync plans its rows again).
    expect(sendingOutcome(OPTIONS, end(sent({ batches }))).failure).toBeUndefined();
  });

  it("--wait out of time: exit 9 naming the tasks still running", () => {
    const batches = [
      batch(1, { taskId: "t-1", status: "COMPLETED" }),
      batch(2, { taskId: "t-2", status: "STARTED" }),
      batch(3, { taskId: "t-3", status: "FAILED" }),
      batch(4),
      batch(5, { taskId: "t-5", status: "SCHEDULED" }),
    ];
    const out = sendingOutcome({ ...OPTIONS, timeoutMs: 120_000 }, end(sent({ batches, timedOut: true })));
    expect(out.failure).toBeInstanceOf(WaitTimeoutError);
    expect(out.failure?.message).toBe("2 import tasks still running after 2m: t-2, t-5");
    expect((out.failure as CliError).hint).toBe(
      `the next \`${NEXT}\` asks the service how they ended and takes COMPLETED rows into the baseline`,
    );
  });

  it("rows the service rejected: exit 6 with the way to fix them, unless --skip-invalid", () => {
    const out = sendingOutcome(OPTIONS, end(sent({ entered: 3, rejected: 2 })));
    expect(out.failure).toBeInstanceOf(InvalidDataError);
    expect(out.failure?.message).toBe("the service rejected 2 rows; the other rows were accepted");
    expect((out.failure as CliError).hint).toBe(
      `fix them in the roster; the next \`${NEXT}\` sends again what the service did not accept (docs/users-sync.md); pass --skip-invalid to accept rejected rows without this exit code`,
    );
    expect(sendingOutcome({ ...OPTIONS, skipInvalid: true }, end(sent({ entered: 3, rejected: 2 }))).failure).toBeUndefined();
  });

  it("a batch held at the end outranks rejected rows", () => {
    const out = sendingOutcome(OPTIONS, end(sent({ rejected: 2 }), [HELD]));
    expect(out.failure).toBeInstanceOf(ServiceError);
    expect(out.failure?.message).toContain("held batch 2");
  });
});

describe("what stopped the uploads", () => {
  const stopped = (stop: ImportStop) =>
    sendingOutcome(OPTIONS, end(sent({ stop, batches: [batch(1), batch(2), batch(3)] }))).failure as CliError;

  it("a batch refused by the service (400): exit 6, its answer kept, the next sync plans it again", () => {
    const error = new InvalidDataError("invalid data: bad header", { body: { errors: ["x"] } });
    const failure = stopped({ kind: "refused", batch: batch(2), error });
    expect(failure).toBeInstanceOf(InvalidDataError);
    expect(failure.message).toBe(
      "batch 2 of 3 (2 users) was refused by the service: invalid data: bad header; no task was created and nothing more was sent",
    );
    expect(failure.hint).toBe(`the next \`${NEXT}\` plans those users again`);
    expect((failure as InvalidDataError).body).toEqual({ errors: ["x"] });
    expect(failure.cause).toBe(error);
  });

  it("a batch certainly not received: its own error class and hint, then the sync's way on", () => {
    const error = new RateLimitError("rate limited: the service said wait 60 s", { hint: "wait a minute" });
    const failure = stopped({ kind: "not-sent", batch: batch(1), error });
    expect(failure).toBeInstanceOf(RateLimitError);
    expect(failure.exitCode).toBe(7);
    expect(failure.message).toBe(
      "rate limited: the service said wait 60 s; batch 1 of 3 (2 users) was not received and nothing more was sent",
    );
    expect(failure.hint).toBe(`wait a minute; then the next \`${NEXT}\` sends what was not sent, and nothing twice`);
    const bare = stopped({ kind: "not-sent", batch: batch(1), error: new RateLimitError("rate limited") });
    expect(bare.hint).toBe(`the next \`${NEXT}\` sends what was not sent, and nothing twice`);
  });

  it("a batch that may have been received: exit 8, held, with --mark-imported and --resend-ambiguous", () => {
    const cut = new Error("socket hang up");
    const failure = stopped({ kind: "ambiguous", batch: batch(2), error: cut });
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure.exitCode).toBe(8);
    expect(failure.message).toBe(
      "batch 2 of 3 (2 users) may have been accepted by the service: socket hang up; it is held and nothing more was sent",
    );
    expect(failure.hint).toBe(
      `check in the app whether its users exist (rows 4–5 of this plan); the next \`${NEXT}\` sends the rest and names it; then \`${NEXT} --mark-imported <n>\` records it as imported, or \`${NEXT} --resend-ambiguous\` sends it again`,
    );
    expect(failure.cause).toBe(cut);
    expect(failure.delivery).toBe("maybe-received");
    expect(stopped({ kind: "ambiguous", batch: batch(2), error: "killed" }).message).toContain(
      "may have been accepted by the service: killed; it is held",
    );
    const noTask = stopped({ kind: "no-task-id", batch: batch(1, { firstRow: 2, lastRow: 2, rows: 1 }) });
    expect(noTask.message).toBe(
      "batch 1 of 3 (1 user) may have been accepted by the service: the service answered without a task id; it is held and nothing more was sent",
    );
    expect(noTask.hint).toContain("(row 2 of this plan)");
    expect(noTask.cause).toBeUndefined();
  });

  it("a batch accepted but not recorded: exit 11, never to be sent again, with the task to check", () => {
    const error = new LocalFileError("the state store went away", { path: "postgres://db/hr" });
    const failure = stopped({ kind: "unrecorded", batch: batch(3), taskId: "t-3", error });
    expect(failure).toBeInstanceOf(LocalFileError);
    expect(failure.message).toBe(
      "the state store went away; batch 3 of 3 (2 users) was ACCEPTED by the service as task t-3 but the state store could not record it; nothing more was sent",
    );
    expect((failure as LocalFileError).path).toBe("postgres://db/hr");
    expect(failure.hint).toBe(
      `do not send it again: the next \`${NEXT}\` holds it back; once \`simadmin import-status --task t-3\` shows it COMPLETED, \`${NEXT} --mark-imported <n>\` records it`,
    );
    expect(failure.cause).toBe(error);
  });

  it("a batch changed under the sync is a bug, said as one", () => {
    const failure = stopped({ kind: "changed", batch: batch(2) });
    expect(failure).not.toBeInstanceOf(CliError);
    expect(failure.message).toBe("batch 2 of 3 (2 users) changed during the sync");
  });
});
