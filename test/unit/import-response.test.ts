import { describe, expect, it } from "vitest";
import { isNoValidRowAnswer, parseUploadAnswer, taskIdOf } from "../../src/domain/users-csv/import-response.js";

// A batch whose lines 2, 3, 4 are rows 10, 12 and 15 of the original file (rows 11, 13, 14
// were invalid locally and skipped).
const batch = { rows: [10, 12, 15] };

describe("parseUploadAnswer", () => {
  it("reads the documented answer and maps the batch's rows back to the original file", () => {
    const answer = parseUploadAnswer(
      {
        taskId: "task-abc123",
        validUsersCount: 2,
        invalidUsersCount: 1,
        errors: [{ row: 3, errors: ["Email must match username"] }],
      },
      batch,
    );
    expect(answer).toEqual({
      taskId: "task-abc123",
      validUsersCount: 2,
      invalidUsersCount: 1,
      rowErrors: [{ row: 12, batchRow: 3, field: undefined, messages: ["Email must match username"] }],
    });
  });

  it("accepts other spellings: id, rowErrors, rowNumber, {field, message} items", () => {
    const answer = parseUploadAnswer(
      { id: 42, validCount: "1", rowErrors: [{ rowNumber: 4, problems: [{ field: "email", message: "User already exists" }] }] },
      batch,
    );
    expect(answer.taskId).toBe("42");
    expect(answer.validUsersCount).toBe(1);
    expect(answer.rowErrors).toEqual([{ row: 15, batchRow: 4, field: "email", messages: ["email: User already exists"] }]);
  });

  it("takes a single message string and a field named beside the row", () => {
    const answer = parseUploadAnswer({ taskId: "t", errors: [{ line: 2, column: "role", message: "must be trainee" }] }, batch);
    expect(answer.rowErrors).toEqual([{ row: 10, batchRow: 2, field: "role", messages: ["must be trainee"] }]);
  });

  it("leaves the original row undefined for a row the batch does not have (the header, or past the end)", () => {
    const answer = parseUploadAnswer(
      {
        taskId: "t",
        errors: [
          { row: 1, errors: ["x"] },
          { row: 9, errors: ["y"] },
        ],
      },
      batch,
    );
    expect(answer.rowErrors.map((e) => [e.batchRow, e.row])).toEqual([
      [1, undefined],
      [9, undefined],
    ]);
  });

  it("finds the list of row errors under any name when it holds row-numbered objects", () => {
    const answer = parseUploadAnswer({ task: { id: "t7" }, report: [{ row: 2, reason: "bad" }] }, batch);
    expect(answer.taskId).toBe("t7");
    expect(answer.rowErrors).toEqual([{ row: 10, batchRow: 2, field: undefined, messages: ["bad"] }]);
  });

  it("reads the 400 'no valid row' body: counts and errors, no taskId", () => {
    const answer = parseUploadAnswer(
      {
        validUsersCount: 0,
        invalidUsersCount: 3,
        errors: [{ row: 2, errors: ["User does not exist"] }],
        error: { code: "INVALID_REQUEST", message: "no valid user rows" },
      },
      batch,
    );
    expect(answer.taskId).toBeUndefined();
    expect(isNoValidRowAnswer(answer)).toBe(true);
  });

  it("does not take a 400 about the request itself for a row rejection", () => {
    expect(
      isNoValidRowAnswer(parseUploadAnswer({ error: { code: "INVALID_REQUEST", message: "file is required" } }, batch)),
    ).toBe(false);
  });

  it("copes with answers that are not objects", () => {
    expect(parseUploadAnswer("task-1", batch).taskId).toBe("task-1");
    expect(parseUploadAnswer(null, batch)).toEqual({
      taskId: undefined,
      validUsersCount: undefined,
      invalidUsersCount: undefined,
      rowErrors: [],
    });
  });
});

describe("taskIdOf", () => {
  it.each([
    [{ taskId: "a" }, "a"],
    [{ task_id: "b" }, "b"],
    [{ id: "c", taskId: "d" }, "d"],
    [{ task: { taskId: "e" } }, "e"],
    [{ data: { id: "f" } }, "f"],
    [{ taskId: "" }, undefined],
    [{ other: "g" }, undefined],
  ])("finds the taskId in %j", (body, expected) => {
    expect(taskIdOf(body)).toBe(expected);
  });
});

describe("parseUploadAnswer: values read by shape", () => {
  it.each([
    ["a null documented name gives way to the next spelling", { taskId: null, id: "t-2" }, "t-2"],
    ["a blank id is none", { taskId: "  " }, undefined],
    ["a numeric id becomes text", { taskId: 7 }, "7"],
    ["an id object that is an array is not looked into", { task: ["t-3"] }, undefined],
    ["a nested blank id is none", { task: { id: " " } }, undefined],
    ["`importTask`, then `result`", { importTask: { taskId: "t-4" }, result: { id: "t-5" } }, "t-4"],
    ["an answer that is not an object", "t-6", undefined],
    ["an answer that is null", null, undefined],
    ["a boolean is no id", { taskId: true }, undefined],
    ["a task object without an id gives way to the next object name", { task: { name: "x" }, data: { id: "t-7" } }, "t-7"],
  ])("taskIdOf: %s", (_name, body, expected) => {
    expect(taskIdOf(body)).toBe(expected);
  });

  it.each([
    [{ validUsersCount: 3, invalidUsersCount: " 2 " }, 3, 2],
    [{ validUsersCount: -1, invalidUsersCount: 1.5 }, undefined, undefined],
    [{ validUsersCount: "1a", invalidUsersCount: "" }, undefined, undefined],
    [{ validUsersCount: "a1", invalidUsersCount: "1 2" }, undefined, undefined],
    [{ validUsersCount: 0, invalidCount: 4 }, 0, 4],
    [{ importedCount: "12", errorCount: 0 }, 12, 0],
  ])("counts in %j: valid %s, invalid %s", (body, valid, invalid) => {
    const answer = parseUploadAnswer({ taskId: "t", ...body }, batch);
    expect([answer.validUsersCount, answer.invalidUsersCount]).toEqual([valid, invalid]);
  });
});

