import { describe, expect, it } from "vitest";
import { extractRecords, type JsonRecord } from "../../src/domain/records.js";
import {
  elementRecord,
  JsonShapeScanner,
  MalformedJsonError,
  type ResponseShape,
} from "../../src/domain/report-record-scanner.js";

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The two passes as commands/reports/cache.ts runs them, over `text` cut into pieces of `size`. */
function scanRecords(text: string, size: number): { shape: ResponseShape; records: JsonRecord[] } {
  const pass1 = new JsonShapeScanner();
  for (const piece of chunks(text, size)) pass1.feed(piece);
  const shape = pass1.end();
  if (shape.kind === "empty") return { shape, records: [] };
  if (shape.kind === "whole") return { shape, records: extractRecords(JSON.parse(text)) };
  const records: JsonRecord[] = [];
  const pass2 = new JsonShapeScanner({
    capture: {
      target: shape.kind === "array" ? "top-array" : { member: shape.member },
      onElement: (t) => records.push(elementRecord(t)),
    },
  });
  for (const piece of chunks(text, size)) pass2.feed(piece);
  pass2.end();
  return { shape, records };
}

const SIZES = [1, 2, 7, 64, 1_000_000];

describe("JsonShapeScanner finds the records as extractRecords does, whatever the chunking", () => {
  it.each<[string, string, ResponseShape["kind"], unknown[]]>([
    ["a v1 answer", '{"data":[{"a":1},{"b":{"c":[1,2]}}]}', "object-with-list", [{ a: 1 }, { b: { c: [1, 2] } }]],
    [
      "a v2 answer with metadata around the list",
      '{"reportType":"x","n":-1.5e3,"ok":true,"z":null,"data":[{"a":1},{"a":2}],"after":{"k":[{"x":1}]}}',
      "object-with-list",
      [{ a: 1 }, { a: 2 }],
    ],
    [
      "pretty-printed",
      '{\n  "data": [\n    {"a": 1},\n    {"a": [ {"deep": "]"} ]}\n  ]\n}\n',
      "object-with-list",
      [{ a: 1 }, { a: [{ deep: "]" }] }],
    ],
    [
      "strings with brackets, quotes and escapes",
      '{"data":[{"s":"a\\"]}[{,\\\\"},{"t":"\\u005d\\n"}]}',
      "object-with-list",
      [{ s: 'a"]}[{,\\' }, { t: "]\n" }],
    ],
    ["non-ASCII text", '{"data":[{"n":"Région ✓ 😀"},{"n":"日本"}]}', "object-with-list", [{ n: "Région ✓ 😀" }, { n: "日本" }]],
    ["a list beside an array of scalars", '{"tags":["a","b"],"data":[{"x":1}]}', "object-with-list", [{ x: 1 }]],
    ["an empty list", '{"generatedAt":"t","data":[]}', "object-with-list", []],
    [
      "a repeated key (the last one wins, as in JSON.parse)",
      '{"data":[{"a":1}],"data":[{"b":2}]}',
      "object-with-list",
      [{ b: 2 }],
    ],
    [
      "a top-level array, scalars becoming { value }",
      '[{"a":1}, 2, "s", null, [1], {"b":{}}]',
      "array",
      [{ a: 1 }, { value: 2 }, { value: "s" }, { value: null }, { value: [1] }, { b: {} }],
    ],
    ["an empty top-level array", "[]", "array", []],
    ["two lists: the object is one record", '{"a":[{"x":1}],"b":[{"y":2}]}', "whole", [{ a: [{ x: 1 }], b: [{ y: 2 }] }]],
    // An empty array is not a second record list (issue 27 item 3).
    ["an empty list beside a list: the list", '{"data":[],"rows":[{"a":1}]}', "object-with-list", [{ a: 1 }]],
    ["a list beside empty warnings: the list", '{"data":[{"a":1}],"warnings":[]}', "object-with-list", [{ a: 1 }]],
    ["two empty lists: one record", '{"data":[],"warnings":[]}', "whole", [{ data: [], warnings: [] }]],
    ["an object without a list: one record", '{"a":1,"b":{"c":2}}', "whole", [{ a: 1, b: { c: 2 } }]],
    ["a list of mixed items: one record", '{"data":[{"a":1},2]}', "whole", [{ data: [{ a: 1 }, 2] }]],
    ["a string", '"text"', "whole", [{ value: "text" }]],
    ["a number", "42", "whole", [{ value: 42 }]],
    ["null", "null", "whole", []],
    ["an empty string", '""', "whole", []],
    ["a byte-order mark first", '\uFEFF{"data":[{"a":1}]}', "object-with-list", [{ a: 1 }]],
  ])("%s", (_name, text, kind, expected) => {
    // The same records extractRecords gives for the parsed answer (written out, not computed).
    expect(extractRecords(JSON.parse(text.replace(/^\uFEFF/, "")))).toEqual(expected);
    for (const size of SIZES) {
      const { shape, records } = scanRecords(text, size);
      expect(shape.kind).toBe(kind);
      expect(records).toEqual(expected);
    }
  });

  it("takes the non-empty list beside an empty one, as written out", () => {
    for (const size of SIZES) {
      expect(scanRecords('{"warnings":[],"data":[{"a":1},{"a":2}]}', size).records).toEqual([{ a: 1 }, { a: 2 }]);
      expect(scanRecords('{"data":[],"total":0}', size).records).toEqual([]);
    }
  });

  it("gives no records for an empty answer", () => {
    expect(scanRecords("", 10)).toEqual({ shape: { kind: "empty" }, records: [] });
    expect(scanRecords("  \n", 1)).toEqual({ shape: { kind: "empty" }, records: [] });
  });

  it("keeps thousands of records in order across many chunks", () => {
    const data = Array.from({ length: 5000 }, (_, i) => ({ i, name: `n${i}`, nested: { list: [i, { j: i }] } }));
    const text = JSON.stringify({ reportType: "users", data });
    expect(scanRecords(text, 4096).records).toEqual(data);
  });

  it.each([
    ["a cut-off answer", '{"data":[{"a":1}'],
    ["an extra closing bracket", '{"data":[{"a":1}]]}'],
    ["a mismatched bracket", '{"data":[{"a":1}}}'],
    ["a missing colon", '{"data" [1]}'],
    ["a trailing comma in an object", '{"a":1,}'],
    ["a trailing comma in an array", "[1,]"],
    ["an unquoted key", "{a:1}"],
    ["text after the document", '{"a":1} {"b":2}'],
    ["an unterminated string", '{"a":"b'],
    ["a raw line break inside a string", '{"a":"b\nc"}'],
    ["an HTML error page", "<html>Bad gateway</html>"],
  ])("rejects %s", (_name, text) => {
    for (const size of [1, 5, 1000]) {
      const scanner = new JsonShapeScanner();
      expect(() => {
        for (const piece of chunks(text, size)) scanner.feed(piece);
        scanner.end();
      }).toThrow(MalformedJsonError);
    }
  });
});
