import { describe, expect, it } from "vitest";
import { holdsAsSent, isRecordObject, keysInText, keysInValue, kindOf } from "../../src/commands/reports-sync/as-sent.js";
import { JsonNumber } from "../../src/domain/exact-json.js";

// Whether DuckDB may read a window's columns straight from the records' JSON
// (docs/reports-sync.md, "How a window is loaded"): the kind of JSON value each column type
// takes as sent, and the key counts that tell a record with a repeated key. Expected values
// written by hand.

const STRING = 1;
const NUMBER = 2;
const BOOLEAN = 4;

describe("kindOf", () => {
  it("text, date and timestamp columns take strings; bigint and double numbers; boolean booleans", () => {
    expect(kindOf("text")).toBe(STRING);
    expect(kindOf("date")).toBe(STRING);
    expect(kindOf("timestamp")).toBe(STRING);
    expect(kindOf("bigint")).toBe(NUMBER);
    expect(kindOf("double")).toBe(NUMBER);
    expect(kindOf("boolean")).toBe(BOOLEAN);
  });

  it("a system column or a field without a type takes no kind as sent", () => {
    expect(kindOf("system")).toBe(0);
    expect(kindOf(undefined)).toBe(0);
  });
});

describe("holdsAsSent", () => {
  it("a field that never had a value fits any column", () => {
    expect(holdsAsSent("bigint", 0)).toBe(true);
    expect(holdsAsSent(undefined, 0)).toBe(true);
  });

  it("values of the one kind the column takes fit", () => {
    expect(holdsAsSent("text", STRING)).toBe(true);
    expect(holdsAsSent("double", NUMBER)).toBe(true);
    expect(holdsAsSent("boolean", BOOLEAN)).toBe(true);
  });

  it("values of another kind, or of two kinds, do not", () => {
    expect(holdsAsSent("text", NUMBER)).toBe(false);
    expect(holdsAsSent("bigint", STRING)).toBe(false);
    expect(holdsAsSent("text", STRING | NUMBER)).toBe(false);
    expect(holdsAsSent("system", STRING)).toBe(false);
  });
});

describe("keysInText", () => {
  it("counts the keys of every level", () => {
    expect(keysInText('{"a":1,"b":{"c":2,"d":[{"e":3}]}}')).toBe(5);
    expect(keysInText('{"a":"x","a":"y"}')).toBe(2);
    expect(keysInText("[1,2]")).toBe(0);
    expect(keysInText("{}")).toBe(0);
  });

  it("a colon inside a string value is no key", () => {
    expect(keysInText('{"t":"10:30","u":"a, b"}')).toBe(2);
  });

  it("with spaces between a key and its colon", () => {
    expect(keysInText('{"a" :1, "b"\t: {"c"\n:2}}')).toBe(3);
    expect(keysInText('["a" , "b"]')).toBe(0);
  });

  it("an escaped quote before a colon ends no key; an escaped backslash before the quote does", () => {
    // The key k":x (one escaped quote inside it) and the key a\ (an escaped backslash at its end).
    expect(keysInText('{"k\\":x":1,"a\\\\":2}')).toBe(2);
    // A value with an escaped quote followed by a colon.
    expect(keysInText('{"v":"say \\": here"}')).toBe(1);
    // Three backslashes: an escaped backslash, then an escaped quote.
    expect(keysInText('{"w":"x\\\\\\": y"}')).toBe(1);
    // Escapes and spaces before the colon.
    expect(keysInText('{"p\\n" : "q\\"" , "r" :1}')).toBe(2);
  });
});

describe("keysInValue", () => {
  it("counts the keys of nested objects, not of arrays, numbers kept exact, or null", () => {
    const record = {
      a: 1,
      b: { c: 2, d: [{ e: 3 }] },
      f: null,
      g: new JsonNumber("1.50"),
      h: "x",
    };
    expect(keysInValue(record)).toBe(7);
    expect(keysInValue({})).toBe(0);
  });

  it("a repeated key parses to fewer keys than the text has", () => {
    const text = '{"a":"x","b":{"c":1},"a":"y"}';
    expect(keysInText(text)).toBe(4);
    expect(keysInValue(JSON.parse(text) as Record<string, unknown>)).toBe(3);
  });
});

describe("isRecordObject", () => {
  it("a plain object is a record; null, an array, an exact number and plain values are not", () => {
    expect(isRecordObject({})).toBe(true);
    expect(isRecordObject({ a: 1 })).toBe(true);
    expect(isRecordObject(null)).toBe(false);
    expect(isRecordObject([])).toBe(false);
    expect(isRecordObject([{ a: 1 }])).toBe(false);
    expect(isRecordObject(new JsonNumber("2"))).toBe(false);
    expect(isRecordObject("a")).toBe(false);
    expect(isRecordObject(1)).toBe(false);
    expect(isRecordObject(undefined)).toBe(false);
  });
});
