import { describe, expect, it } from "vitest";
import { JsonNumber } from "../../src/domain/exact-json.js";
import { extractRecords, type JsonRecord } from "../../src/domain/records.js";
import { ElementSpans, MAX_ELEMENTS } from "../../src/domain/report-element-spans.js";
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

/** The two passes as engines/reports/cache.ts runs them, over `text` cut into pieces of `size`. */
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

/**
 * Pass 1 with `index` over pieces of `size`, then the records cut out of the text by its
 * spans, fed in pieces of `cutSize` (the file is read back in other pieces than it came in).
 */
function spanRecords(text: string, size: number, cutSize: number): JsonRecord[] | undefined {
  const pass1 = new JsonShapeScanner({ index: true });
  for (const piece of chunks(text, size)) pass1.feed(piece);
  const spans = pass1.elementSpans(pass1.end());
  if (!spans) return undefined;
  const records: JsonRecord[] = [];
  const cutter = spans.cutter((t, exact) => records.push(elementRecord(t, exact)));
  for (const piece of chunks(text, cutSize)) cutter.feed(piece);
  expect(cutter.done()).toBe(true);
  return records;
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
      // Pass 1's spans give the same records without a second scan; an answer read whole has none.
      const cut = spanRecords(text, size, SIZES[SIZES.length - 1 - SIZES.indexOf(size)]!);
      if (kind === "array" || kind === "object-with-list") expect(cut).toEqual(expected);
      else expect(cut).toBeUndefined();
    }
  });

  it("cuts records out by pass 1's spans whatever the two chunkings, exact numbers kept exact", () => {
    const text = '{"data":[{"n":12345678901234567890,"s":"a,]}"}, {"n":1e400},{"n":2}]}';
    for (const size of SIZES) {
      for (const cutSize of SIZES) {
        const records = spanRecords(text, size, cutSize)!;
        expect(records.map((r) => (r.n instanceof JsonNumber ? `exact ${r.n.text}` : r.n))).toEqual([
          "exact 12345678901234567890",
          "exact 1e400",
          2,
        ]);
        expect(records[0]!.s).toBe("a,]}");
      }
    }
  });

  it("keeps no spans for a list longer than MAX_ELEMENTS (its records are then found by scanning)", () => {
    const spans = new ElementSpans();
    for (let i = 0; i < MAX_ELEMENTS; i++) spans.add(i, i + 1, false);
    expect(spans.overflowed).toBe(false);
    spans.add(MAX_ELEMENTS, MAX_ELEMENTS + 1, false);
    expect(spans.overflowed).toBe(true);
  });

  it("a text shorter than the spans says so: not every element was found", () => {
    const pass1 = new JsonShapeScanner({ index: true });
    pass1.feed('[{"a":1},{"b":2}]');
    const cutter = pass1.elementSpans(pass1.end())!.cutter(() => undefined);
    cutter.feed('[{"a":1},{"b"');
    expect(cutter.done()).toBe(false);
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

describe("JsonShapeScanner: the exact faults and the edges (issue 27 item 3)", () => {
  function scanError(text: string, size: number): string {
    const scanner = new JsonShapeScanner();
    try {
      for (const piece of chunks(text, size)) scanner.feed(piece);
      scanner.end();
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedJsonError);
      return (error as Error).message;
    }
    throw new Error("expected a MalformedJsonError");
  }

  it.each([
    ['{"a":1,}', 'expected a key, got "}" at character 8'],
    ["{,}", 'expected a key, got "," at character 2'],
    ["{a:1}", 'expected a key, got "a" at character 2'],
    ["[1,]", 'unexpected "]" at character 4'],
    ["[,1]", 'unexpected "," at character 2'],
    ["[1 2]", 'unexpected "2" at character 4'],
    ['{"a":1 "b":2}', 'unexpected "\\"" at character 8'],
    ['{"a"::1}', 'unexpected ":" at character 6'],
    ['{"data" [1]}', 'expected ":", got "[" at character 9'],
    ['{"data":[{"a":1}}}', 'unexpected "}" at character 17'],
    ['{"a":1} {"b":2}', "unexpected text after the document at character 9"],
    ['{"a":"b\nc"}', "control character inside a string at character 8"],
    ['{"a":"b\u001fc"}', "control character inside a string at character 8"],
    ["<html>", 'unexpected "<" at character 1'],
    [" \uFEFF{}", 'unexpected "\uFEFF" at character 2'],
    ['{"data":[{"a":1}', "the document ends too early (after 16 characters)"],
    ['{"a":1', "the document ends too early (after 6 characters)"],
    ['"ab', "the document ends too early (after 3 characters)"],
    ['"ab\\"', "the document ends too early (after 5 characters)"],
    ['{"a\\x":1}', 'malformed key "a\\\\x"'],
  ])("%j: %s, whatever the chunking", (text, message) => {
    for (const size of [1, 3, 1000]) expect(scanError(text, size)).toBe(message);
  });

  it("takes 256 levels, not 257", () => {
    const deep = (n: number): string => "[".repeat(n) + "]".repeat(n);
    const scanner = new JsonShapeScanner();
    scanner.feed(deep(256));
    expect(scanner.end()).toEqual({ kind: "array" });
    expect(scanError(deep(257), 100)).toBe("nested deeper than 256 levels at character 257");
    expect(scanError(`{"a":${"[".repeat(256)}`, 100)).toBe("nested deeper than 256 levels at character 261");
  });

  it("takes 256 levels of objects, not 257", () => {
    const deep = (n: number): string => '{"a":'.repeat(n) + "1" + "}".repeat(n);
    const scanner = new JsonShapeScanner();
    scanner.feed(deep(256));
    expect(scanner.end()).toEqual({ kind: "whole" });
    expect(scanError(deep(257), 100)).toBe("nested deeper than 256 levels at character 1281");
  });

  it("reads JSON whitespace (space, tab, CR, LF) and every kind of scalar", () => {
    for (const size of SIZES) {
      expect(scanRecords('\t\r\n [ 1 ,\t-2.5E+3 ,\r\ntrue , false,null ,"x" ]\r\n', size)).toEqual({
        shape: { kind: "array" },
        records: [{ value: 1 }, { value: -2500 }, { value: true }, { value: false }, { value: null }, { value: "x" }],
      });
    }
  });

  it("a scalar at the top is one record, ended by the end of the text or by whitespace", () => {
    for (const size of [1, 2, 100]) {
      expect(scanRecords("-12.5e-1", size)).toEqual({ shape: { kind: "whole" }, records: [{ value: -1.25 }] });
      expect(scanRecords("true \n", size)).toEqual({ shape: { kind: "whole" }, records: [{ value: true }] });
    }
  });

  it("finds the list under an escaped key, split over chunks, and names its member number", () => {
    for (const size of SIZES) {
      expect(scanRecords('{"n":{"x":[{"y":1}]},"d\\u0061t\\"a":[{"a":1},{"a":2}]}', size)).toEqual({
        shape: { kind: "object-with-list", member: 1 },
        records: [{ a: 1 }, { a: 2 }],
      });
    }
  });

  it("a repeated key names the member that JSON.parse keeps", () => {
    const scanner = new JsonShapeScanner();
    scanner.feed('{"data":[],"x":1,"data":[{"a":1}]}');
    expect(scanner.end()).toEqual({ kind: "object-with-list", member: 2 });
    const dropped = new JsonShapeScanner();
    dropped.feed('{"data":[{"a":1}],"data":5}');
    expect(dropped.end()).toEqual({ kind: "whole" });
  });

  it("captures only the elements of the container it is told, at its own level", () => {
    const seen: string[] = [];
    const scanner = new JsonShapeScanner({ capture: { target: { member: 2 }, onElement: (t) => seen.push(t) } });
    scanner.feed('{"a":[{"no":1}],"b":{"c":[{"no":2}]},"d":[ {"yes":[{"x":1}]} , {"yes":2} ],"e":[{"no":3}]}');
    scanner.end();
    expect(seen).toEqual(['{"yes":[{"x":1}]}', '{"yes":2}']);

    const top: string[] = [];
    const topScanner = new JsonShapeScanner({ capture: { target: "top-array", onElement: (t) => top.push(t) } });
    for (const piece of chunks('[{"a":[1,[2]]}, "s\\"]", 3, [4]]', 2)) topScanner.feed(piece);
    topScanner.end();
    expect(top).toEqual(['{"a":[1,[2]]}', '"s\\"]"', "3", "[4]"]);
  });

  it("elementRecord wraps what is not an object", () => {
    expect(elementRecord('{"a":1}')).toEqual({ a: 1 });
    expect(elementRecord("[1]")).toEqual({ value: [1] });
    expect(elementRecord("null")).toEqual({ value: null });
  });
});
