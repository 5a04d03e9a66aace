import { describe, expect, it } from "vitest";
import type { ApiClient, Endpoint } from "../../src/api/client.js";
import type { UserBatch } from "../../src/domain/users-csv/batches.js";
import type { ManifestBatch } from "../../src/domain/users-csv/import-manifest.js";
import type { UserRow } from "../../src/domain/users-csv/validate.js";
import type { BatchJournal } from "../../src/engines/users-import/journal.js";
import { prepareImport, sourceBatches } from "../../src/engines/users-import/prepare.js";
import { answerCounts } from "../../src/engines/users-import/answer.js";
import { runImport, type ImportOutcome, type SourceBatch } from "../../src/engines/users-import/run.js";
import { askUnfinishedTasks, unfinishedBatches } from "../../src/engines/users-import/statuses.js";
import { AuthError, InterruptedError, InvalidDataError, LocalFileError, ServiceError } from "../../src/errors.js";

// The import engine as a library (docs/import-safety.md; docs/architecture.md "Engines"): a
// journal in memory, a client that answers from a script, batches of two rows made by hand.
// What each batch is recorded as, which were sent, held or disputed, what stopped the run and
// which events came — each written out as expected.

const NOW = Date.UTC(2026, 10, 28, 3);
const AT = "2026-11-28T03:00:00.000Z";
const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

const user = (row: number): UserRow => ({
  row,
  firstName: `F${row}`,
  lastName: `L${row}`,
  username: `u${row}@example.com`,
  email: `u${row}@example.com`,
  role: "trainee",
  teamName: "",
  status: "ACTIVE",
  action: "Add",
});

/** Batch n holds original rows 10n and 10n + 1 (batch rows 2 and 3). */
const source = (n: number): SourceBatch => {
  const rows = [10 * n, 10 * n + 1];
  const batch: UserBatch = { number: n, csv: `${HEADER}\nbatch ${n}\n`, sha256: String(n).repeat(64), rows };
  return { batch, users: rows.map(user) };
};
const recorded = (n: number, extra: Partial<ManifestBatch> = {}): ManifestBatch => ({
  number: n,
  rows: 2,
  firstRow: 10 * n,
  lastRow: 10 * n + 1,
  sha256: String(n).repeat(64),
  state: "pending",
  sends: 0,
  ...extra,
});

class MemoryJournal implements BatchJournal {
  batches: ManifestBatch[];
  log: string[] = [];
  /** Updates that throw, by call number (1-based). */
  failing = new Map<number, Error>();
  private updates = 0;
  constructor(batches: ManifestBatch[]) {
    this.batches = batches;
  }
  batch(number: number): ManifestBatch {
    const found = this.batches.find((b) => b.number === number);
    if (!found) throw new RangeError(`no batch ${number}`);
    return found;
  }
  update(number: number, patch: Partial<ManifestBatch>, options: { spare?: boolean } = {}): Promise<ManifestBatch> {
    const failure = this.failing.get(++this.updates);
    this.log.push(`update ${number} ${String(patch.state ?? "-")}${options.spare ? " spare" : ""}${failure ? " failed" : ""}`);
    if (failure) return Promise.reject(failure);
    const next = { ...this.batch(number), ...patch };
    for (const key of Object.keys(next) as (keyof ManifestBatch)[]) if (next[key] === undefined) delete next[key];
    this.batches = this.batches.map((b) => (b.number === number ? next : b));
    return Promise.resolve(next);
  }
  reserve(): Promise<void> {
    this.log.push("reserve");
    return Promise.resolve();
  }
  dropReservation(): Promise<void> {
    this.log.push("drop");
    return Promise.resolve();
  }
}

type Answer = unknown;

