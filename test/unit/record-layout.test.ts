import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FieldRegistry, WindowLoadWriter, type WindowLoadResult } from "../../src/commands/reports-sync/load-file.js";
import { LayoutBook, RecordLayout } from "../../src/domain/record-layout.js";
import type { WarehouseType } from "../../src/domain/warehouse-values.js";

// Records laid out like one parsed before are read without parsing (domain/record-layout.ts;
// docs/reports-sync.md, "How a window is loaded"): their types come from the text, and
// anything unusual goes to the parser. Every expected value below is written by hand.

const KEYS = ["id", "user\u0001name", "user\u0001team", "day", "n", "ok", "note"];
const VALUE = { id: "r1", user: { name: "Ann", team: "A" }, day: "2026-01-02", n: 1, ok: true, note: null };

function read(text: string, layout = RecordLayout.learn(VALUE, KEYS)!): (WarehouseType | undefined)[] | false {
  const types: (WarehouseType | undefined)[] = [];
  return layout.read(text, types) ? types : false;
}

describe("RecordLayout", () => {
  it("reads the types of a record with the same keys in the same order", () => {
    expect(read(`{"id":"r2","user":{"name":"Bob","team":"B"},"day":"2026-01-03","n":2.5,"ok":false,"note":"x"}`)).toEqual([
      "text",
      "text",
      "text",
      "date",
      "double",
      "boolean",
      "text",
    ]);
    expect(
      read(
        ` { "id":"2026-01-02T10:00:00Z", "user":{"name":null,"team":"2026-02-30"},"day":"2026-01-03 11:30","n":-0,"ok":true,"note":2.00 } `,
      ),
    ).toEqual(["timestamp", undefined, "text", "timestamp", "bigint", "boolean", "bigint"]);
    expect(read(`{"id":"","user":{"name":"1234567890","team":"x"},"day":"","n":123456789012345,"ok":null,"note":-12.5}`)).toEqual(
      ["text", "text", "text", "text", "bigint", undefined, "double"],
    );
  });

  it("leaves to the parser whatever it does not read itself", () => {
    for (const text of [
      `{"id":"r\\"2","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null}`, // an escape
      `{"id":"a\u0001b","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null}`, // a control character
      `{"id":"\ud83d\ude00","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null}`, // a surrogate pair
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null}\n`, // a line break
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1e2,"ok":true,"note":null}`, // an exponent
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1234567890123456,"ok":true,"note":null}`, // 16 characters
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":01,"ok":true,"note":null}`, // not JSON
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1.,"ok":true,"note":null}`,
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":-,"ok":true,"note":null}`,
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":tru,"note":null}`,
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":truex,"note":null}`,
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":[1],"ok":true,"note":null}`, // a list
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":{"m":1},"ok":true,"note":null}`, // an object for a value
      `{"id":"r","user":"B","day":"d","n":1,"ok":true,"note":null}`, // a value for an object
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","ok":true,"n":1,"note":null}`, // another order
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true}`, // a key fewer
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null,"x":1}`, // a key more
      `{"id":"r","user":{"name":"B","team":"B","x":1},"day":"d","n":1,"ok":true,"note":null}`,
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null}x`, // text after it
      `{"id":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":"open`, // cut short
      `{"ID":"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null}`, // another case
      `{"id" :"r","user":{"name":"B","team":"B"},"day":"d","n":1,"ok":true,"note":null}`, // a space before the colon
      `["id"]`,
    ])
      expect(read(text), text).toBe(false);
  });

  it("reads a record's UTF-8 bytes given one per character: well-formed sequences, not what TextDecoder would replace", () => {
    const layout = RecordLayout.learn({ k: "x", é: "y" }, ["k", "é"])!;
    const bytes = (text: string): string => Buffer.from(text, "utf8").toString("latin1");
    const readBytes = (text: string): (WarehouseType | undefined)[] | false => {
      const types: (WarehouseType | undefined)[] = [];
      return layout.read(text, types, true) ? types : false;
    };
    // The key "é" is compared as its bytes; values of 2, 3 and 4 bytes a character are read.
    expect(readBytes(bytes(`{"k":"Chloé","é":"2026-01-02"}`))).toEqual(["text", "date"]);
    expect(readBytes(bytes(`{"k":"€ 中","é":"\ud83d\ude00"}`))).toEqual(["text", "text"]);
    expect(readBytes(bytes(`{"k":"x","é":"\u{10ffff}"}`))).toEqual(["text", "text"]);
    // As text, the same record's "é" is one character: the byte form is not that text.
    expect(readBytes(`{"k":"x","é":"y"}`)).toBe(false);
    for (const value of [
      "\x80", // a continuation byte alone
      "\xc3", // a sequence cut short by the quote
      "\xc3(", // a lead byte and no continuation
      "\xc0\x80", // an overlong form of NUL
      "\xe0\x80\x80", // an overlong three-byte form
      "\xed\xa0\x80", // a surrogate (U+D800)
      "\xf4\x90\x80\x80", // beyond U+10FFFF
      "\xf0\x80\x80\x80", // an overlong four-byte form
      "\xf8\x88\x80\x80\x80", // no such lead byte
      "\xff",
    ])
      expect(readBytes(`{"k":"a${value}b",${bytes('"é"')}:"y"}`), JSON.stringify(value)).toBe(false);
  });

  it("tells dates from their characters as stringType does", () => {
    const layout = RecordLayout.learn({ d: "x" }, ["d"])!;
    const type = (value: string): WarehouseType | undefined | false => {
      const types: (WarehouseType | undefined)[] = [];
      return layout.read(`{"d":"${value}"}`, types) && types[0];
    };
    const dates = ["2026-01-01", "2026-12-28", "1000-10-19", "2024-02-29", "2026-01-31"];
    expect(dates.map(type)).toEqual(["date", "date", "date", "date", "date"]);
    const texts = [
      "0999-01-01",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
      "2025-02-29",
      "2026-04-31",
      "2026-1-011",
      "2026/01/01",
    ];
    expect(texts.map(type)).toEqual(texts.map(() => "text"));
    expect(type("2026-01-02T10:00:00Z")).toBe("timestamp");
  });

  it("a whole number's type is its own, whatever follows it in the record", () => {
    const layout = RecordLayout.learn({ n: 1, m: 1.5 }, ["n", "m"])!;
    const types: (WarehouseType | undefined)[] = [];
    expect(layout.read(`{"n":7,"m":2.5}`, types)).toBe(true);
    expect(types).toEqual(["bigint", "double"]);
  });

  it("is not learned from a record whose keys are array indexes (JavaScript enumerates them first)", () => {
    expect(RecordLayout.learn({ b: 1, 2: "x" }, ["2", "b"])).toBeUndefined();
    expect(RecordLayout.learn({ a: { 0: 1 } }, ["a\u00010"])).toBeUndefined();
    expect(RecordLayout.learn({ a: 1, b: 2 }, ["a"])).toBeUndefined();
  });
});

