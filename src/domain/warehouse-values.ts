import { parseIsoDate } from "./date-windows.js";
import { JsonNumber } from "./exact-json.js";

// The values of a `reports sync` record, read from the record's own JSON text
// (docs/cli-contract.md, Warehouse rules): any value the service sends is stored, exactly —
// integers beyond 2^53 and `1e400` keep their digits (JSON.parse would round them: such
// records are read by a parser that keeps a number's text, exact-json.ts); text PostgreSQL cannot hold (NUL,
// lone surrogates) becomes U+FFFD in the columns and an escape in `raw`. Pure.

/** Column types, narrowest first; a column only ever widens (widenType). */
export type WarehouseType = "boolean" | "bigint" | "double" | "date" | "timestamp" | "text";

/**
 * Receives each flattened field: its path's key (segments joined by U+0001), its text for the
 * column (null: SQL NULL), its type, and whether the value is a plain JSON scalar the column
 * holds as it stands (a string needing no U+FFFD, a number its type keeps exactly, a boolean,
 * null) — not a list, an empty or too deep object, or a number kept as text: a database
 * reading the record's own JSON into a column of that type stores the same value.
 */
export type FieldVisitor = (key: string, text: string | null, type: WarehouseType | undefined, plain: boolean) => void;

/** Splits a field key back into its path (only for a field seen the first time). */
export function pathOfKey(key: string): string[] {
  return key.split(KEY_SEPARATOR);
}

const KEY_SEPARATOR = "\u0001";

/**
 * Nested fields' keys, made once: a key built anew for every field of every record is a new
 * string to hash at each lookup (most of a window's time went there). Bounded: a record
 * whose keys are ids (a new key each time) stops adding to it.
 */
const CHILD_KEYS = new Map<string, Map<string, string>>();
const MAX_CHILD_KEYS = 50_000;
let childKeys = 0;

function childKey(prefix: string, name: string): string {
  let names = CHILD_KEYS.get(prefix);
  let key = names?.get(name);
  if (key !== undefined) return key;
  key = prefix + KEY_SEPARATOR + name;
  if (childKeys < MAX_CHILD_KEYS) {
    if (!names) CHILD_KEYS.set(prefix, (names = new Map<string, string>()));
    names.set(name, key);
    childKeys++;
  }
  return key;
}

/** Nested objects deeper than this are kept as JSON text in one column. */
const MAX_FLATTEN_DEPTH = 16;
const MAX_SAFE_DIGITS = 15;

/** The narrowest type holding both (a null fits any): numbers to double, dates to timestamps, the rest to text. */
export function widenType(a: WarehouseType | undefined, b: WarehouseType | undefined): WarehouseType | undefined {
  if (a === undefined) return b;
  if (b === undefined || a === b) return a;
  // Called for every value of a column whose values differ (whole and fractional scores): no allocation.
  if ((a === "bigint" && b === "double") || (a === "double" && b === "bigint")) return "double";
  if ((a === "date" && b === "timestamp") || (a === "timestamp" && b === "date")) return "timestamp";
  return "text";
}

/** U+FFFD for NUL and for halves of surrogate pairs standing alone: text every database takes. */
export function storableText(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000\ud800-\udfff]/.test(text)) return text;
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** Whether `text` holds a character storableText would change. */
export function hasUnstorable(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

const SURE_DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])$/;

/** A real calendar date: the common days by pattern, the 29th–31st by the calendar. */
function isDate(text: string): boolean {
  if (SURE_DATE_RE.test(text)) return Number(text.slice(0, 4)) >= 1000;
  return parseIsoDate(text) !== undefined;
}

/** The type a string needs: DATE for YYYY-MM-DD, TIMESTAMP for ISO date-times, else text. */
export function stringType(text: string): WarehouseType {
  const c = text.charCodeAt(0);
  if (c < 0x30 || c > 0x39 || text.length < 10) return "text";
  if (text.length === 10) return isDate(text) ? "date" : "text";
  if (
    TIMESTAMP_RE.test(text) &&
    parseIsoDate(text.slice(0, 10)) !== undefined &&
    !Number.isNaN(Date.parse(text.replace(" ", "T")))
  )
    return "timestamp";
  return "text";
}

/** A number's type from its text: whole numbers within ±2^53 are BIGINT, finite others DOUBLE, the rest text (exact). */
function numberType(text: string): WarehouseType {
  if (/^-?\d+$/.test(text)) {
    const digits = text.replace(/^-?0*/, "").length;
    if (digits <= MAX_SAFE_DIGITS) return "bigint";
    return Number.isSafeInteger(Number(text)) ? "bigint" : "text";
  }
  return Number.isFinite(Number(text)) ? "double" : "text";
}

function isListItem(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof JsonNumber;
}

/**
 * The record's fields as reports' CSV flattens them (domain/records.ts): nested objects to
 * paths, lists of plain values joined with `;`, other lists as JSON text. One call per
 * field, no path arrays: this runs for every field of every record.
 */
export function visitFields(record: unknown, visit: FieldVisitor, prefix = "", depth = 0): number {
  const object = isObject(record) ? record : { value: record };
  let fields = 0;
  for (const name in object) {
    const value = object[name];
    const key = prefix === "" ? name : childKey(prefix, name);
    if (typeof value === "string") {
      const text = storableText(value);
      visit(key, text, stringType(text), text === value);
    } else if (typeof value === "number") {
      visit(key, String(value), Number.isSafeInteger(value) ? "bigint" : "double", true);
    } else if (value === null || value === undefined) visit(key, null, undefined, true);
    else if (typeof value === "boolean") visit(key, value ? "true" : "false", "boolean", true);
    else if (value instanceof JsonNumber) {
      const type = numberType(value.text);
      visit(key, value.text, type, type !== "text");
    } else if (Array.isArray(value)) {
      if (value.every(isListItem))
        visit(
          key,
          storableText(value.map((item) => (item instanceof JsonNumber ? item.text : String(item))).join(";")),
          "text",
          false,
        );
      else visit(key, storableText(toJsonText(value)), "text", false);
    } else if (depth < MAX_FLATTEN_DEPTH && isObject(value)) {
      let any = false;
      for (const _ in value) {
        any = true;
        break;
      }
      if (any) {
        fields += visitFields(value, visit, key, depth + 1) - 1;
      } else visit(key, null, undefined, false);
    } else visit(key, storableText(toJsonText(value)), "text", false);
    fields++;
  }
  return fields;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber);
}

/**
 * JSON text of a value for `raw`: numbers as the service wrote them, and NUL and lone
 * surrogates as the visible escapes `\u0000` / `\ud800` (the text `\\u0000` in JSON): a
 * PostgreSQL JSONB value cannot hold them, and the escape says what was there.
 */
export function toJsonText(value: unknown): string {
  if (value instanceof JsonNumber) return value.text;
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .map((key) => `${quote(key)}:${toJsonText(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

function quote(text: string): string {
  const json = JSON.stringify(text);
  if (!/\\u(0000|d[89a-f])/i.test(json)) return json;
  // JSON.stringify wrote NUL and lone surrogates as \u escapes: keep them as visible text.
  return json.replace(/(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})/gi, "$1\\\\u$2");
}

/** The raw text as stored: the service's own bytes when they need nothing, else written anew. */
export function rawText(text: string, value: unknown, rewritten: boolean): string {
  if (!rewritten && !/\\u(0000|d[89a-f])/i.test(text) && !hasUnstorable(text)) return text;
  return toJsonText(value);
}