/** A client whose uploads answer in turn: a value, or an error to throw. */
function client(answers: Answer[]): { api: ApiClient; uploads: string[] } {
  const uploads: string[] = [];
  const api = {
    postMultipart: async (endpoint: Endpoint, build: () => FormData) => {
      const form = build();
      const file = form.get("file") as File;
      uploads.push(`${endpoint.path} ${String(form.get("organizationId"))} ${file.name} ${(await file.text()).split("\n")[1]}`);
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as ApiClient;
  return { api, uploads };
}

async function run(
  journalBatches: ManifestBatch[],
  answers: Answer[],
  options: { batches?: SourceBatch[]; resendAmbiguous?: boolean; failing?: [number, Error][]; abort?: boolean } = {},
) {
  const journal = new MemoryJournal(journalBatches);
  for (const [n, e] of options.failing ?? []) journal.failing.set(n, e);
  const { api, uploads } = client(answers);
  const events: string[] = [];
  const controller = new AbortController();
  if (options.abort) controller.abort();
  const outcome = runImport({
    api,
    organizationId: "org-1",
    journal,
    source: options.batches ?? journalBatches.map((b) => source(b.number)),
    resendAmbiguous: options.resendAmbiguous ?? false,
    uploadName: (number, total) => `part-${number}-of-${total}.csv`,
    now: () => NOW,
    signal: controller.signal,
    events: {
      uploading: (b, total, resending) => events.push(`uploading ${b.number}/${total}${resending ? " again" : ""}`),
      uploaded: () => events.push("uploaded"),
      accepted: (b, total, taskId) => events.push(`accepted ${b.number}/${total} ${taskId} (${b.state})`),
      refusedWhole: (b) => events.push(`refused ${b.number} (${b.state})`),
      rows: (b, users, fresh) => events.push(`rows ${b.number} ${users.map((u) => u.row).join("+")}${fresh ? " fresh" : ""}`),
    },
  });
  return { outcome, journal, uploads, events };
}

const states = (o: ImportOutcome): string[] => o.batches.map((b) => `${b.number} ${b.state}${b.taskId ? ` ${b.taskId}` : ""}`);

describe("runImport", () => {
  it("uploads each pending batch in order and records its task, counts and row errors", async () => {
    const { outcome, journal, uploads, events } = await run(
      [recorded(1), recorded(2)],
      [
        { taskId: "t-1" },
        { taskId: "t-2", validUsersCount: 1, invalidUsersCount: 1, errors: [{ row: 3, errors: ["bad team"] }] },
      ],
    );
    const o = await outcome;
    expect(uploads).toEqual([
      "/access-api/user/bulk-import org-1 part-1-of-2.csv batch 1",
      "/access-api/user/bulk-import org-1 part-2-of-2.csv batch 2",
    ]);
    expect(o.sent).toEqual([1, 2]);
    expect(o.stop).toBeUndefined();
    expect(o.held).toEqual([]);
    expect(o.disputed).toEqual([]);
    expect(o.batches).toEqual([
      recorded(1, {
        state: "uploaded",
        sends: 1,
        taskId: "t-1",
        status: "SCHEDULED",
        statusAt: AT,
        uploadedAt: AT,
        rowErrors: [],
      }),
      recorded(2, {
        state: "uploaded",
        sends: 1,
        taskId: "t-2",
        status: "SCHEDULED",
        statusAt: AT,
        uploadedAt: AT,
        validUsersCount: 1,
        invalidUsersCount: 1,
        rowErrors: [{ row: 21, batchRow: 3, field: null, messages: ["bad team"] }],
      }),
    ]);
    expect(journal.log).toEqual([
      "reserve",
      "update 1 uploading spare",
      "update 1 uploaded",
      "reserve",
      "update 2 uploading spare",
      "update 2 uploaded",
      "drop",
    ]);
    expect(events).toEqual([
      "uploading 1/2",
      "uploaded",
      "accepted 1/2 t-1 (uploading)",
      "rows 1 10+11 fresh",
      "uploading 2/2",
      "uploaded",
      "accepted 2/2 t-2 (uploading)",
      "rows 2 20+21 fresh",
    ]);
  });

  it("an answer whose counts disagree with its rows is recorded disputed", async () => {
    const o = await (
      await run(
        [recorded(1), recorded(2), recorded(3)],
        [
          { taskId: "t-1", validUsersCount: 2, invalidUsersCount: 1, errors: [{ row: 2, errors: ["x"] }] },
          { taskId: "t-2", invalidUsersCount: 1 },
          { taskId: "t-3", validUsersCount: 1 },
        ],
      )
    ).outcome;
    expect(o.disputed.map((b) => [b.number, b.disputed])).toEqual([
      [1, "the answer counts 2 valid and 1 invalid users for a batch of 2"],
      [2, "the answer counts 1 invalid users but names 0 rejected rows"],
      [3, "the answer counts 1 valid users of 2 but names 0 rejected rows"],
    ]);
  });

  it("an answer whose counts add up is not disputed", async () => {
    const o = await (
      await run(
        [recorded(1), recorded(2)],
        [
          { taskId: "t-1", validUsersCount: 1, invalidUsersCount: 1, errors: [{ row: 2, errors: ["x"] }] },
          { taskId: "t-2", validUsersCount: 1, errors: [{ row: 3, errors: ["y"] }] },
        ],
      )
    ).outcome;
    expect(o.disputed).toEqual([]);
    expect(o.batches.map((b) => b.disputed)).toEqual([undefined, undefined]);
  });

  it("a batch refused whole (the 400 'no valid row', or an answer without a task and no valid row) is recorded rejected and the run goes on", async () => {
    const refusal = new InvalidDataError("400 no valid row", {
      body: {
        validUsersCount: 0,
        invalidUsersCount: 2,
        errors: [
          { row: 2, errors: ["exists"] },
          { row: 3, errors: ["exists"] },
        ],
      },
    });
    const { outcome, events, journal } = await run(
      [recorded(1), recorded(2), recorded(3)],
      [refusal, { validUsersCount: 0 }, { taskId: "t-3" }],
    );
    const o = await outcome;
    expect(o.stop).toBeUndefined();
    expect(o.sent).toEqual([1, 2, 3]);
    expect(states(o)).toEqual(["1 rejected", "2 rejected", "3 uploaded t-3"]);
    expect(o.batches[0]).toEqual(
      recorded(1, {
        state: "rejected",
        sends: 1,
        validUsersCount: 0,
        invalidUsersCount: 2,
        rowErrors: [
          { row: 10, batchRow: 2, field: null, messages: ["exists"] },
          { row: 11, batchRow: 3, field: null, messages: ["exists"] },
        ],
        error: "no valid row: the service created no task",
      }),
    );
    expect(o.batches[1]!.error).toBe("no valid row: the service created no task");
    expect(events.slice(0, 4)).toEqual(["uploading 1/3", "uploaded", "refused 1 (rejected)", "rows 1 10+11 fresh"]);
    expect(events.slice(4, 8)).toEqual(["uploading 2/3", "uploaded", "refused 2 (rejected)", "rows 2 20+21 fresh"]);
    expect(journal.log.at(-1)).toBe("drop");
  });

  it("any other 400 stops the run with the batch pending again", async () => {
    const error = new InvalidDataError("400 organizationId is missing", { body: { message: "organizationId is missing" } });
    const o = await (await run([recorded(1), recorded(2)], [error])).outcome;
    expect(o.stop).toEqual({ kind: "refused", batch: recorded(1, { sends: 1, error: "400 organizationId is missing" }), error });
    expect(o.sent).toEqual([1]);
    expect(states(o)).toEqual(["1 pending", "2 pending"]);
  });

  it("an error that says the upload was not received stops the run with the batch pending again", async () => {
    const error = new AuthError("401 the API key was refused");
    const o = await (await run([recorded(1)], [error])).outcome;
    expect(o.stop).toEqual({ kind: "not-sent", batch: recorded(1, { sends: 1, error: "401 the API key was refused" }), error });
  });

  it("an upload that may have been received (a 5xx, a plain failure) is recorded ambiguous and stops the run", async () => {
    const error = new ServiceError("502 bad gateway", { status: 502 });
    const o = await (await run([recorded(1), recorded(2)], [error])).outcome;
    expect(o.stop).toEqual({
      kind: "ambiguous",
      batch: recorded(1, { state: "ambiguous", sends: 1, error: "502 bad gateway" }),
      error,
    });
    const plain = await (await run([recorded(1)], [new TypeError("socket hang up")])).outcome;
    expect(plain.stop?.kind).toBe("ambiguous");
    expect(plain.stop?.batch.error).toBe("socket hang up");
  });

  it("Ctrl-C during an upload: recorded ambiguous, then thrown", async () => {
    const interrupted = new InterruptedError();
    const { outcome, journal } = await run([recorded(1), recorded(2)], [interrupted]);
    await expect(outcome).rejects.toBe(interrupted);
    expect(journal.batches.map((b) => b.state)).toEqual(["ambiguous", "pending"]);
    expect(journal.log.at(-1)).toBe("drop");
    // An abort signal with another error is thrown the same way.
    const error = new ServiceError("reset", { status: 0 });
    await expect((await run([recorded(1)], [error], { abort: true })).outcome).rejects.toBe(error);
  });

  it("an answer with valid rows but no task id is recorded ambiguous and stops the run", async () => {
    const o = await (await run([recorded(1), recorded(2)], [{ validUsersCount: 2 }])).outcome;
    expect(o.stop).toEqual({
      kind: "no-task-id",
      batch: recorded(1, {
        state: "ambiguous",
        sends: 1,
        validUsersCount: undefined,
        error: "the service answered without a taskId",
      }),
    });
    expect(o.stop?.batch).not.toHaveProperty("validUsersCount");
  });

  it("a batch whose rows changed since they were recorded is not sent", async () => {
    const changed = source(1);
    changed.batch.sha256 = "f".repeat(64);
    const { outcome, uploads, events } = await run([recorded(1)], [], { batches: [changed] });
    const o = await outcome;
    expect(o.stop).toEqual({ kind: "changed", batch: recorded(1) });
    expect(uploads).toEqual([]);
    expect(events).toEqual([]);
  });

  it("batches uploaded or refused before are not sent again; their rows are told as not fresh; a disputed one is listed", async () => {
    const disputed = recorded(1, { state: "uploaded", taskId: "t-1", disputed: "the answer counts 3 valid" });
    const { outcome, uploads, events } = await run(
      [disputed, recorded(2, { state: "rejected" }), recorded(3, { state: "uploaded", taskId: "t-3" })],
      [],
    );
    const o = await outcome;
    expect(uploads).toEqual([]);
    expect(o.sent).toEqual([]);
    expect(o.disputed).toEqual([disputed]);
    expect(events).toEqual(["rows 1 10+11", "rows 2 20+21", "rows 3 30+31"]);
  });

  it("a batch that may have arrived is held, unless the user checked: then it goes again", async () => {
    const held = await run(
      [recorded(1, { state: "ambiguous", sends: 1 }), recorded(2, { state: "uploading", sends: 1 }), recorded(3)],
      [{ taskId: "t-3" }],
    );
    const h = await held.outcome;
    expect(h.held.map((b) => b.number)).toEqual([1, 2]);
    expect(h.sent).toEqual([3]);
    expect(held.events[0]).toBe("uploading 3/3");
    const again = await run([recorded(1, { state: "ambiguous", sends: 1 })], [{ taskId: "t-1b" }], { resendAmbiguous: true });
    const a = await again.outcome;
    expect(a.held).toEqual([]);
    expect(a.batches[0]).toMatchObject({ state: "uploaded", sends: 2, taskId: "t-1b" });
    expect(again.events[0]).toBe("uploading 1/1 again");
  });

  it("an accepted batch whose full record cannot be written is recorded short (task, no row errors)", async () => {
    const full = new LocalFileError("no space left on the journal", { path: "/j", code: "ENOSPC" });
    // Update 1 is "uploading", update 2 the full record.
    const { outcome, events } = await run(
      [recorded(1)],
      [{ taskId: "t-1", validUsersCount: 1, invalidUsersCount: 1, errors: [{ row: 2, errors: ["x"] }] }],
      {
        failing: [[2, full]],
      },
    );
    const o = await outcome;
    expect(o.stop).toBeUndefined();
    expect(o.batches[0]).toEqual(
      recorded(1, {
        state: "uploaded",
        sends: 1,
        taskId: "t-1",
        status: "SCHEDULED",
        statusAt: AT,
        uploadedAt: AT,
        validUsersCount: 1,
        invalidUsersCount: 1,
        error: "the service's row errors could not be recorded (disk full?)",
      }),
    );
    expect(events).toContain("accepted 1/1 t-1 (uploading)");
  });

  it("an accepted batch that cannot be recorded at all stops the run naming its task and the last file failure", async () => {
    const full = new LocalFileError("no space left (full record)", { path: "/j" });
    const again = new LocalFileError("no space left (short record)", { path: "/j" });
    const o = await (
      await run([recorded(1), recorded(2)], [{ taskId: "t-1" }], {
        failing: [
          [2, full],
          [3, again],
        ],
      })
    ).outcome;
    expect(o.stop).toEqual({
      kind: "unrecorded",
      batch: recorded(1, { state: "uploading", sends: 1 }),
      taskId: "t-1",
      error: again,
    });
    // A short record failing otherwise: the file failure named is the first.
    const other = await (
      await run([recorded(1)], [{ taskId: "t-1" }], {
        failing: [
          [2, full],
          [3, new Error("odd")],
        ],
      })
    ).outcome;
    expect(other.stop).toMatchObject({ kind: "unrecorded", taskId: "t-1", error: full });
  });

  it("a journal failure that is not a file's is thrown", async () => {
    const bug = new RangeError("a bug");
    await expect((await run([recorded(1)], [{ taskId: "t-1" }], { failing: [[2, bug]] })).outcome).rejects.toBe(bug);
  });
});

describe("what an answer says", () => {
  it("only the counts the answer gives are recorded", () => {
    const answer = { taskId: "t", validUsersCount: undefined, invalidUsersCount: undefined, rowErrors: [] };
    expect(answerCounts(answer)).toStrictEqual({});
    expect(answerCounts({ ...answer, validUsersCount: 0 })).toStrictEqual({ validUsersCount: 0 });
    expect(answerCounts({ ...answer, invalidUsersCount: 3 })).toStrictEqual({ invalidUsersCount: 3 });
  });

  it("rows named by the service outside the batch still count as named rows", async () => {
    // Two errors on rows 50 and 51 of a batch of 2: the service's own numbering, unmapped.
    const o = await (
      await run(
        [recorded(1)],
        [
          {
            taskId: "t-1",
            invalidUsersCount: 2,
            errors: [
              { row: 50, errors: ["x"] },
              { row: 51, errors: ["y"] },
            ],
          },
        ],
      )
    ).outcome;
    expect(o.disputed).toEqual([]);
    expect(o.batches[0]!.rowErrors).toEqual([
      { row: null, batchRow: 50, field: null, messages: ["x"] },
      { row: null, batchRow: 51, field: null, messages: ["y"] },
    ]);
  });
});

describe("runImport without listeners", () => {
  it("runs every path (skipped, refused whole twice, accepted) with no events given", async () => {
    const journal = new MemoryJournal([recorded(1, { state: "uploaded", taskId: "t-1" }), recorded(2), recorded(3), recorded(4)]);
    const refusal = new InvalidDataError("400 no valid row", {
      body: { validUsersCount: 0, errors: [{ row: 2, errors: ["e"] }] },
    });
    const { api } = client([refusal, { validUsersCount: 0 }, { taskId: "t-4" }]);
    const o = await runImport({
      api,
      organizationId: "org-1",
      journal,
      source: [1, 2, 3, 4].map(source),
      resendAmbiguous: false,
      uploadName: (number, total) => `part-${number}-of-${total}.csv`,
      now: () => NOW,
      signal: new AbortController().signal,
    });
    expect(states(o)).toEqual(["1 uploaded t-1", "2 rejected", "3 rejected", "4 uploaded t-4"]);
    expect(o.sent).toEqual([2, 3, 4]);
  });
});

describe("prepareImport and sourceBatches", () => {
  it("record every batch pending with its hash, and hand each batch its own users", async () => {
    const users = Array.from({ length: 752 }, (_, i) => user(i + 2));
    const planned = await prepareImport(users);
    expect(planned.map((b) => [b.number, b.rows, b.firstRow, b.lastRow, b.state, b.sends])).toEqual([
      [1, 750, 2, 751, "pending", 0],
      [2, 2, 752, 753, "pending", 0],
    ]);
    const batches: SourceBatch[] = [];
    for await (const b of sourceBatches(users)) batches.push(b);
    expect(batches.map((b) => [b.batch.number, b.users.length, b.users[0]!.row, b.users.at(-1)!.row])).toEqual([
      [1, 750, 2, 751],
      [2, 2, 752, 753],
    ]);
    expect(batches.map((b) => b.batch.sha256)).toEqual(planned.map((b) => b.sha256));
  });
});

describe("askUnfinishedTasks", () => {
  it("asks once per uploaded batch whose task's end is not known, records each answer, counts the ends", async () => {
    const batches = [
      recorded(1, { state: "uploaded", taskId: "t-1", status: "SCHEDULED" }),
      recorded(2, { state: "uploaded", taskId: "t-2", status: "COMPLETED" }),
      recorded(3, { state: "uploaded", taskId: "t-3", status: "FAILED" }),
      recorded(4, { state: "uploaded", taskId: "t-4" }),
      recorded(5, { state: "uploaded", taskId: "t-5", status: "STARTED" }),
      recorded(6, { state: "ambiguous", taskId: "t-6" }),
      recorded(7, { state: "uploaded" }),
    ];
    expect(unfinishedBatches(batches).map((b) => b.number)).toEqual([1, 4, 5]);
    const asked: string[] = [];
    const answers: Record<string, string> = { "t-1": "COMPLETED", "t-4": "FAILED", "t-5": "COMPLETED" };
    const api = {
      postJson: (endpoint: Endpoint, body: { organizationId: string; taskId: string }) => {
        asked.push(`${endpoint.path} ${body.organizationId} ${body.taskId}`);
        return Promise.resolve({ status: answers[body.taskId] });
      },
    } as unknown as ApiClient;
    const recordedPatches: string[] = [];
    const counts = await askUnfinishedTasks(
      api,
      "org-1",
      batches,
      (n, patch) => {
        recordedPatches.push(`${n} ${patch.status} ${patch.statusAt}`);
        return Promise.resolve();
      },
      () => NOW,
    );
    expect(asked).toEqual([
      "/access-api/user/bulk-import/status org-1 t-1",
      "/access-api/user/bulk-import/status org-1 t-4",
      "/access-api/user/bulk-import/status org-1 t-5",
    ]);
    expect(recordedPatches).toEqual([`1 COMPLETED ${AT}`, `4 FAILED ${AT}`, `5 COMPLETED ${AT}`]);
    expect(counts).toEqual(
      new Map([
        ["COMPLETED", 2],
        ["FAILED", 1],
      ]),
    );
  });
});