describe("LayoutBook", () => {
  it("reads records in a longer text by the layouts it learned: where each ends, and one signature per layout and types", () => {
    const book = new LayoutBook();
    expect(book.read(`[{"a":"x","b":1}]`, 1)).toBe(-1);
    const layout = RecordLayout.learn({ a: "x", b: 1 }, ["a", "b"])!;
    book.learn(layout);
    const text = `[{"a":"x","b":1},{"a":"y","b":2.5}, {"a":"z","b":3},{"a":"w","b":4`;
    expect(book.read(text, 1)).toBe(16);
    const whole = book.tag;
    expect(book.read(text, 17)).toBe(34);
    const fraction = book.tag;
    expect(book.read(text, 36)).toBe(51);
    expect(book.tag).toBe(whole);
    expect(fraction).not.toBe(whole);
    expect(book.signature(whole)).toEqual({ layout, types: ["text", "bigint"] });
    expect(book.signature(fraction)).toEqual({ layout, types: ["text", "double"] });
    // Cut short by the text's end, or not at a record's start: none.
    expect(book.read(text, 52)).toBe(-1);
    expect(book.read(text, 0)).toBe(-1);
  });

  it("keeps the last four layouts learned, the one used last tried first", () => {
    const book = new LayoutBook();
    const layouts = ["a", "b", "c", "d", "e"].map((key) => RecordLayout.learn({ [key]: 1 }, [key])!);
    for (const layout of layouts) book.learn(layout);
    expect(book.layouts).toEqual([layouts[4], layouts[3], layouts[2], layouts[1]]);
    expect(book.read(`{"a":1}`, 0)).toBe(-1);
    book.use(2);
    expect(book.layouts).toEqual([layouts[2], layouts[4], layouts[3], layouts[1]]);
  });
});

