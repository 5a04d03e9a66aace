import { JsonNumber } from "./exact-json.js";
import { stringType, type WarehouseType } from "./warehouse-values.js";
import { utf8ByteText } from "./byte-text.js";

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
// (JavaScript enumerates those first, out of text order). A record may also be read as its
// UTF-8 bytes, one per character (`bytes`: a Buffer read as `latin1`, which the caller then
// copies as it is): its strings must then be well-formed UTF-8 — a byte TextDecoder would
// replace with U+FFFD sends the record to the parser. Pure.

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
  /** The same as UTF-8 bytes, one per character (read with `bytes`); made when first needed. */
  private byteHeads: string[] | undefined;
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
  read(text: string, types: (WarehouseType | undefined)[], bytes = false): boolean {
    const end = this.readAt(text, skipSpaces(text, 0), types, bytes);
    return end >= 0 && skipSpaces(text, end) === text.length;
  }

  /**
   * Reads a record by this layout from `start` (its "{") in a longer text: where it ends
   * (just after its "}"), or -1 as read() answers false — also when the text ends first.
   */
  readAt(text: string, start: number, types: (WarehouseType | undefined)[], bytes = false): number {
    const { steps, commas } = this;
    const heads = bytes ? (this.byteHeads ??= this.heads.map(utf8ByteText)) : this.heads;
    let at = start;
    if (text.charCodeAt(at) !== 0x7b) return -1;
    at++;
    let field = 0;
    for (let step = 0; step < steps.length; step++) {
      at = skipSpaces(text, at);
      const head = heads[step]!;
      if (steps[step] === CLOSE) {
        if (text.charCodeAt(at) !== 0x7d) return -1;
        at++;
        continue;
      }
      if (commas[step]) {
        if (text.charCodeAt(at) !== 0x2c) return -1;
        at = skipSpaces(text, at + 1);
      }
      // The key, compared character by character (startsWith per key cost more than the rest).
      const size = head.length;
      for (let i = 0; i < size; i++) if (text.charCodeAt(at + i) !== head.charCodeAt(i)) return -1;
      at = skipSpaces(text, at + size);
      const c = text.charCodeAt(at);
      if (steps[step] === OPEN) {
        if (c !== 0x7b) return -1;
        at++;
        continue;
      }
      if (c === 0x22) {
        const end = stringEnd(text, at + 1, bytes);
        if (end < 0) return -1;
        // Only a text starting with a digit, 10 characters or more, can be a date or a date-time.
        const first = text.charCodeAt(at + 1);
        types[field++] = end - at - 1 >= 10 && first >= 0x30 && first <= 0x39 ? digitStringType(text, at + 1, end) : "text";
        at = end + 1;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const end = numberEnd(text, at);
        if (end < 0) return -1;
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
      } else return -1;
    }
    return at;
  }
}

/** Layouts a book keeps (records of a few shapes, e.g. with and without an optional field). */
const MAX_LAYOUTS = 4;
/** Signatures a book gives at most (then records are read as if it had none: bounded memory, whatever the records). */
const MAX_SIGNATURES = 4096;

/** A layout and the types of a record read by it (a record's signature). */
export interface LayoutSignature {
  layout: RecordLayout;
  types: readonly (WarehouseType | undefined)[];
}

/**
 * The layouts of one table's records in a run — the last few learned, the last one used
 * first — shared by the windows' load-file writers, which learn them, and the scan of each
 * answer as it arrives, which reads by them the records it can (`read`: the record checked in
 * full in that one pass) and keeps what it read as a signature, a number the writer turns
 * back into the layout and the types instead of reading the record a second time.
 */
export class LayoutBook {
  readonly layouts: RecordLayout[] = [];
  private readonly signatures: LayoutSignature[] = [];
  private readonly byLayout = new Map<RecordLayout, number[]>();
  private readonly types: (WarehouseType | undefined)[] = [];
  /** The signature of the record read() read last. */
  tag = -1;

  learn(layout: RecordLayout): void {
    this.layouts.unshift(layout);
    if (this.layouts.length > MAX_LAYOUTS) this.layouts.pop();
  }

  /** The i-th layout was used: it is tried first from now on. */
  use(i: number): void {
    if (i > 0) this.layouts.unshift(...this.layouts.splice(i, 1));
  }

