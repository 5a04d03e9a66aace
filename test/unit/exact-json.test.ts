import { describe, expect, it } from "vitest";
import { exactJsonText, JsonNumber, parseExactJson } from "../../src/domain/exact-json.js";
import { flattenRecord } from "../../src/domain/records.js";
import { elementRecord, JsonShapeScanner } from "../../src/domain/report-record-scanner.js";

// docs/output.md "Numbers": JSON read and written again keeps every number JSON.parse would change.

describe("exact JSON", () => {
  it.each(["9007199254740993", "-9007199254740993", "12345678901234567890", "1e400", "1e-400", "1.00000000000000000001"])(
    "keeps %s as its text, and writes it back as the same token",
    (number) => {
      const text = `{"a":[${number},{"b":${number}}],"c":0.1}`;
      const value = parseExactJson(text) as { a: [JsonNumber, { b: JsonNumber }]; c: number };
      expect(value.a[0]).toEqual(new JsonNumber(number));
      expect(value.c).toBe(0.1);
      expect(exactJsonText(value)).toBe(text);
      expect(exactJsonText(value, 2)).toContain(`"b": ${number}\n`);
    },
  );

  it("leaves numbers JSON.parse keeps exactly as plain numbers", () => {
    expect(parseExactJson('{"a":1234567890123456,"b":0.30000000000000004,"c":1e300}')).toEqual({
      a: 1234567890123456,
      b: 0.30000000000000004,
      c: 1e300,
    });
  });

  it("a __proto__ key is a field of its own, as JSON.parse reads it, never the object's prototype", () => {
    const text = '{"__proto__":{"polluted":9007199254740993},"k":1}';
    const value = parseExactJson(text) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "k"]);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(exactJsonText(value)).toBe(text);
    expect(flattenRecord(value)).toEqual({ "__proto__.polluted": new JsonNumber("9007199254740993"), k: 1 });
  });

  it("a string of the data never passes for a kept number", () => {
    const forged = { s: "\u0000abc:123", n: new JsonNumber("9007199254740993") };
    expect(exactJsonText(forged)).toBe('{"s":"\\u0000abc:123","n":9007199254740993}');
  });

  it("flattening keeps the number as a cell of its own, and its text in a list", () => {
    const record = parseExactJson('{"a":{"b":9007199254740993},"l":[9007199254740993,2]}') as Record<string, unknown>;
    expect(flattenRecord(record)).toEqual({ "a.b": new JsonNumber("9007199254740993"), l: "9007199254740993;2" });
  });
});

describe("the record scanner marks the records that need the exact parser", () => {
  const marks = (text: string, size: number): boolean[] => {
    const out: boolean[] = [];
    const scanner = new JsonShapeScanner({ capture: { target: "top-array", onElement: (_t, exact) => out.push(exact) } });
    for (let i = 0; i < text.length; i += size) scanner.feed(text.slice(i, i + size));
    scanner.end();
    return out;
  };
  const text =
    '[{"a":9007199254740993},{"a":1e400},{"a":-1E-999},{"a":123456789012345,"s":"9007199254740993"},{"a":12.5,"b":true},9007199254740993]';
  it.each([1, 7, 4096])("a long number or an exponent, never a long string (chunks of %i)", (size) => {
    const expected = [true, true, true, false, false, true];
    const got = marks(text, size);
    // Every one that needs it is marked; a number cut by a chunk boundary is marked too (its
    // first characters are gone): only more work, so whole chunks mark exactly.
    expect(got.map((mark, i) => mark && expected[i])).toEqual(expected);
    if (size === 4096) expect(got).toEqual(expected);
  });

  it("a marked record keeps its numbers; an unmarked one is read by JSON.parse", () => {
    expect(elementRecord('{"a":9007199254740993}', true)).toEqual({ a: new JsonNumber("9007199254740993") });
    expect(elementRecord('{"a":2.5}', false)).toEqual({ a: 2.5 });
  });
});
