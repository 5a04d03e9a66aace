// @ts-nocheck
import { describe, expect, it } from "vitest";
import { UnexpectedResponseError } from "../../src/errors.js";
import { isTerminalState, taskStateOf, taskStatusRecord } from "../../src/domain/users-csv/task-status.js";

describe("taskStateOf", () => {
  it.each([
    ["the documented guess {taskId, status}", { taskId: "t1", status: "STARTED" }, "STARTED"],
    ["a bare string answer", "COMPLETED", "COMPLETED"],
    ["`state` instead of `status`", { state: "FAILED" }, "FAILED"],
    ["a status field in other case", { Status: "scheduled" }, "SCHEDULED"],
    ["`status` wins over another state-valued field", { status: "STARTED", previous: "SCHEDULED" }, "STARTED"],
    ["the one field whose value is a state", { taskId: "t1", importState: "COMPLETED", rows: 3 }, "COMPLETED"],
    ["a status one level deep", { task: { id: "t1", status: "STARTED" } }, "STARTED"],
    ["a state-valued field one level deep", { data: { id: "t1", phase: "FAILED" } }, "FAILED"],
  ])("reads %s", (_name, body, expected) => {
    expect(taskStateOf(body)).toBe(expected);
  });

  it.each([
    ["no state at all", { taskId: "t1", done: true }],
    ["an unknown status value", { status: "RUNNING" }],
    ["two fields with different states", { a: "STARTED", b: "COMPLETED" }],
    ["a number", 3],
    ["null", null],
    ["a state two levels deep only", { a: { b: { status: "COMPLETED" } } }],
  ])("refuses %s as an unexpected answer (exit 8)", (_name, body) => {
    expect(() => taskStateOf(body, "t1")).toThrow(UnexpectedResponseError);
  });

  it("names the task in the error", () => {
    expect(() => taskStateOf({}, "task-9")).toThrow(/task-9/);
  });
});

describe("taskStatusRecord", () => {
  it("puts taskId and status first and keeps the service's other fields", () => {
    expect(taskStatusRecord("t1", { status: "STARTED", progress: 40, taskId: "t1" })).toEqual({
      taskId: "t1",
      status: "STARTED",
      progress: 40,
    });
  });
  it("uses the asked taskId even when the answer has none", () => {
    expect(taskStatusRecord("t2", "FAILED")).toEqual({ taskId: "t2", status: "FAILED" });
  });
});

describe("isTerminalState", () => {
  it("is true for COMPLETED and FAILED only", () => {
    expect(["SCHEDULED", "STARTED", "COMPLETED", "FAILED"].map((s) => isTerminalState(s as "FAILED"))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