  /**
   * Reads a record given as UTF-8 bytes one per character from `start` (its "{") by one of
   * the layouts: where it ends, its signature in `tag`; -1 when none reads it whole.
   */
  read(text: string, start: number): number {
    const layouts = this.layouts;
    for (let i = 0; i < layouts.length; i++) {
      const layout = layouts[i]!;
      const end = layout.readAt(text, start, this.types, true);
      if (end < 0) continue;
      this.tag = this.sign(layout);
      return this.tag < 0 ? -1 : end;
    }
    return -1;
  }

  signature(tag: number): LayoutSignature {
    return this.signatures[tag]!;
  }

  private sign(layout: RecordLayout): number {
    const cells = layout.keys.length;
    let tags = this.byLayout.get(layout);
    if (tags === undefined) this.byLayout.set(layout, (tags = []));
    for (const tag of tags) if (sameTypes(this.signatures[tag]!.types, this.types, cells)) return tag;
    if (this.signatures.length >= MAX_SIGNATURES) return -1;
    tags.push(this.signatures.length);
    this.signatures.push({ layout, types: this.types.slice(0, cells) });
    return this.signatures.length - 1;
  }
}

/** Whether the first `cells` types of two records are the same. */
export function sameTypes(
  a: readonly (WarehouseType | undefined)[],
  b: readonly (WarehouseType | undefined)[],
  cells: number,
): boolean {
  for (let i = 0; i < cells; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Where the string whose characters begin at `at` ends (its closing quote), or -1 when it
 * holds what the parser must read: a backslash (an escape), a control character (not JSON),
 * a UTF-16 surrogate (a lone one becomes U+FFFD), or with `bytes` anything but well-formed
 * UTF-8. Keys need no such look: they are compared with the layout's, which has none.
 */
function stringEnd(text: string, at: number, bytes: boolean): number {
  for (; ; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x22) return at;
    if (c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff) || Number.isNaN(c)) return -1;
    if (bytes && c >= 0x80) {
      at = sequenceEnd(text, at, c) - 1;
      if (at < 0) return -1;
    }
  }
}

/**
 * Where the UTF-8 sequence that byte `c` begins at `at` ends, or 0 when it is not a
 * well-formed one (Unicode's table 3-7: no overlong form, no surrogate, nothing past U+10FFFF).
 */
function sequenceEnd(text: string, at: number, c: number): number {
  let more: number;
  let low = 0x80;
  let high = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) more = 1;
  else if (c >= 0xe0 && c <= 0xef) {
    more = 2;
    if (c === 0xe0) low = 0xa0;
    else if (c === 0xed) high = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    more = 3;
    if (c === 0xf0) low = 0x90;
    else if (c === 0xf4) high = 0x8f;
  } else return 0;
  const second = text.charCodeAt(at + 1);
  if (!(second >= low && second <= high)) return 0;
  for (let k = 2; k <= more; k++) {
    const next = text.charCodeAt(at + k);
    if (!(next >= 0x80 && next <= 0xbf)) return 0;
  }
  return at + more + 1;
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
  // Looked for within the number only (indexOf would run on through the record).
  let point = start;
  while (point < end && text.charCodeAt(point) !== 0x2e) point++;
  for (let at = point + 1; at < end; at++) if (text.charCodeAt(at) !== 0x30) return "double";
  return "bigint";
}

/**
 * stringType of the string `text[start, end)`, which starts with a digit and has 10 characters
 * or more: a date of the 1st to the 28th of a month of a year from 1000 is told from its
 * characters, without a slice and a regular expression per value; anything else by stringType.
 */
function digitStringType(text: string, start: number, end: number): WarehouseType {
  if (end - start === 10 && text.charCodeAt(start + 4) === 0x2d && text.charCodeAt(start + 7) === 0x2d) {
    let digits = true;
    for (let i = 0; i < DATE_DIGITS.length; i++) if (!isDigit(text.charCodeAt(start + DATE_DIGITS[i]!))) digits = false;
    const digit = (at: number): number => text.charCodeAt(start + at) - 0x30;
    const month = digit(5) * 10 + digit(6);
    const day = digit(8) * 10 + digit(9);
    if (digits && digit(0) >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= 28) return "date";
  }
  return stringType(text.slice(start, end));
}
/** Where a date's digits are (YYYY-MM-DD). */
const DATE_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9];
