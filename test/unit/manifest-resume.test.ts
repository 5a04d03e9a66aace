import { describe, expect, it } from "vitest";
import {
  checkSameBatches,
  countResends,
  markImported,
  parseAcceptedTasks,
  parseBatchNumbers,
  prepareResend,
} from "../../src/domain/users-csv/manifest-resume.js";
import { hash, LATER, manifest, withBatch } from "../helpers/import-manifest.js";

// What a --resume / --retry-failed run does with the recorded batches: which are sent again,
// what their earlier send leaves in `history`, and --mark-imported / --accepted-task.

const UPLOADED_AT = "2026-11-20T10:00:00.000Z";

/** 1 uploaded FAILED, 2 ambiguous, 3 uploaded SCHEDULED, 4 pending, 5 rejected (hand-edited FAILED). */
function mixed() {
  let m = manifest(["uploaded", "ambiguous", "uploaded", "pending", "rejected"]);
  m = withBatch(m, 1, { status: "FAILED", uploadedAt: UPLOADED_AT, sends: 1, validUsersCount: 750, error: "task FAILED" });
  m = withBatch(m, 2, { error: "timeout", sends: 1 });
  return withBatch(m, 5, { status: "FAILED" });
}

describe("prepareResend", () => {
  it("--retry-failed: an uploaded FAILED batch becomes pending, its send kept in history", () => {
    const m = mixed();
    const next = prepareResend(m, true, LATER);
    expect(next.batches[0]).toEqual({
      number: 1,
      rows: 2,
      firstRow: 2,
      lastRow: 751,
      sha256: hash(1),
      state: "pending",
      sends: 1,
      history: [
        {
          state: "uploaded",
          taskId: "task-1",
          status: "FAILED",
          uploadedAt: UPLOADED_AT,
          error: "task FAILED",
          replacedAt: LATER,
        },
      ],
    });
    // The ambiguous batch is left alone without --resend-ambiguous; others are untouched.
    expect(next.batches.slice(1)).toEqual(m.batches.slice(1));
    expect(next.updatedAt).toBe(LATER);
  });

  it("an earlier history is kept, the new entry last; an entry records only what the batch had", () => {
    const m = withBatch(manifest(["uploaded"]), 1, {
      status: "FAILED",
      history: [{ state: "ambiguous", replacedAt: "2026-11-19T00:00:00.000Z" }],
    });
    // toStrictEqual: a field the batch lacks is absent from the entry, not present as undefined.
    expect(prepareResend(m, true, LATER).batches[0]?.history).toStrictEqual([
      { state: "ambiguous", replacedAt: "2026-11-19T00:00:00.000Z" },
      { state: "uploaded", taskId: "task-1", status: "FAILED", replacedAt: LATER },
    ]);
  });

  it("without --retry-failed nothing changes but the time", () => {
    const m = mixed();
    const next = prepareResend(m, false, LATER);
    expect(next).toEqual({ ...m, updatedAt: LATER });
  });

  it("--resend-ambiguous: the held batch stays ambiguous, its send goes to history", () => {
    const m = mixed();
    const next = prepareResend(m, false, LATER, true);
    expect(next.batches[1]).toEqual({
      ...m.batches[1],
      history: [{ state: "ambiguous", error: "timeout", replacedAt: LATER }],
    });
    // Without a task, a status or an upload time, the entry has no such keys at all.
    expect(next.batches[1]?.history).toStrictEqual([{ state: "ambiguous", error: "timeout", replacedAt: LATER }]);
    expect(next.batches[0]).toEqual(m.batches[0]);
  });
});

describe("countResends", () => {
  it("counts FAILED uploaded batches only under --retry-failed, held ones always", () => {
    const m = withBatch(mixed(), 4, { state: "uploading" });
    expect(countResends(m, true)).toEqual({ failed: 1, ambiguous: 2 });
    expect(countResends(m, false)).toEqual({ failed: 0, ambiguous: 2 });
  });

  it("a second FAILED upload counts too; a COMPLETED one or a rejected batch marked FAILED does not", () => {
    // 1 and 3 uploaded FAILED, 5 rejected with a FAILED status (hand-edited).
    expect(countResends(withBatch(mixed(), 3, { status: "FAILED" }), true)).toEqual({ failed: 2, ambiguous: 1 });
    expect(countResends(withBatch(mixed(), 1, { status: "COMPLETED" }), true)).toEqual({ failed: 0, ambiguous: 1 });
  });
});

describe("checkSameBatches", () => {
  const m = manifest(["uploaded", "pending"]);
  it.each([
    ["the same batches", [1, 2].map((n) => ({ number: n, sha256: hash(n) })), undefined],
    ["fewer batches", [{ number: 1, sha256: hash(1) }], "the file now makes 1 batches, the manifest records 2"],
    [
      "another hash",
      [
        { number: 1, sha256: hash(1) },
        { number: 2, sha256: hash(3) },
      ],
      "batch 2 differs from the one recorded",
    ],
    [
      "another number",
      [
        { number: 1, sha256: hash(1) },
        { number: 3, sha256: hash(2) },
      ],
      "batch 3 differs from the one recorded",
    ],
  ])("%s", (_name, computed, problem) => {
    expect(checkSameBatches(m, computed)).toBe(problem);
  });
});

