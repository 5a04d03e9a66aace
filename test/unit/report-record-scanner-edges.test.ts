import { describe, expect, it } from "vitest";
import { elementRecord, JsonShapeScanner, MalformedJsonError } from "../../src/domain/report-record-scanner.js";

// Edges of the streaming scanner found under mutation testing (issue 27): chunk boundaries at
// every position, capture targets that do not match the document, text cut off mid-element.

/** Pass 2 over `pieces`: the captured element texts and the shape, or the fault. */
function capture(target: "top-array" | { member: number }, pieces: string[]): { elements: string[]; result: string } {
  const elements: string[] = [];
  const scanner = new JsonShapeScanner({ capture: { target, onElement: (t) => elements.push(t) } });
  try {
    for (const piece of pieces) scanner.feed(piece);
    return { elements, result: JSON.stringify(scanner.end()) };
  } catch (error) {
    expect(error).toBeInstanceOf(MalformedJsonError);
    return { elements, result: (error as Error).message };
  }
}

/** `text` cut in two at every position, and in three around every pair of positions one apart. */
function splits(text: string): string[][] {
  const out: string[][] = [];
  for (let k = 0; k <= text.length; k++) out.push([text.slice(0, k), text.slice(k)]);
  for (let k = 1; k < text.length; k++) out.push([text.slice(0, k), text.slice(k, k + 1), text.slice(k + 1)]);
  return out;
}

describe("JsonShapeScanner at every chunk boundary", () => {
  it("hands over the same elements, whole, wherever the text is cut", () => {
    const text = '{"n":{"xx":[1]},"d\\"a":[{"a":"b"},{"c":[1,{"d":2}]},{}],"e":[]}';
    for (const pieces of splits(text)) {
      expect(capture({ member: 1 }, pieces)).toEqual({
        elements: ['{"a":"b"}', '{"c":[1,{"d":2}]}', "{}"],
        result: '{"kind":"object-with-list","member":1}',
      });
    }
    const top = '[ "x" , 12 ,[true],{"k":null} ]';
    for (const pieces of splits(top)) {
      expect(capture("top-array", pieces)).toEqual({
        elements: ['"x"', "12", "[true]", '{"k":null}'],
        result: '{"kind":"array"}',
      });
    }
  });

  it("reads every top-level key whole wherever it is cut, nested keys between them included", () => {
    // The repeated key is recognised only if both are read exactly: then the last list wins.
    const text = '{"data":[{"a":1}],"n":{"xyz":{"q":1}},"data":[{"b":2}]}';
    for (const pieces of splits(text)) {
      const scanner = new JsonShapeScanner();
      for (const piece of pieces) scanner.feed(piece);
      expect(scanner.end()).toEqual({ kind: "object-with-list", member: 2 });
    }
  });
});

describe("JsonShapeScanner's skips over strings and numbers, at every chunk boundary", () => {
  /** Pass 2's elements with their exact flags, or the fault. */
  function exactCapture(pieces: string[]): string {
    const elements: string[] = [];
    const scanner = new JsonShapeScanner({
      capture: { target: "top-array", onElement: (t, exact) => elements.push(`${t}:${exact}`) },
    });
    try {
      for (const piece of pieces) scanner.feed(piece);
      scanner.end();
      return elements.join(" ");
    } catch (error) {
      return (error as Error).message;
    }
  }

  it("finds each string's end past escaped quotes and backslashes, and each number's end, however cut", () => {
    const text = String.raw`[{"k\\":"a\\\"b\\","l":"\u0022}]"},{"n":12345.5e1,"m":-1e400},{"x":12345678901234567},"é\"",7]`;
    const whole = exactCapture([text]);
    expect(whole).toBe(
      String.raw`{"k\\":"a\\\"b\\","l":"\u0022}]"}:false {"n":12345.5e1,"m":-1e400}:true {"x":12345678901234567}:true "é\"":false 7:false`,
    );
    for (const pieces of splits(text)) expect(exactCapture(pieces)).toBe(whole);
  });

  it("refuses a control character inside a string at its own position, however cut, after an escape too", () => {
    for (const text of ['[{"a":"xy\u0001z"}]', String.raw`[{"a":"x\\n` + '\u0007"}]', String.raw`["ok","\t` + '\u001f"]']) {
      const whole = exactCapture([text]);
      expect(whole).toMatch(/^control character inside a string at character \d+$/);
      for (const pieces of splits(text)) expect(exactCapture(pieces)).toBe(whole);
    }
  });
});

