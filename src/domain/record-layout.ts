import { JsonNumber } from "./exact-json.js";
import { stringType, type WarehouseType } from "./warehouse-values.js";

// The types of a report record's fields read from its JSON text alone, without parsing it,
// for records laid out like one read before (docs/reports-sync.md, "How a window is loaded"):
// a report's records nearly always have the same keys in the same order, so once one record
// has been parsed and flattened (warehouse-values.ts visitFields), the next ones are checked
// against its layout key by key and only their values are looked at — no objects built, no
// flattening, no key counting. It was most of `reports sync`'s JavaScript time.
//
// Only the common case is read here; anything else is left to the parser (read() answers
// false), which gives the same answer the slow way:
// - the text has no backslash (no escape to decode: a key or value means what it says), no
//   control character (JSON allows none inside strings; whitespace other than spaces sends
//   the record to the parser) and no UTF-16 surrogate (a lone one becomes U+FFFD);
// - its keys are the layout's, in its order, each written `"name":`; objects nest where the
//   layout's do; every value is a string, a number, true, false or null;
// - no number has an exponent or 16 characters or more (exact-json.ts keeps those).
// A layout is learned only from a record every value of which is such a plain scalar (the
// caller knows: its fields were all stored as sent) and whose keys are not array indexes
// (JavaScript enumerates those first, out of text order). Pure.

const LEAF = 0;
const OPEN = 1;
const CLOSE = 2;

/** A key JavaScript enumerates before the others (an array index), whatever its place in the text. */
const INDEX_KEY = /^(0|[1-9]\d*)$/;
/** Longest number read here: exact-json.ts takes any run of 16 digits. */
const MAX_NUMBER = 15;

export class RecordLayout {
  /** Per step: LEAF (a field), OPEN (a nested object), CLOSE (its end, and the record's). */
  private readonly steps: number[] = [];
  /** Per step: the key as the text must hold it before the value (`"name":`). */
  private readonly heads: string[] = [];
  /** Per step: whether a comma comes first (every member of an object but its first). */
  private readonly commas: boolean[] = [];
  /** The fields' keys, in visit order (the flattened keys visitFields gave). */
  readonly keys: string[];

  private constructor(keys: string[]) {
    this.keys = keys;
  }

  /**
   * The layout of a record whose every field was a plain scalar, from its parsed value and
   * the keys visitFields gave its fields (in order); undefined when it cannot be one.
   */
  static learn(value: Record<string, unknown>, keys: readonly string[]): RecordLayout | undefined {
    const layout = new RecordLayout(keys.slice());
    let fields = 0;
    const walk = (object: Record<string, unknown>): boolean => {
      let first = true;
      for (const name in object) {
        if (INDEX_KEY.test(name)) return false;
        const child = object[name];
        const head = `${JSON.stringify(name)}:`;
        layout.commas.push(!first);
        first = false;
        if (typeof child === "object" && child !== null && !Array.isArray(child) && !(child instanceof JsonNumber)) {
          layout.steps.push(OPEN);
          layout.heads.push(head);
          if (!walk(child as Record<string, unknown>)) return false;
        } else {
          layout.steps.push(LEAF);
          layout.heads.push(head);
          fields++;
        }
      }
      layout.steps.push(CLOSE);
      layout.heads.push("}");
      layout.commas.push(false);
      return true;
    };
    return walk(value) && fields === keys.length ? layout : undefined;
  }

  /**
   * Reads a record by this layout: the type of each field into `types`, in the
   * order of `keys` (undefined for null). False when the text does not follow the layout or
   * holds anything the parser must read; `types` then holds nothing of use.
   */
  read(text: string, types: (WarehouseType | undefined)[]): boolean {
    const { steps, heads, commas } = this;
    const length = text.length;
    let at = skipSpaces(text, 0);
    if (text.charCodeAt(at) !== 0x7b) return false;
    at++;
    let field = 0;
    for (let step = 0; step < steps.length; step++) {
      at = skipSpaces(text, at);
      const head = heads[step]!;
      if (steps[step] === CLOSE) {
        if (text.charCodeAt(at) !== 0x7d) return false;
        at++;
        continue;
      }
      if (commas[step]) {
        if (text.charCodeAt(at) !== 0x2c) return false;
        at = skipSpaces(text, at + 1);
      }
      // The key, compared character by character (startsWith per key cost more than the rest).
      const size = head.length;
      for (let i = 0; i < size; i++) if (text.charCodeAt(at + i) !== head.charCodeAt(i)) return false;
      at = skipSpaces(text, at + size);
      const c = text.charCodeAt(at);
      if (steps[step] === OPEN) {
        if (c !== 0x7b) return false;
        at++;
        continue;
      }
      if (c === 0x22) {
        const end = stringEnd(text, at + 1);
        if (end < 0) return false;
        // Only a text starting with a digit, 10 characters or more, can be a date or a date-time.
        const first = text.charCodeAt(at + 1);
        types[field++] = end - at - 1 >= 10 && first >= 0x30 && first <= 0x39 ? stringType(text.slice(at + 1, end)) : "text";
        at = end + 1;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const end = numberEnd(text, at);
        if (end < 0) return false;
        types[field++] = numberType(text, at, end);
        at = end;
      } else if (c === 0x74 && text.startsWith("true", at)) {
        types[field++] = "boolean";
        at += 4;
      } else if (c === 0x66 && text.startsWith("false", at)) {
        types[field++] = "boolean";
        at += 5;
      } else if (c === 0x6e && text.startsWith("null", at)) {
        types[field++] = undefined;
        at += 4;
      } else return false;
    }
    return skipSpaces(text, at) === length;
  }
}

/**
 * Where the string whose characters begin at `at` ends (its closing quote), or -1 when it
 * holds what the parser must read: a backslash (an escape), a control character (not JSON),
 * a UTF-16 surrogate (a lone one becomes U+FFFD). Keys need no such look: they are compared
 * with the layout's, which has none.
 */
function stringEnd(text: string, at: number): number {
  for (; ; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x22) return at;
    if (c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff) || Number.isNaN(c)) return -1;
  }
}

function skipSpaces(text: string, at: number): number {
  while (text.charCodeAt(at) === 0x20) at++;
  return at;
}

/**
 * Where a JSON number starting at `at` ends (-?(0|[1-9]\d*)(\.\d+)?), or -1 when it is not
 * one read here (an exponent, too long, or not a number at all).
 */
function numberEnd(text: string, at: number): number {
  const start = at;
  if (text.charCodeAt(at) === 0x2d) at++;
  let c = text.charCodeAt(at);
  if (c === 0x30) at++;
  else if (c >= 0x31 && c <= 0x39) {
    at++;
    while (isDigit(text.charCodeAt(at))) at++;
  } else return -1;
  if (text.charCodeAt(at) === 0x2e) {
    at++;
    if (!isDigit(text.charCodeAt(at))) return -1;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  c = text.charCodeAt(at);
  if (c === 0x65 || c === 0x45 || isDigit(c) || c === 0x2e || at - start > MAX_NUMBER) return -1;
  return at;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** As visitFields types the parsed number: whole (`2`, `2.0`, `-0`) is BIGINT (within 15 characters, always safe), else DOUBLE. */
function numberType(text: string, start: number, end: number): WarehouseType {
  const point = text.indexOf(".", start);
  if (point < 0 || point >= end) return "bigint";
  for (let at = point + 1; at < end; at++) if (text.charCodeAt(at) !== 0x30) return "double";
  return "bigint";
}