describe("parseUploadAnswer: the messages of a row error", () => {
  const errorsOf = (item: Record<string, unknown>) => parseUploadAnswer({ taskId: "t", errors: [item] }, batch).rowErrors;

  it.each([
    [
      "one field over several items is the row's field",
      {
        row: 2,
        errors: [
          { field: "email", message: "taken" },
          { field: "email", message: "bad" },
        ],
      },
      "email",
      ["email: taken", "email: bad"],
    ],
    [
      "two fields: none is the row's",
      {
        row: 2,
        errors: [
          { field: "email", message: "taken" },
          { field: "role", message: "bad" },
        ],
      },
      undefined,
      ["email: taken", "role: bad"],
    ],
    ["a field without a message is invalid", { row: 2, errors: [{ field: "role" }] }, "role", ["invalid"]],
    ["an item without field or message is shown as JSON", { row: 2, errors: [{ code: 17 }] }, undefined, ['{"code":17}']],
    ["blank messages are dropped, the row still rejected", { row: 2, errors: ["", " "] }, undefined, ["rejected by the service"]],
    ["an empty list: rejected by the service", { row: 2, errors: [] }, undefined, ["rejected by the service"]],
    ["numbers and nulls in the list", { row: 2, errors: [42, null] }, undefined, ["42"]],
    ["no message name: the other fields, the row number left out", { row: 2, email: "bad" }, undefined, ['{"email":"bad"}']],
    [
      "a field on some items only is still the row's",
      { row: 2, errors: [{ field: "email", message: "taken" }, "also bad"] },
      "email",
      ["email: taken", "also bad"],
    ],
    ["a field that is not text is no field", { row: 2, errors: [{ field: 3, message: "x" }] }, undefined, ["x"]],
    ["a message under `detail`", { row: 2, detail: "User already exists" }, undefined, ["User already exists"]],
  ])("%s", (_name, item, field, messages) => {
    expect(errorsOf(item)).toEqual([{ row: 10, batchRow: 2, field, messages }]);
  });

  it("a row number given as text counts; a negative or fractional one is no row error", () => {
    const answer = parseUploadAnswer(
      {
        taskId: "t",
        errors: [
          { row: "3", errors: ["x"] },
          { row: -2, errors: ["y"] },
          { row: 2.5, errors: ["z"] },
        ],
      },
      batch,
    );
    expect(answer.rowErrors).toEqual([{ row: 12, batchRow: 3, field: undefined, messages: ["x"] }]);
  });

  it("a documented list without row-numbered items gives way to the next list name", () => {
    const answer = parseUploadAnswer({ taskId: "t", errors: ["general failure"], failures: [{ index: 4, reason: "r" }] }, batch);
    expect(answer.rowErrors).toEqual([{ row: 15, batchRow: 4, field: undefined, messages: ["r"] }]);
  });

  it("the documented list wins over an earlier unnamed one, and keeps only its row-numbered items", () => {
    const answer = parseUploadAnswer(
      { taskId: "t", report: [{ row: 3, errors: ["b"] }], errors: ["general", { row: 2, errors: ["a"] }] },
      batch,
    );
    expect(answer.rowErrors).toEqual([{ row: 10, batchRow: 2, field: undefined, messages: ["a"] }]);
  });

  it("an unnamed list: its row-numbered items only", () => {
    const answer = parseUploadAnswer({ taskId: "t", report: ["general", { row: 4, reason: "bad" }] }, batch);
    expect(answer.rowErrors).toEqual([{ row: 15, batchRow: 4, field: undefined, messages: ["bad"] }]);
  });

  it("no list of row errors anywhere: none", () => {
    expect(parseUploadAnswer({ taskId: "t", errors: ["x"], notes: [1, 2] }, batch).rowErrors).toEqual([]);
  });
});

describe("isNoValidRowAnswer", () => {
  const answer = (over: Partial<Parameters<typeof isNoValidRowAnswer>[0]>) =>
    isNoValidRowAnswer({ taskId: undefined, validUsersCount: undefined, invalidUsersCount: undefined, rowErrors: [], ...over });
  const rowError = { row: 10, batchRow: 2, field: undefined, messages: ["x"] };

  it.each([
    ["row errors, no task", { rowErrors: [rowError] }, true],
    ["no valid user, no task", { validUsersCount: 0 }, true],
    ["a task: never", { taskId: "t", rowErrors: [rowError], validUsersCount: 0 }, false],
    ["valid users and no row error", { validUsersCount: 2 }, false],
    ["nothing at all", {}, false],
  ])("%s → %s", (_name, over, expected) => {
    expect(answer(over)).toBe(expected);
  });
});