describe("JsonShapeScanner edges", () => {
  it("reads a run of letters (a-z, A-Z), digits and + - . as one loose scalar", () => {
    expect(capture("top-array", ["[zA,Z,a9+-.e,0]"])).toEqual({
      elements: ["zA", "Z", "a9+-.e", "0"],
      result: '{"kind":"array"}',
    });
  });

  it("refuses a bracket that does not close the container it ends", () => {
    expect(capture("top-array", ['{"a":1]'])).toEqual({ elements: [], result: 'unexpected "]" at character 7' });
    expect(capture("top-array", ["[1}"])).toEqual({ elements: ["1"], result: 'unexpected "}" at character 3' });
  });

  it("skips a byte-order mark only at the very first character, not at the start of a later chunk's offset", () => {
    // The mark is at index 2 of the second chunk, which starts at offset 2.
    expect(capture("top-array", ["[1", ", \uFEFF2]"])).toEqual({
      elements: ["1"],
      result: 'unexpected "\uFEFF" at character 5',
    });
  });

  it("captures nothing when the target container is not in the document", () => {
    expect(capture("top-array", ['{"a":1,"b":[2]}'])).toEqual({ elements: [], result: '{"kind":"whole"}' });
    expect(capture({ member: 0 }, ['{"a":{"b":1,"c":[2]}}'])).toEqual({ elements: [], result: '{"kind":"whole"}' });
    expect(capture({ member: 0 }, ["[[1],[2]]"])).toEqual({ elements: [], result: '{"kind":"array"}' });
  });

  it("does not hand over an element cut off by the end of the text", () => {
    for (const pieces of [["[1,2"], ["[1,", "2"], ["[1", ",2"]]) {
      expect(capture("top-array", pieces)).toEqual({
        elements: ["1"],
        result: "the document ends too early (after 4 characters)",
      });
    }
    expect(capture("top-array", ['[1,"ab'])).toEqual({
      elements: ["1"],
      result: "the document ends too early (after 6 characters)",
    });
    expect(capture({ member: 0 }, ['{"d":[{"a":1},{"a":2'])).toEqual({
      elements: ['{"a":1}'],
      result: "the document ends too early (after 20 characters)",
    });
  });

  it("checks top-level keys only; keys inside records are left to JSON.parse of each record", () => {
    const text = '{"data":[{"b\\x":1}]}';
    expect(capture({ member: 0 }, [text])).toEqual({
      elements: ['{"b\\x":1}'],
      result: '{"kind":"object-with-list","member":0}',
    });
    expect(() => elementRecord('{"b\\x":1}')).toThrow(SyntaxError);
  });

  it("names a malformed key by its first 40 characters", () => {
    const key = `\\x${"a".repeat(50)}`;
    expect(capture("top-array", [`{"${key}":1}`])).toEqual({
      elements: [],
      result: 'malformed key "\\\\xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"',
    });
  });
});

