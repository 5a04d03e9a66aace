// The answer to one bulk-import upload, read by shape (docs/service-spec.md §4.8: "a taskId … for each
// invalid row, its row number and its list of field errors, plus the count of valid users
// and the count of invalid users. Exact response field names: not shown").
//
// service-notes.md shows the public documentation's names — `taskId`, `validUsersCount`,
// `invalidUsersCount`, `errors: [{row, errors: [...]}]` — so those are read first; other
// reasonable spellings are accepted too (`id`, `task.id`, `rowErrors`, `rowNumber`,
// `messages`, `{field, message}` items…). The same reader handles the 400 "no valid row"
// answer, which carries the counts and errors but no taskId.
//
// Row numbers in the answer are spreadsheet rows of the uploaded batch (header = 1); each
// is mapped back to the row of the original file with originalRowOf, so the user sees the
// row they can find in their own file.
//
// Pure: no I/O.

import { isPlainObject, type JsonRecord } from "../records.js";
import { originalRowOf, type UserBatch } from "./batches.js";

export interface ServiceRowError {
  /** Row of the original file; undefined when the service named a row the batch lacks. */
  row: number | undefined;
  /** Row as the service numbered it in the uploaded batch (header = 1). */
  batchRow: number | undefined;
  /** A column name when the service gave one. */
  field: string | undefined;
  messages: string[];
}

export interface UploadAnswer {
  taskId: string | undefined;
  validUsersCount: number | undefined;
  invalidUsersCount: number | undefined;
  rowErrors: ServiceRowError[];
}

const TASK_ID_NAMES = ["taskId", "task_id", "taskID", "importTaskId", "id"];
const TASK_OBJECT_NAMES = ["task", "importTask", "data", "result"];
const VALID_COUNT_NAMES = ["validUsersCount", "validCount", "validRows", "valid", "importedCount"];
const INVALID_COUNT_NAMES = ["invalidUsersCount", "invalidCount", "invalidRows", "invalid", "errorCount"];
const ERROR_LIST_NAMES = ["errors", "rowErrors", "invalidUsers", "invalidRows", "failures", "rows"];
const ROW_NAMES = ["row", "rowNumber", "line", "lineNumber", "index"];
const FIELD_NAMES = ["field", "column", "fieldName", "columnName"];
const MESSAGE_NAMES = ["errors", "messages", "message", "error", "reason", "problems", "detail"];

/** The value of the first of `names` that is present and not null. */
function pick(object: JsonRecord, names: readonly string[]): unknown {
  for (const name of names) {
    const value = object[name] ?? undefined;
    if (value !== undefined) return value;
  }
  return undefined;
}

function idText(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  // Number.isFinite is false for anything but a finite number (no coercion).
  if (Number.isFinite(value)) return String(value);
  return undefined;
}

function count(value: unknown): number | undefined {
  // Number.isInteger is false for anything but an integral number (no coercion).
  if (Number.isInteger(value) && (value as number) >= 0) return value as number;
  // Number() ignores the surrounding spaces the test allows.
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

/** taskId wherever it is: the documented name first, then other spellings, then one level down. */
export function taskIdOf(body: unknown): string | undefined {
  if (!isPlainObject(body)) return undefined;
  const direct = idText(pick(body, TASK_ID_NAMES));
  if (direct) return direct;
  for (const name of TASK_OBJECT_NAMES) {
    const inner = body[name];
    if (isPlainObject(inner)) {
      const nested = idText(pick(inner, TASK_ID_NAMES));
      if (nested) return nested;
    }
  }
  return undefined;
}

function messagesOf(value: unknown): { field: string | undefined; messages: string[] } {
  if (typeof value === "string") return { field: undefined, messages: value.trim() === "" ? [] : [value] };
  if (Array.isArray(value)) {
    const fields = new Set<string>();
    const messages: string[] = [];
    for (const item of value) {
      const inner = messagesOf(item);
      if (inner.field) fields.add(inner.field);
      messages.push(...inner.messages);
    }
    return { field: fields.size === 1 ? [...fields][0] : undefined, messages };
  }
  if (isPlainObject(value)) {
    const fieldValue = pick(value, FIELD_NAMES);
    const field = typeof fieldValue === "string" ? fieldValue : undefined;
    // No message at all reads as no messages (the undefined case below).
    const inner = messagesOf(pick(value, MESSAGE_NAMES));
    if (inner.messages.length === 0) return { field, messages: [field ? "invalid" : JSON.stringify(value)] };
    // "field: message" keeps each column beside its message when one row has several.
    return { field: field ?? inner.field, messages: field ? inner.messages.map((m) => `${field}: ${m}`) : inner.messages };
  }
  if (value === undefined || value === null) return { field: undefined, messages: [] };
  return { field: undefined, messages: [String(value)] };
}

function isRowError(value: unknown): value is JsonRecord {
  return isPlainObject(value) && count(pick(value, ROW_NAMES)) !== undefined;
}

/** The list of row errors: the documented `errors` first, else any array of row-numbered objects. */
function rowErrorList(body: JsonRecord): JsonRecord[] {
  for (const name of ERROR_LIST_NAMES) {
    const list = body[name];
    if (Array.isArray(list) && list.some(isRowError)) return list.filter(isRowError);
  }
  for (const value of Object.values(body)) {
    if (Array.isArray(value) && value.some(isRowError)) return value.filter(isRowError);
  }
  return [];
}

/** Reads one upload answer (200, or the 400 body of a batch without a valid row). */
export function parseUploadAnswer(body: unknown, batch: Pick<UserBatch, "rows">): UploadAnswer {
  if (!isPlainObject(body))
    return { taskId: idText(body), validUsersCount: undefined, invalidUsersCount: undefined, rowErrors: [] };
  const rowErrors = rowErrorList(body).map((item): ServiceRowError => {
    // rowErrorList keeps only items with a row number (isRowError).
    const batchRow = count(pick(item, ROW_NAMES))!;
    const rowFields = { ...item };
    for (const name of ROW_NAMES) delete rowFields[name];
    const { field, messages } = messagesOf(pick(rowFields, MESSAGE_NAMES) ?? rowFields);
    const fieldValue = pick(item, FIELD_NAMES);
    return {
      batchRow,
      row: originalRowOf(batch, batchRow),
      field: typeof fieldValue === "string" ? fieldValue : field,
      messages: messages.length > 0 ? messages : ["rejected by the service"],
    };
  });
  return {
    taskId: taskIdOf(body),
    validUsersCount: count(pick(body, VALID_COUNT_NAMES)),
    invalidUsersCount: count(pick(body, INVALID_COUNT_NAMES)),
    rowErrors,
  };
}

/** Whether a 400 answer is the row-level "no valid row" rejection rather than a broken request. */
export function isNoValidRowAnswer(answer: UploadAnswer): boolean {
  return answer.taskId === undefined && (answer.rowErrors.length > 0 || answer.validUsersCount === 0);
}
