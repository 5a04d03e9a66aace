// The status of a bulk-import task from a bulk-import/status answer (docs/service-spec.md §4.9: "the task
// status, one of SCHEDULED, STARTED, COMPLETED, FAILED. The response field names: not
// shown"). service-notes.md: `status` is the natural guess, accept it by shape. So:
//
// 1. a bare string answer that is a state;
// 2. a field named like a status (`status`, `state`, `taskStatus`, `importStatus`) whose
//    value is a state — names compared ignoring case, the value too;
// 3. else the one field whose value is exactly a state, searched among the top-level fields
//    and then one level down (`{task: {…}}`). Two fields with different states is a guess
//    we refuse to make.
//
// Anything else is an UnexpectedResponseError (exit 8): the service said something we
// cannot read, which is never the user's fault — and guessing "still running" would make
// a --wait spin until its timeout for nothing.
//
// Pure: no I/O.

import { UnexpectedResponseError } from "../../errors.js";
import { isPlainObject, type JsonRecord } from "../records.js";

/** The states of a bulk-import task (docs/service-spec.md §4.9); api/schemas.ts builds its schema from them. */
export const IMPORT_TASK_STATES = ["SCHEDULED", "STARTED", "COMPLETED", "FAILED"] as const;
export type ImportTaskState = (typeof IMPORT_TASK_STATES)[number];

const STATUS_NAMES = ["status", "state", "taskstatus", "importstatus"];
const TERMINAL: ReadonlySet<ImportTaskState> = new Set(["COMPLETED", "FAILED"]);

export function isImportTaskState(value: unknown): value is ImportTaskState {
  // includes() compares with ===: anything but one of these strings is false, no typeof needed.
  return (IMPORT_TASK_STATES as readonly unknown[]).includes(value);
}

export function isTerminalState(state: ImportTaskState): boolean {
  return TERMINAL.has(state);
}

function loose(value: unknown): ImportTaskState | undefined {
  if (typeof value !== "string") return undefined;
  const upper = value.trim().toUpperCase();
  return isImportTaskState(upper) ? upper : undefined;
}

function byName(object: JsonRecord): ImportTaskState | undefined {
  for (const name of STATUS_NAMES) {
    for (const [key, value] of Object.entries(object)) {
      if (key.toLowerCase() === name) {
        const state = loose(value);
        if (state) return state;
      }
    }
  }
  return undefined;
}

function distinctStates(values: unknown[]): ImportTaskState[] {
  return [...new Set(values.filter(isImportTaskState))];
}

/** The task's state in a status answer of any reasonable shape; UnexpectedResponseError otherwise. */
export function taskStateOf(body: unknown, taskId?: string): ImportTaskState {
  const fail = (why: string): UnexpectedResponseError =>
    new UnexpectedResponseError(
      `bulk import status${taskId === undefined ? "" : ` of ${taskId}`}: the service answered something unexpected (${why})`,
    );
  const bare = loose(body);
  if (bare) return bare;
  if (!isPlainObject(body)) throw fail("not an object");
  const named = byName(body);
  if (named) return named;
  const nested = Object.values(body).filter(isPlainObject);
  for (const object of nested) {
    const inner = byName(object);
    if (inner) return inner;
  }
  const top = distinctStates(Object.values(body));
  if (top.length > 1) throw fail(`several states: ${top.join(", ")}`);
  if (top[0]) return top[0];
  const deeper = distinctStates(nested.flatMap((o) => Object.values(o)));
  if (deeper.length > 1) throw fail(`several states: ${deeper.join(", ")}`);
  if (deeper[0]) return deeper[0];
  throw fail(`no ${IMPORT_TASK_STATES.join("/")} status in the answer`);
}

/**
 * One record for output: taskId and status first, then whatever else the service said
 * (by shape; a field the service calls `taskId` or `status` is not repeated).
 */
export function taskStatusRecord(taskId: string, body: unknown): JsonRecord {
  const status = taskStateOf(body, taskId);
  const record: JsonRecord = { taskId, status };
  if (isPlainObject(body)) {
    for (const [key, value] of Object.entries(body)) {
      // The state under another name (`state`, `taskStatus`) is the `status` column already.
      if (key === "taskId" || key === "status" || (STATUS_NAMES.includes(key.toLowerCase()) && loose(value) === status)) continue;
      record[key] = value;
    }
  }
  return record;
}
