// Responses whose fields the spec marks "not shown" (reports, create, status…) are handled
// by shape, never by a guessed field name (docs/cli-contract.md, "Records of unknown shape").

import { exactJsonText, JsonNumber } from "./exact-json.js";

export type JsonRecord = Record<string, unknown>;

/** A JSON object: not an array, nor a number kept as its text (exact-json.ts). */
export function isPlainObject(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

function isArrayOfObjects(value: unknown): value is JsonRecord[] {
  return Array.isArray(value) && value.every(isPlainObject);
}

/** Non-object items of a list become `{ value }` so every record has named columns. */
function asRecord(item: unknown): JsonRecord {
  return isPlainObject(item) ? item : { value: item };
}

/**
 * - a top-level array is the record list;
 * - an object with exactly one non-empty array of objects holds the record list — an empty
 *   array beside it (`{data:[…], warnings:[]}`) is not a second list; an
 *   object whose one array of objects is empty (`{data:[]}`) holds no records;
 * - otherwise the object is one record.
 */
export function extractRecords(body: unknown): JsonRecord[] {
  if (Array.isArray(body)) return body.map(asRecord);
  if (!isPlainObject(body)) return body === undefined || body === null || body === "" ? [] : [{ value: body }];
  const lists = Object.values(body).filter(isArrayOfObjects);
  const filled = lists.filter((list) => list.length > 0);
  if (filled.length === 1 && filled[0]) return filled[0];
  // Here no list is filled when there is only one (filled is a part of lists).
  if (lists.length === 1 && lists[0]) return lists[0];
  return [body];
}

/** Scalar cell values after flattening; a JsonNumber is a number kept as its text (exact-json.ts). */
export type Cell = string | number | boolean | null | JsonNumber;

/**
 * Nested objects become dotted columns (`user.team.name`). A list of plain values (`tags`)
 * becomes one cell joined by `listJoin` — `a;b` in CSV, `a, b` in tables;
 * other arrays are kept whole as JSON text in one cell: spreading them over numbered columns
 * would make column sets differ per record.
 */
/** A value a list cell can show as text without losing anything. */
function isListItem(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof JsonNumber;
}

export function flattenRecord(
  record: JsonRecord,
  prefix = "",
  out: Record<string, Cell> = {},
  listJoin = ";",
): Record<string, Cell> {
  // for…in, not Object.entries: no array per record and per pair on a million-record export;
  // the same keys in the same order for a record parsed from JSON (no inherited ones).
  for (const key in record) {
    const value = record[key];
    const name = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) flattenRecord(value, name, out, listJoin);
    else out[name] = cellOf(value, listJoin);
  }
  return out;
}

/**
 * The cell of a value flattenRecord does not descend into (anything but an object with
 * keys): an empty object or undefined is null, a list of plain values one text joined by
 * `listJoin`, any other list its JSON text, a string, number, boolean or null itself.
 */
export function cellOf(value: unknown, listJoin = ";"): Cell {
  if (Array.isArray(value)) return value.every(isListItem) ? value.map(String).join(listJoin) : exactJsonText(value);
  if (value === undefined || isPlainObject(value)) return null;
  if (typeof value === "number" || typeof value === "boolean" || value === null || value instanceof JsonNumber) return value;
  // A string is itself; a bigint, a symbol… their text.
  return String(value);
}

/** Keeps column order stable: the union of keys in first-seen order. */
export class ColumnSet {
  private readonly seen = new Set<string>();
  readonly columns: string[] = [];

  add(keys: Iterable<string>): void {
    for (const key of keys) {
      if (!this.seen.has(key)) {
        this.seen.add(key);
        this.columns.push(key);
      }
    }
  }

  has(key: string): boolean {
    return this.seen.has(key);
  }
}
