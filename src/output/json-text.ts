import { exactJsonText } from "../domain/exact-json.js";
import { isPlainObject } from "../domain/records.js";

// JSON text as every format writes it: one place that escapes what JSON.stringify leaves raw
// and writes numbers JSON.parse would have changed as the service wrote them (exact-json.ts).

/**
 * JSON.stringify escapes C0 controls but leaves DEL and C1 controls (e.g. 0x9b, a CSI) raw;
 * escaping them too keeps the document valid and harmless on a terminal.
 */
export function jsonText(value: unknown, indent?: number): string {
  return escapeC1(exactJsonText(value, indent));
}

/**
 * DEL and the C1 controls of JSON text escaped. They can only stand inside its strings, so
 * text joined from pieces may be escaped once as a whole (json-writer.ts: once per 64 KiB,
 * not once per record).
 */
export function escapeC1(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * JSON text of `value` in pieces, identical when joined to `jsonText(value)`: arrays and
 * objects down to `depth` levels are split into their members, so a window's response of
 * tens of megabytes is written without ever being one string.
 */
export function* jsonChunks(value: unknown, depth = 3): Generator<string> {
  if (depth > 0 && Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      // JSON.stringify writes null for array holes and undefined items.
      yield* value[i] === undefined ? ["null"] : jsonChunks(value[i], depth - 1);
    }
    yield "]";
    return;
  }
  if (depth > 0 && isPlainObject(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function") {
    yield "{";
    let first = true;
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      yield `${first ? "" : ","}${jsonText(key)}:`;
      first = false;
      yield* jsonChunks(member, depth - 1);
    }
    yield "}";
    return;
  }
  yield jsonText(value);
}
