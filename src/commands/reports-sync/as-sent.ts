import { JsonNumber } from "../../domain/exact-json.js";
import type { WarehouseType } from "../../domain/warehouse-values.js";

// Whether DuckDB may read a window's columns straight from its records' own JSON (load-file.ts;
// docs/reports-sync.md, "How a window is loaded"): a value fits when the column takes it as
// sent — the same value the columns file would give — and a record when no key repeats
// (DuckDB's reader refuses an object with a repeated key; JSON.parse keeps the last). Pure.

/** The kinds of JSON value a field had in a window loaded straight from `raw` (bits). */
const STRING = 1;
const NUMBER = 2;
const BOOLEAN = 4;

/** The one kind of JSON value a column of `type` takes as it stands (0: a column type that takes none). */
export function kindOf(type: WarehouseType | "system" | undefined): number {
  if (type === "text" || type === "date" || type === "timestamp") return STRING;
  if (type === "bigint" || type === "double") return NUMBER;
  if (type === "boolean") return BOOLEAN;
  return 0;
}

/** Whether values of `kinds` read from JSON into a column of `type` are what the columns file would give it. */
export function holdsAsSent(type: WarehouseType | "system" | undefined, kinds: number): boolean {
  return kinds === 0 || kindOf(type) === kinds;
}

/** The keys of a JSON text, all levels: each key's closing quote (not an escaped one) before its colon. */
export function keysInText(text: string): number {
  if (text.includes("\\")) {
    let keys = 0;
    for (const match of text.matchAll(KEY_END)) {
      let backslashes = 0;
      for (let at = match.index - 1; text.charCodeAt(at) === 0x5c; at--) backslashes++;
      if (backslashes % 2 === 0) keys++;
    }
    return keys;
  }
  if (KEY_SPACE.test(text)) return text.match(KEY_END)?.length ?? 0;
  let keys = 0;
  for (let at = text.indexOf('":'); at >= 0; at = text.indexOf('":', at + 2)) keys++;
  return keys;
}
const KEY_SPACE = /"\s/;
const KEY_END = /"\s*:/g;

/** The keys of a parsed record, all levels of nested objects: fewer than its text has when a key repeats. */
export function keysInValue(value: Record<string, unknown>): number {
  let keys = 0;
  for (const name in value) {
    keys++;
    const child = value[name];
    if (isRecordObject(child)) keys += keysInValue(child);
  }
  return keys;
}

export function isRecordObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}
