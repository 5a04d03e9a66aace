// @ts-nocheck
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
