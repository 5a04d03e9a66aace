import { describe, expect, it } from "vitest";
import { jsonChunks, jsonText } from "../../src/output/json-text.js";

// JSON text as every format writes it (src/output/json-text.ts): the escapes JSON.stringify
// leaves out, and how far jsonChunks splits a value.

describe("jsonText", () => {
  it("escapes DEL and the C1 controls, from U+007F to U+009F, and nothing around them", () => {
    expect(jsonText("~\u007f\u0080\u009b\u009f\u00a0é")).toBe('"~\\u007f\\u0080\\u009b\\u009f\u00a0é"');
  });

  it("escapes every one of them, not only the first", () => {
    expect(jsonText(["\u0085", "\u0085"])).toBe('["\\u0085","\\u0085"]');
  });

  it("indents as JSON.stringify does when asked", () => {
    expect(jsonText({ a: [1] }, 2)).toBe('{\n  "a": [\n    1\n  ]\n}');
  });
});

describe("jsonChunks", () => {
  it("splits arrays and objects down to the depth given, no further", () => {
    expect([...jsonChunks({ a: { b: 1 }, c: [2] }, 1)]).toEqual(["{", '"a":', '{"b":1}', ',"c":', "[2]", "}"]);
    expect([...jsonChunks([{ b: 1 }, 2], 2)]).toEqual(["[", "{", '"b":', "1", "}", ",", "2", "]"]);
    expect([...jsonChunks({ a: 1 }, 0)]).toEqual(['{"a":1}']);
  });

  it("splits three levels deep by default", () => {
    expect([...jsonChunks({ a: { b: { c: { d: 1 } } } })]).toEqual([
      "{",
      '"a":',
      "{",
      '"b":',
      "{",
      '"c":',
      '{"d":1}',
      "}",
      "}",
      "}",
    ]);
  });

  it("leaves out members JSON.stringify leaves out: undefined, functions, symbols", () => {
    const value = { a: undefined, f: () => 1, s: Symbol("x"), b: 1 };
    expect([...jsonChunks(value)].join("")).toBe('{"b":1}');
  });

  it("writes an object with toJSON (a date) as toJSON says, not as its members", () => {
    expect([...jsonChunks({ at: new Date("2026-10-01T00:00:00Z") })].join("")).toBe('{"at":"2026-10-01T00:00:00.000Z"}');
  });

  it("escapes keys and values as jsonText does", () => {
    expect([...jsonChunks({ "k\u009b": ["v\u007f"] })].join("")).toBe('{"k\\u009b":["v\\u007f"]}');
  });
});