describe("markImported", () => {
  // 1 uploaded (task-1), 2 ambiguous, 3 uploading, 4 pending, 5 rejected, 6 settled earlier.
  const m = withBatch(
    withBatch(manifest(["uploaded", "ambiguous", "uploading", "pending", "rejected", "uploaded"]), 2, {
      error: "timeout",
      uploadedAt: UPLOADED_AT,
    }),
    6,
    { taskId: undefined },
  );

  it.each([
    [[9], new Map<number, string>(), "there is no batch 9 (the manifest records 6)"],
    [[], new Map([[9, "task-9"]]), "there is no batch 9 (the manifest records 6)"],
    [[2], new Map([[2, "task-2"]]), "a batch is given both to --mark-imported and to --accepted-task"],
    [
      [4],
      new Map<number, string>(),
      "batch 4 is not held back as possibly received: it was never received by the service (a plain --resume sends it)",
    ],
    [[5], new Map<number, string>(), "batch 5 is not held back as possibly received: the service rejected it"],
    [[1], new Map<number, string>(), "batch 1 is not held back as possibly received: it is recorded as uploaded (task task-1)"],
    [[6], new Map<number, string>(), "batch 6 is not held back as possibly received: it is recorded as uploaded"],
    [
      [2, 4],
      new Map<number, string>(),
      "batch 4 is not held back as possibly received: it was never received by the service (a plain --resume sends it)",
    ],
  ])("%j with tasks %j: %s", (numbers, tasks, problem) => {
    expect(markImported(m, numbers, LATER, tasks)).toEqual({ ok: false, problem });
  });

  it("--mark-imported: uploaded without a task, the error dropped, the send kept in history", () => {
    const result = markImported(m, [2], LATER);
    if (!result.ok) throw new Error(result.problem);
    const { error: _e, ...rest } = m.batches[1]!;
    expect(result.manifest.batches[1]).toEqual({
      ...rest,
      state: "uploaded",
      history: [{ state: "ambiguous", uploadedAt: UPLOADED_AT, error: "timeout", replacedAt: LATER }],
      settled: {
        by: "--mark-imported",
        at: LATER,
        note: "the user checked that the service imported this batch; no task id is known",
      },
    });
    expect(result.manifest.batches.filter((_, i) => i !== 1)).toEqual(m.batches.filter((_, i) => i !== 1));
    expect(result.manifest.updatedAt).toBe(LATER);
  });

  it("--accepted-task: uploaded with the task the user gives", () => {
    const result = markImported(m, [], LATER, new Map([[3, "task-9"]]));
    if (!result.ok) throw new Error(result.problem);
    expect(result.manifest.batches[2]).toEqual({
      ...m.batches[2],
      state: "uploaded",
      taskId: "task-9",
      history: [{ state: "uploading", replacedAt: LATER }],
      settled: { by: "--accepted-task", at: LATER, note: "the task the service gave this batch, recorded by the user" },
    });
    // Nothing uploaded or failed before: the entry holds the state and the time only.
    expect(result.manifest.batches[2]?.history).toStrictEqual([{ state: "uploading", replacedAt: LATER }]);
    expect(result.manifest.batches[1]).toEqual(m.batches[1]);
  });
});

describe("parseBatchNumbers", () => {
  it.each([
    ["2,3", [2, 3]],
    [" 10 , 9,10", [9, 10]],
    ["1234567", [1234567]],
  ])("%j → %j", (text, numbers) => {
    expect(parseBatchNumbers(text)).toEqual(numbers);
  });
  it.each(["", "0", "2,", "2,x", "12345678", "02", "2 3", "-1"])("%j is not a list of batch numbers", (text) => {
    expect(parseBatchNumbers(text)).toBeUndefined();
  });
});

describe("parseAcceptedTasks", () => {
  it("reads batch=task pairs, spaces around each pair allowed", () => {
    expect(parseAcceptedTasks(" 2=task-1 ,3=t=2")).toEqual(
      new Map([
        [2, "task-1"],
        [3, "t=2"],
      ]),
    );
    expect(parseAcceptedTasks("1234567=x")).toEqual(new Map([[1234567, "x"]]));
  });
  it.each(["", "2", "2=", "=x", "0=x", "2 =x", "2= x", "2=x y", "2=a,2=b", "12345678=x", "x2=a", "2=a,"])(
    "%j is refused",
    (text) => {
      expect(parseAcceptedTasks(text)).toBeUndefined();
    },
  );
});