describe("JsonShapeScanner over bytes (`bytes`: UTF-8 bytes one per character)", () => {
  const asBytes = (text: string): string => Buffer.from(text, "utf8").toString("latin1");
  function scanBytes(pieces: string[]): { shape: string; elements: string[] } {
    const scanner = new JsonShapeScanner({ index: true, bytes: true });
    try {
      for (const piece of pieces) scanner.feed(piece);
      const shape = scanner.end();
      const elements: string[] = [];
      const cutter = scanner.elementSpans(shape)?.cutter((t) => elements.push(t));
      for (const piece of pieces) cutter?.feed(piece);
      return { shape: JSON.stringify(shape), elements };
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedJsonError);
      return { shape: (error as Error).message, elements: [] };
    }
  }

  it("finds each record's bytes wherever the text is cut, a byte-order mark before it skipped", () => {
    const records = [`{"n":"Chloé","c":"中"}`, `{"n":"\ud83d\ude00"}`, `{"n":"x"}`];
    const text = asBytes(`\ufeff{"généré":"é","data":[${records.join(",")}]}`);
    for (const pieces of splits(text)) {
      expect(scanBytes(pieces)).toEqual({ shape: '{"kind":"object-with-list","member":1}', elements: records.map(asBytes) });
    }
  });

  it("decodes top-level keys from UTF-8: a repeated key written two ways is one key", () => {
    expect(scanBytes([asBytes(`{"é":[{"a":1}],"\\u00e9":5}`)]).shape).toBe('{"kind":"whole"}');
    expect(scanBytes([asBytes(`{"é":[{"a":1}],"e":5}`)]).shape).toBe('{"kind":"object-with-list","member":0}');
  });

  it("says where a fault is in bytes, a byte beyond ASCII by its value", () => {
    expect(scanBytes([asBytes(`[1,é]`)]).shape).toBe("unexpected byte 0xc3 at byte 4");
    expect(scanBytes([asBytes(`{"é":1`)]).shape).toBe("the document ends too early (after 7 bytes)");
    for (const pieces of splits("\xef\xbb[1]")) expect(scanBytes(pieces).shape).toBe("an incomplete byte-order mark at byte 3");
    expect(scanBytes(["\xef[1]"]).shape).toBe("an incomplete byte-order mark at byte 2");
    expect(scanBytes([" \xef\xbb\xbf[1]"]).shape).toBe("unexpected byte 0xef at byte 2");
  });
});

describe("JsonShapeScanner with a reader of the elements (pass 1, `elements`)", () => {
  /** A reader of `{"r":<digit>}` only, tagging each with its digit; what it read, where. */
  function reader(): { read(chunk: string, at: number): number; tag: number; asked: string[] } {
    return {
      tag: -1,
      asked: [],
      read(chunk: string, at: number): number {
        this.asked.push(chunk.slice(at, at + 3));
        const match = /^\{"r":(\d)\}/.exec(chunk.slice(at));
        if (match === null) return -1;
        this.tag = Number(match[1]);
        return at + match[0].length;
      },
    };
  }
  function scan(pieces: string[], elements = reader()) {
    const scanner = new JsonShapeScanner({ index: true, elements });
    for (const piece of pieces) scanner.feed(piece);
    const shape = scanner.end();
    const out: [string, number][] = [];
    const cutter = scanner.elementSpans(shape)!.cutter((text, _exact, tag) => out.push([text, tag]));
    for (const piece of pieces) cutter.feed(piece);
    return { shape, out, asked: elements.asked };
  }

  it("notes the records it reads with their tag and goes on after them; the others are scanned as always", () => {
    const { shape, out, asked } = scan(['[{"r":1},{"x":{"r":2}},{"r":3} ,4,{"r":5}]']);
    expect(shape).toEqual({ kind: "array" });
    expect(out).toEqual([
      ['{"r":1}', 1],
      ['{"x":{"r":2}}', -1],
      ['{"r":3}', 3],
      ["4", -1],
      ['{"r":5}', 5],
    ]);
    // Only the list's elements are offered: not an object inside a record, not a top-level member.
    expect(asked).toEqual(['{"r', '{"x', '{"r', '{"r']);
    const member = scan(['{"n":{"r":7},"l":[{"r":1}]}']);
    expect(member.shape).toEqual({ kind: "object-with-list", member: 1 });
    expect(member.out).toEqual([['{"r":1}', 1]]);
    expect(member.asked).toEqual(['{"r']);
  });

  it("a record the reader could not read whole in its chunk is scanned, whatever the cut", () => {
    const text = '[{"r":1},{"r":2}]';
    for (const pieces of splits(text)) expect(scan(pieces).out.map(([t]) => t)).toEqual(['{"r":1}', '{"r":2}']);
  });

  it("what follows a record it read is still checked", () => {
    expect(() => scan(['[{"r":1} {"r":2}]'])).toThrow('unexpected "{" at character 10');
    expect(() => scan(['[{"r":1}'])).toThrow("the document ends too early");
  });
});