describe("a window's records read by layout", () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "simadmin-layout-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function write(texts: string[]): WindowLoadResult {
    const writer = new WindowLoadWriter(
      join(dir, `w${++n}.load`),
      "ndjson",
      new FieldRegistry([]),
      { maxFieldsPerRecord: 4, maxFields: 5 },
      { mayHold: () => false, redact: (value) => value },
      { start: "2026-01-01", end: "2026-01-30", fetchedAt: "2026-02-01T00:00:00.000Z" },
    );
    for (const text of texts) writer.add(text);
    return writer.finish();
  }
  const fields = (result: WindowLoadResult) => result.fields.map(({ field, type }) => [field.path.join("."), type]);

  it("widens a field's type by every record's value, whether parsed or read by layout", async () => {
    const texts = [
      `{"a":"2026-01-02","b":{"c":1},"d":true}`,
      `{"a":"2026-01-03T10:00:00Z","b":{"c":2.5},"d":null}`,
      `{"a":"2026-01-04","b":{"c":3},"d":false}`,
      `{"a":"2026-01-05","b":{"c":4},"d":true,"e":"new"}`,
      `{"a":"2026-01-06","b":{"c":5},"d":true}`,
    ];
    const result = write(texts);
    expect(result.direct).toBe(true);
    expect(result.rows).toBe(5);
    expect(fields(result)).toEqual([
      ["a", "timestamp"],
      ["b.c", "double"],
      ["d", "boolean"],
      ["e", "text"],
    ]);
    expect(await readFile(result.file, "utf8")).toBe(`${texts.join("\n")}\n`);
  });

  it("a text value where the window had numbers turns it to the columns file, as a parsed record would", async () => {
    const result = write([`{"v":1,"w":"a"}`, `{"v":2,"w":"b"}`, `{"v":"x","w":"c"}`]);
    expect(result.direct).toBe(false);
    expect(fields(result)).toEqual([
      ["v", "text"],
      ["w", "text"],
    ]);
    expect(await readFile(result.file, "utf8")).toBe(
      `{"r":1,"c0":"1","c1":"a"}\n{"r":2,"c0":"2","c1":"b"}\n{"r":3,"c0":"x","c1":"c"}\n`,
    );
  });

  it("names differing only by case met in a record of a known layout's shape: the columns file", () => {
    expect(write([`{"a":{"x":1}}`, `{"a":{"x":2}}`, `{"A":{"x":3}}`]).direct).toBe(false);
  });

  it("a record that may hold the API key is parsed and redacted, even when it has a known layout", async () => {
    const writer = new WindowLoadWriter(
      join(dir, `w${++n}.load`),
      "ndjson",
      new FieldRegistry([]),
      { maxFieldsPerRecord: 4, maxFields: 5 },
      {
        mayHold: (text) => text.includes("SECRET"),
        redact: <T>(value: T): T => JSON.parse(JSON.stringify(value).replace("SECRET", "[REDACTED]")) as T,
      },
      { start: "2026-01-01", end: "2026-01-30", fetchedAt: "2026-02-01T00:00:00.000Z" },
    );
    for (const text of [`{"k":"a"}`, `{"k":"a"}`, `{"k":"SECRET"}`]) writer.add(text);
    const result = writer.finish();
    expect(result.direct).toBe(false);
    expect(await readFile(result.rawFile!, "utf8")).toBe(`{"k":"a"}\n{"k":"a"}\n{"k":"[REDACTED]"}\n`);
  });

  it("too many fields for columns: raw only, as for a parsed record", () => {
    const five = `{"a":1,"b":2,"c":3,"d":4,"e":5}`;
    const result = write([`{"a":1}`, `{"a":2}`, five, five]);
    expect(result.rawOnly.records).toBe(2);
    expect(result.direct).toBe(false);
  });

  it("a repeated key is never read by a layout (the parser keeps the last value)", () => {
    const result = write([`{"a":1,"b":2}`, `{"a":1,"b":2}`, `{"a":1,"a":"x"}`]);
    expect(result.direct).toBe(false);
  });
});
