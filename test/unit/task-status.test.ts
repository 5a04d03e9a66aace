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

describe("taskStateOf: which field wins, and the exact refusal", () => {
  it.each([
    ["a bare string in other case, padded", "  completed ", "COMPLETED"],
    ["`status` before `state`, whatever the key order", { state: "FAILED", status: "STARTED" }, "STARTED"],
    ["a status name with an unknown value gives way to the next name", { status: "RUNNING", state: "STARTED" }, "STARTED"],
    ["… also when that name's value is not exactly a state", { status: "RUNNING", state: "started" }, "STARTED"],
    ["`taskStatus` and `importStatus` are status names", { taskStatus: "FAILED", x: "COMPLETED" }, "FAILED"],
    ["`importStatus` in any case, its value too", { importstatus: "started", x: "COMPLETED" }, "STARTED"],
    [
      "a status one level down wins over a state-valued top field",
      { phase: "COMPLETED", task: { status: "STARTED" } },
      "STARTED",
    ],
    ["the same state in two fields is one state", { a: "STARTED", b: "STARTED", n: 3 }, "STARTED"],
    ["a top-level state-valued field wins over deeper ones", { a: "FAILED", task: { b: "STARTED" } }, "FAILED"],
  ])("%s", (_name, body, expected) => {
    expect(taskStateOf(body)).toBe(expected);
  });

  const refusal = (why: string, id = " of t1") =>
    new UnexpectedResponseError(`bulk import status${id}: the service answered something unexpected (${why})`);

  it.each([
    ["not an object", 3, "not an object"],
    [
      "a state in other case under another name",
      { phase: "completed" },
      "no SCHEDULED/STARTED/COMPLETED/FAILED status in the answer",
    ],
    ["two top-level states", { a: "STARTED", b: "COMPLETED" }, "several states: STARTED, COMPLETED"],
    ["two states one level down", { x: { a: "FAILED" }, y: { b: "SCHEDULED" } }, "several states: FAILED, SCHEDULED"],
    [
      "a state inside a list (only objects are looked into)",
      { list: ["COMPLETED"] },
      "no SCHEDULED/STARTED/COMPLETED/FAILED status in the answer",
    ],
  ])("refuses %s, naming the task and why", (_name, body, why) => {
    expect(() => taskStateOf(body, "t1")).toThrow(refusal(why));
  });

  it("without a task id the message names none", () => {
    expect(() => taskStateOf(null)).toThrow(refusal("not an object", ""));
  });
});

describe("taskStatusRecord: the state under another name is not repeated", () => {
  it("drops a status-named field holding the state, keeps one holding another value, taskId and status first", () => {
    const record = taskStatusRecord("t1", { progress: 5, State: "started", taskStatus: "SCHEDULED", importStatus: "STARTED" });
    expect(record).toEqual({ taskId: "t1", status: "STARTED", progress: 5, taskStatus: "SCHEDULED" });
    expect(Object.keys(record)).toEqual(["taskId", "status", "progress", "taskStatus"]);
  });

  it("the asked taskId and the read status win over the answer's own taskId and status fields", () => {
    expect(taskStatusRecord("t1", { taskId: "other", status: "RUNNING", state: "STARTED", rows: 3 })).toEqual({
      taskId: "t1",
      status: "STARTED",
      rows: 3,
    });
  });
});
