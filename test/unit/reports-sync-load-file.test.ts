import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FieldRegistry,
  removeLoadFiles,
  WindowLoadWriter,
  type LoadLimits,
  type RecordRedaction,
  type WindowLoadResult,
} from "../../src/commands/reports-sync/load-file.js";
import { LayoutBook } from "../../src/domain/record-layout.js";
import type { RecordBlock } from "../../src/engines/reports/cache.js";
import type { WarehouseType } from "../../src/domain/warehouse-values.js";

// The load files of one window (docs/reports-sync.md, "How a window is loaded"), read as
// files: PostgreSQL's COPY lines, DuckDB's columns file and raw file, a window loaded straight
// from `raw` and what turns it to the columns file, records kept in raw only. No database:
// the store's tests load these files (reports-sync-store*.test.ts, reports-sync-direct.test.ts).
// Every expected line is written out by hand.

const WINDOW = { start: "2026-01-01", end: "2026-01-30", fetchedAt: "2026-02-03T10:00:00.000Z" };
const PLAIN: RecordRedaction = { mayHold: () => false, redact: (value) => value };
const ROOMY: LoadLimits = { maxFieldsPerRecord: 100, maxFields: 100 };

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "simadmin-load-file-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(
  format: "copy" | "ndjson",
  texts: string[],
  options: { registry?: FieldRegistry; limits?: LoadLimits; redaction?: RecordRedaction } = {},
): WindowLoadResult {
  const writer = new WindowLoadWriter(
    join(dir, `load-${++n}.txt`),
    format,
    options.registry ?? new FieldRegistry([]),
    options.limits ?? ROOMY,
    options.redaction ?? PLAIN,
    WINDOW,
  );
  for (const text of texts) writer.add(text);
  return writer.finish();
}
const lines = (file: string | undefined): string[] => readFileSync(file!, "utf8").split("\n");
const copyLine = (...cells: string[]): string => ["2026-01-01", "2026-01-30", "2026-02-03T10:00:00.000Z", ...cells].join("\t");
const summary = (result: WindowLoadResult) => result.fields.map(({ field, type }) => `${field.id} ${field.key} ${type}`);

describe("PostgreSQL's COPY lines", () => {
  it("window, row number, raw and the fields by position, escaped; \\N for null and for a field a record lacks", () => {
    const result = write("copy", [
      String.raw`{"id":"a\tb","n":5}`,
      `{"id":"c","x":true}`,
      String.raw`{"id":"line\nbreak\r\\"}`,
      `{"id":null}`,
    ]);
    expect(lines(result.file)).toEqual([
      copyLine("1", String.raw`{"id":"a\\tb","n":5}`, String.raw`a\tb`, "5"),
      copyLine("2", `{"id":"c","x":true}`, "c", String.raw`\N`, "true"),
      copyLine("3", String.raw`{"id":"line\\nbreak\\r\\\\"}`, String.raw`line\nbreak\r\\`),
      copyLine("4", `{"id":null}`, String.raw`\N`),
      "",
    ]);
    expect(result.lineFields).toEqual([2, 3, 1, 1]);
    expect(summary(result)).toEqual(['0 ["id"] text', '1 ["n"] bigint', '2 ["x"] boolean']);
    expect(result).toMatchObject({ rows: 4, direct: false, kinds: [0, 0, 0], rawOnly: { records: 0 } });
    expect(result.rawFile).toBeUndefined();
    expect("rawFile" in result).toBe(false);
  });

  it("a field's type widens with its values; fields the registry knows keep their ids", () => {
    const registry = new FieldRegistry([["old"], ["user", "id"]]);
    const result = write("copy", [`{"user":{"id":7},"v":1}`, `{"v":1.5,"user":{"id":"u-8"}}`], { registry });
    expect(lines(result.file)).toEqual([
      copyLine("1", `{"user":{"id":7},"v":1}`, "7", "1"),
      copyLine("2", `{"v":1.5,"user":{"id":"u-8"}}`, "u-8", "1.5"),
      "",
    ]);
    expect(summary(result)).toEqual(['1 ["user","id"] text', '2 ["v"] double']);
    expect(registry.fields.map((field) => field.key)).toEqual(['["old"]', '["user","id"]', '["v"]']);
  });

  it("a record with more fields than a record may have, or more new fields than the table may take, is kept in raw only", () => {
    const limits = { maxFieldsPerRecord: 6, maxFields: 8 };
    const seven = `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}`;
    const sixNew = `{"p":{"q":1},"s":2,"t":3,"u":4,"v":5,"w":6}`;
    const fiveNew = `{"m1":1,"m2":2,"m3":3,"m4":4,"m5":5}`;
    const result = write(
      "copy",
      [`{"id":"a","n":1,"x":2}`, seven, sixNew, `{"id":"z","s":1}`, `{"k1":1,"k2":2,"k3":3,"k4":4}`, fiveNew],
      { limits },
    );
    expect(lines(result.file)).toEqual([
      copyLine("1", `{"id":"a","n":1,"x":2}`, "a", "1", "2"),
      copyLine("2", seven),
      copyLine("3", sixNew),
      // 3 fields known and 1 new: 4 of 8.
      copyLine("4", `{"id":"z","s":1}`, "z", String.raw`\N`, String.raw`\N`, "1"),
      // 4 known and 4 new: exactly 8.
      copyLine(
        "5",
        `{"k1":1,"k2":2,"k3":3,"k4":4}`,
        ...[String.raw`\N`, String.raw`\N`, String.raw`\N`, String.raw`\N`],
        "1",
        "2",
        "3",
        "4",
      ),
      // 8 known and 5 new.
      copyLine("6", fiveNew),
      "",
    ]);
    expect(result.lineFields).toEqual([3, 0, 0, 4, 8, 0]);
    expect(result.rawOnly.records).toBe(3);
    expect([...result.rawOnly.fields]).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "… 7 fields in all",
      "p.q",
      "s",
      "t",
      "u",
      "v",
      "… 6 fields in all",
      "m1",
      "m2",
      "m3",
      "m4",
      "m5",
    ]);
  });

  it("a value made of escaped characters only is escaped too", () => {
    const result = write("copy", [`{"tab":"\\t","slash":"\\\\"}`]);
    expect(lines(result.file)).toEqual([
      copyLine("1", String.raw`{"tab":"\\t","slash":"\\\\"}`, String.raw`\t`, String.raw`\\`),
      "",
    ]);
  });

  it("the count of a record's fields in thousands", () => {
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`f${i}`, i])));
    const result = write("copy", [wide], { limits: { maxFieldsPerRecord: 1000, maxFields: 1600 } });
    expect([...result.rawOnly.fields]).toEqual(["f0", "f1", "f2", "f3", "f4", "… 1,200 fields in all"]);
  });
});

describe("DuckDB: a window loaded straight from raw", () => {
  it("the load file is the records as sent, one a line, line breaks between tokens made spaces; no raw file", () => {
    const result = write("ndjson", [`{"a":"x",\n"b":1}`, `{"c":\r\n{"d":true},"e":null}`]);
    expect(lines(result.file)).toEqual([`{"a":"x", "b":1}`, `{"c":  {"d":true},"e":null}`, ""]);
    expect(result.direct).toBe(true);
    expect(result.rawFile).toBeUndefined();
    expect(summary(result)).toEqual(['0 ["a"] text', '1 ["b"] bigint', '2 ["c","d"] boolean', '3 ["e"] undefined']);
    expect(result.kinds).toEqual([1, 2, 4, 0]);
    expect(result.lineFields).toEqual([]);
    expect(result.rows).toBe(2);
  });

  it("a value of another kind turns the window to the columns file, the records before it included", () => {
    const result = write("ndjson", [`{"a":"x","b":null}`, `{"a":"y"}`, `{"a":1}`, `{"a":"z","b":"w"}`]);
    expect(result.direct).toBe(false);
    expect(result.rawFile).toBe(`${result.file}.raw`);
    expect(lines(result.file)).toEqual([
      `{"r":1,"c0":"x"}`,
      `{"r":2,"c0":"y"}`,
      `{"r":3,"c0":"1"}`,
      `{"r":4,"c0":"z","c1":"w"}`,
      "",
    ]);
    expect(lines(result.rawFile)).toEqual([`{"a":"x","b":null}`, `{"a":"y"}`, `{"a":1}`, `{"a":"z","b":"w"}`, ""]);
    expect(summary(result)).toEqual(['0 ["a"] text', '1 ["b"] text']);
    expect(result.kinds).toEqual([3, 0]);
  });

  it.each([
    ["names differing only by case", [`{"A":"x","a":"y"}`], [`{"r":1,"c0":"x","c1":"y"}`]],
    ["an empty name", [`{"":"x"}`], [`{"r":1,"c0":"x"}`]],
    ["a field first a value, then an object", [`{"p":"v"}`, `{"p":{"q":"w"}}`], [`{"r":1,"c0":"v"}`, `{"r":2,"c1":"w"}`]],
    ["a field first an object, then a value", [`{"p":{"q":"w"}}`, `{"p":"v"}`], [`{"r":1,"c0":"w"}`, `{"r":2,"c1":"v"}`]],
    ["an object's name differing only by case", [`{"P":{"q":"w"}}`, `{"p":{"r":"x"}}`], [`{"r":1,"c0":"w"}`, `{"r":2,"c1":"x"}`]],
    ["a repeated key", [`{"a":"x","a":"y"}`], [`{"r":1,"c0":"y"}`]],
    ["a list", [`{"l":["a",1]}`], [`{"r":1,"c0":"a;1"}`]],
    ["a number kept as text", [`{"big":9007199254740993}`], [`{"r":1,"c0":"9007199254740993"}`]],
    ["a record that is not an object", [`"just text"`], [`{"r":1,"c0":"just text"}`]],
  ])("%s: the columns file", (_name, texts, columns) => {
    const result = write("ndjson", texts);
    expect(result.direct).toBe(false);
    expect(lines(result.file)).toEqual([...columns, ""]);
    expect(lines(result.rawFile)).toEqual([...texts, ""]);
  });

  it("objects that share a parent's name, with other children: still straight from raw", () => {
    const result = write("ndjson", [`{"p":{"q":"w"}}`, `{"p":{"r":"x"},"s":{"t":1}}`]);
    expect(result.direct).toBe(true);
  });

  it("a record whose text is redacted is written as redacted, in the columns file", () => {
    const redaction: RecordRedaction = {
      mayHold: (text) => text.includes("sk-"),
      redact: <T>(value: T): T => (JSON.stringify(value).includes("sk-") ? ({ k: "***" } as T) : value),
    };
    const result = write("ndjson", [`{"k":"ok"}`, `{"k":"sk-1"}`], { redaction });
    expect(result.direct).toBe(false);
    expect(lines(result.rawFile)).toEqual([`{"k":"ok"}`, `{"k":"***"}`, ""]);
    expect(lines(result.file)).toEqual([`{"r":1,"c0":"ok"}`, `{"r":2,"c0":"***"}`, ""]);
    // A record the redaction says holds no secret is not given to it.
    const untouched = write("copy", [`{"k":"ok"}`], {
      redaction: {
        mayHold: () => false,
        redact: () => {
          throw new Error("redact called");
        },
      },
    });
    expect(lines(untouched.file)).toEqual([copyLine("1", `{"k":"ok"}`, "ok"), ""]);
    // Nothing to redact after all: as sent.
    const kept = write("ndjson", [`{"k": "sk"}`], { redaction: { mayHold: () => true, redact: (value) => value } });
    expect(kept.direct).toBe(true);
    expect(lines(kept.file)).toEqual([`{"k": "sk"}`, ""]);
  });

  it("a record kept in raw only turns the window to the columns file, its line holding its row number only", () => {
    const result = write("ndjson", [`{"a":"x"}`, `{"a":"y","b":"z"}`], { limits: { maxFieldsPerRecord: 1, maxFields: 10 } });
    expect(result.direct).toBe(false);
    expect(lines(result.file)).toEqual([`{"r":1,"c0":"x"}`, `{"r":2}`, ""]);
    expect(result.rawOnly).toEqual({ records: 1, fields: new Set(["a", "b"]) });
  });

  it("what the table's column holds decides: a number into a text column or into a system column is not as sent; a whole number into a double column is", () => {
    const stored: Record<string, WarehouseType | "system"> = { '["t"]': "text", '["d"]': "double", '["s"]': "system" };
    const registry = () => new FieldRegistry([["t"], ["d"], ["s"]], (key) => stored[key]);
    expect(write("ndjson", [`{"d":1}`], { registry: registry() }).direct).toBe(true);
    expect(write("ndjson", [`{"t":"a"}`], { registry: registry() }).direct).toBe(true);
    expect(write("ndjson", [`{"t":1}`], { registry: registry() }).direct).toBe(false);
    expect(write("ndjson", [`{"s":"a"}`], { registry: registry() }).direct).toBe(false);
    // A null is no value: as sent whatever the column.
    expect(write("ndjson", [`{"s":null}`], { registry: registry() }).direct).toBe(true);
    // A field the table has no column for yet: its own values decide.
    expect(write("ndjson", [`{"new":1}`, `{"new":2.5}`], { registry: registry() }).direct).toBe(true);
  });

  it("a record's kinds are counted once it has been placed: a value missing from a later record changes nothing", () => {
    const result = write("ndjson", [`{"a":1,"b":"x"}`, `{"b":"y"}`, `{"a":2}`]);
    expect(result.direct).toBe(true);
    expect(result.kinds).toEqual([2, 1]);
  });
});

describe("DuckDB: records laid out like one read before", () => {
  it("are written as sent, one a line, counted, their kinds kept", () => {
    const texts = [`{"a":"x","b":1,"c":{"d":true}}`, `{"a":"y","b":2,"c":{"d":false}}`, `{"a":"z","b":3,"c":{"d":null}}`];
    const result = write("ndjson", texts);
    expect(result.direct).toBe(true);
    expect(lines(result.file)).toEqual([...texts, ""]);
    expect(result.rows).toBe(3);
    expect(result.kinds).toEqual([1, 2, 4]);
  });

  it("records of the same types as the last one of their layout: each written once, counted", () => {
    const texts = [`{"a":"x","b":1}`, `{"a":"y","b":2}`, `{"a":"z","b":3}`, `{"a":"w","b":4}`];
    const result = write("ndjson", texts);
    expect(result.direct).toBe(true);
    expect(lines(result.file)).toEqual([...texts, ""]);
    expect(result.rows).toBe(4);
    expect(result.kinds).toEqual([1, 2]);
  });

  it("a record read by a layout after a record of another: its own fields placed, not the other's", () => {
    const result = write("ndjson", [`{"a":"x","b":1}`, `{"c":true}`, `{"a":"y","b":null}`]);
    expect(result.direct).toBe(true);
    expect(summary(result)).toEqual(['0 ["a"] text', '1 ["b"] bigint', '2 ["c"] boolean']);
    expect(result.kinds).toEqual([1, 2, 4]);
  });

  it("records no layout can read (a key JavaScript enumerates first): read one by one, as sent", () => {
    const texts = [`{"b":"x","1":"y"}`, `{"b":"z","1":"w"}`, `{"b":"v","1":"u"}`];
    const result = write("ndjson", texts);
    expect(result.direct).toBe(true);
    expect(lines(result.file)).toEqual([...texts, ""]);
    expect(result.rows).toBe(3);
  });

  it("a value of another kind in a record of a known layout turns the window to the columns file", () => {
    const result = write("ndjson", [`{"a":"x"}`, `{"a":"y"}`, `{"a":1}`, `{"a":"w"}`]);
    expect(result.direct).toBe(false);
    expect(lines(result.file)).toEqual([`{"r":1,"c0":"x"}`, `{"r":2,"c0":"y"}`, `{"r":3,"c0":"1"}`, `{"r":4,"c0":"w"}`, ""]);
    expect(lines(result.rawFile)).toEqual([`{"a":"x"}`, `{"a":"y"}`, `{"a":1}`, `{"a":"w"}`, ""]);
  });

  it("the records before are placed by their own keys when the window turns to the columns file", () => {
    const result = write("ndjson", [`{"a":"x","b":"y"}`, `{"b":1,"a":"z"}`]);
    expect(result.direct).toBe(false);
    expect(lines(result.file)).toEqual([`{"r":1,"c0":"x","c1":"y"}`, `{"r":2,"c1":"1","c0":"z"}`, ""]);
  });
});

describe("DuckDB: records given as their UTF-8 bytes (addBytes)", () => {
  const asBytes = (text: string): string => Buffer.from(text, "utf8").toString("latin1");
  function writeBytes(records: string[], redaction: RecordRedaction = PLAIN): WindowLoadResult {
    const writer = new WindowLoadWriter(join(dir, `load-${++n}.txt`), "ndjson", new FieldRegistry([]), ROOMY, redaction, WINDOW);
    for (const bytes of records) writer.addBytes(bytes);
    return writer.finish();
  }
  const fileBytes = (file: string | undefined): string[] => readFileSync(file!, "latin1").split("\n");

  it("records read by layout are copied byte for byte, the others decoded and read as add() reads them", () => {
    const texts = [
      `{"n":"Chloé","m":"中","d":"2026-01-02"}`,
      `{"n":"Zoë","m":"\ud83d\ude00","d":"2026-01-03"}`, // read by the first record's layout
      `{"n":"Åsa","m":"x","d":"2026-01-04","big":9007199254740993}`, // parsed: a field more, a number kept as text
    ];
    const result = writeBytes(texts.map(asBytes));
    expect(result.direct).toBe(false);
    expect(readFileSync(result.rawFile!, "utf8").split("\n")).toEqual([...texts, ""]);
    expect(lines(result.file)).toEqual([
      `{"r":1,"c0":"Chloé","c1":"中","c2":"2026-01-02"}`,
      `{"r":2,"c0":"Zoë","c1":"\ud83d\ude00","c2":"2026-01-03"}`,
      `{"r":3,"c0":"Åsa","c1":"x","c2":"2026-01-04","c3":"9007199254740993"}`,
      "",
    ]);
    const direct = writeBytes(texts.slice(0, 2).map(asBytes));
    expect(direct.direct).toBe(true);
    expect(readFileSync(direct.file, "utf8").split("\n")).toEqual([...texts.slice(0, 2), ""]);
    expect(summary(direct)).toEqual(['0 ["n"] text', '1 ["m"] text', '2 ["d"] date']);
  });

  it("a byte that is not UTF-8 is read as TextDecoder reads the whole answer: U+FFFD, never copied as it came", () => {
    const first = asBytes(`{"n":"ok"}`);
    const broken = `{"n":"a\xff\xc3("}`; // one byte string: 0xFF, and a lead byte without its continuation
    const result = writeBytes([first, broken]);
    expect(fileBytes(result.file)).not.toContain(broken);
    expect(readFileSync(result.file, "utf8").split("\n")).toEqual([`{"n":"ok"}`, `{"n":"a\ufffd\ufffd("}`, ""]);
  });

  it("records the answer's scan read by a layout of the table's book (a tag): written as read, not read again; what may hold the key, or does not fit, as any other", () => {
    const book = new LayoutBook();
    const registry = new FieldRegistry([]);
    const newWriter = (redaction: RecordRedaction = PLAIN): WindowLoadWriter =>
      new WindowLoadWriter(join(dir, `load-${++n}.txt`), "ndjson", registry, ROOMY, redaction, WINDOW, book);
    // The first window learns the layout; the book is the table's, so the next window has it.
    const first = newWriter();
    for (const text of [`{"k":"a","n":1}`, `{"k":"b","n":2}`]) first.addBytes(asBytes(text));
    expect(first.finish().direct).toBe(true);
    expect(book.layouts).toHaveLength(1);
    // The scan of the next answer reads its records by the book: each a tag.
    const tagged = (text: string): [string, number] => {
      const bytes = asBytes(text);
      expect(book.read(bytes, 0)).toBe(bytes.length);
      return [bytes, book.tag];
    };
    const second = newWriter();
    for (const [bytes, tag] of [tagged(`{"k":"Zoë","n":3}`), tagged(`{"k":"d","n":4}`)]) second.addBytes(bytes, tag);
    const result = second.finish();
    expect(result.direct).toBe(true);
    expect(readFileSync(result.file, "utf8").split("\n")).toEqual([`{"k":"Zoë","n":3}`, `{"k":"d","n":4}`, ""]);
    expect(result.rows).toBe(2);
    expect(summary(result)).toEqual(['0 ["k"] text', '1 ["n"] bigint']);
    expect(result.kinds).toEqual([1, 2]);
    // The key in a tagged record: decoded, redacted, the columns file.
    const redacting = newWriter({
      mayHold: (text) => text.includes("sk-"),
      mayHoldBytes: (bytes) => bytes.includes("sk-"),
      redact: <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll("sk-1", "[REDACTED]")) as T,
    });
    const [secret, secretTag] = tagged(`{"k":"sk-1","n":5}`);
    redacting.addBytes(secret, secretTag);
    const redacted = redacting.finish();
    expect(redacted.direct).toBe(false);
    expect(lines(redacted.rawFile)).toEqual([`{"k":"[REDACTED]","n":5}`, ""]);
    // The tag is taken as the scan read it: the record is not read again (a record given the
    // signature of a fraction places its number as one).
    const trusting = newWriter();
    const [, fractionTag] = tagged(`{"k":"g","n":7.5}`);
    trusting.addBytes(asBytes(`{"k":"h","n":8}`), fractionTag);
    expect(summary(trusting.finish())).toEqual(['0 ["k"] text', '1 ["n"] double']);
    // A fraction after whole numbers widens the column, as for records read by the writer.
    const mixed = newWriter();
    for (const [bytes, tag] of [tagged(`{"k":"e","n":6}`), tagged(`{"k":"f","n":6.5}`)]) mixed.addBytes(bytes, tag);
    const widened = mixed.finish();
    expect(widened.direct).toBe(true);
    expect(summary(widened)).toEqual(['0 ["k"] text', '1 ["n"] double']);
  });

  it("a block of records: those with a tag copied from it, the others as addBytes; a block that may hold the key, record by record", () => {
    const book = new LayoutBook();
    const registry = new FieldRegistry([]);
    const redaction: RecordRedaction = {
      mayHold: (text) => text.includes("sk-"),
      mayHoldBytes: (bytes) => bytes.includes("sk-"),
      redact: <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll("sk-1", "[REDACTED]")) as T,
    };
    const newWriter = (): WindowLoadWriter =>
      new WindowLoadWriter(join(dir, `load-${++n}.txt`), "ndjson", registry, ROOMY, redaction, WINDOW, book);
    const learning = newWriter();
    learning.addBytes(asBytes(`{"k":"a","n":1}`));
    learning.finish();
    const block = (texts: string[]): RecordBlock => {
      const bytes = Buffer.from(texts.join(","), "utf8");
      const starts: number[] = [];
      const tags: number[] = [];
      let at = 0;
      for (const text of texts) {
        starts.push(at);
        const asRead = book.read(bytes.toString("latin1"), at);
        tags.push(asRead > 0 ? book.tag : -1);
        at += Buffer.byteLength(text) + 1;
      }
      return {
        bytes,
        size: bytes.length,
        count: texts.length,
        start: (i) => starts[i]!,
        end: (i) => starts[i]! + Buffer.byteLength(texts[i]!),
        tag: (i) => tags[i]!,
      };
    };
    const writer = newWriter();
    writer.addBlock(block([`{"k":"Zoë","n":2}`, `{"k":"b","n":3,"x":true}`, `{"k":"c","n":4}`]));
    const result = writer.finish();
    expect(result.direct).toBe(true);
    expect(readFileSync(result.file, "utf8").split("\n")).toEqual([
      `{"k":"Zoë","n":2}`,
      `{"k":"b","n":3,"x":true}`,
      `{"k":"c","n":4}`,
      "",
    ]);
    expect(result.rows).toBe(3);
    expect(summary(result)).toEqual(['0 ["k"] text', '1 ["n"] bigint', '2 ["x"] boolean']);
    // The key in the block: each record looked at on its own.
    const redacting = newWriter();
    redacting.addBlock(block([`{"k":"d","n":5}`, `{"k":"sk-1","n":6}`]));
    const redacted = redacting.finish();
    expect(redacted.direct).toBe(false);
    expect(lines(redacted.rawFile)).toEqual([`{"k":"d","n":5}`, `{"k":"[REDACTED]","n":6}`, ""]);
  });

  it("a record whose bytes may hold the API key is not copied: decoded, redacted, in the columns file", () => {
    const secret = "sk-clé";
    // The text check would not find the key's bytes ("é" is two of them): the bytes check must be the one used.
    const redaction: RecordRedaction = {
      mayHold: (text) => text.includes(secret),
      mayHoldBytes: (bytes) => bytes.includes(asBytes(secret)),
      redact: <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll(secret, "[REDACTED]")) as T,
    };
    const result = writeBytes([asBytes(`{"k":"ok"}`), asBytes(`{"k":"${secret}"}`)], redaction);
    expect(result.direct).toBe(false);
    expect(lines(result.rawFile)).toEqual([`{"k":"ok"}`, `{"k":"[REDACTED]"}`, ""]);
    // Without a check of bytes, the decoded text is checked.
    const decoded = writeBytes([asBytes(`{"k":"ok"}`), asBytes(`{"k":"${secret}"}`)], {
      mayHold: redaction.mayHold,
      redact: redaction.redact,
    });
    expect(lines(decoded.rawFile)).toEqual([`{"k":"ok"}`, `{"k":"[REDACTED]"}`, ""]);
  });
});

describe("FieldRegistry", () => {
  it("one field per key, numbered in order; a key known twice is one field", () => {
    const registry = new FieldRegistry([["a"], ["b", "c"], ["a"]]);
    expect(registry.fields).toEqual([
      { id: 0, key: '["a"]', path: ["a"] },
      { id: 1, key: '["b","c"]', path: ["b", "c"] },
    ]);
    expect(registry.get("b\u0001c")).toBe(registry.fields[1]);
    expect(registry.field("a")).toBe(registry.fields[0]);
    expect(registry.get("d")).toBeUndefined();
  });

  it("a record of known fields is kept however many fields the table has; one new field more than it may take is not", () => {
    const registry = new FieldRegistry([["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"], ["h"], ["i"]]);
    const result = write("copy", [`{"a":1,"i":2}`, `{"a":1,"z":2}`], {
      registry,
      limits: { maxFieldsPerRecord: 10, maxFields: 8 },
    });
    expect(lines(result.file)).toEqual([copyLine("1", `{"a":1,"i":2}`, "1", "2"), copyLine("2", `{"a":1,"z":2}`), ""]);
    expect(result.rawOnly.records).toBe(1);
  });
});

describe("rebuildColumns", () => {
  it("writes the columns file of a window that was to load straight from raw, fields at the same positions", () => {
    const registry = new FieldRegistry([]);
    const direct = write("ndjson", [`{"v":2.50,"w":"a"}`, `{"w":"b","v":1e2,"x":true}`], { registry });
    expect(direct.direct).toBe(true);
    const rebuilt = WindowLoadWriter.rebuildColumns(direct, registry);
    expect(rebuilt).toMatchObject({ file: direct.file, rawFile: `${direct.file}.raw`, direct: false, rows: 2 });
    expect(summary(rebuilt)).toEqual(summary(direct));
    // Numbers as the columns file writes them (2.50 is 2.5, 1e2 is 100), in each record's field order.
    expect(lines(rebuilt.file)).toEqual([`{"r":1,"c0":"2.5","c1":"a"}`, `{"r":2,"c1":"b","c0":"100","c2":"true"}`, ""]);
    expect(lines(rebuilt.rawFile)).toEqual([`{"v":2.50,"w":"a"}`, `{"w":"b","v":1e2,"x":true}`, ""]);
  });

  it("a load file gone is an error naming it", () => {
    const result = write("ndjson", [`{"v":1}`]);
    rmSync(result.file);
    expect(() => WindowLoadWriter.rebuildColumns(result, new FieldRegistry([]))).toThrow(
      `cannot read the load file ${result.file}: no such file or directory (ENOENT)`,
    );
  });

  it("a raw line that cannot be read stops it", () => {
    const result = write("ndjson", [`{"v":1}`]);
    writeFileSync(result.file, "{not json\n");
    const before = readdirSync("/proc/self/fd").length;
    expect(() => WindowLoadWriter.rebuildColumns(result, new FieldRegistry([]))).toThrow(SyntaxError);
    // The columns file it began is closed.
    expect(readdirSync("/proc/self/fd").length).toBe(before);
  });
});

describe("removeLoadFiles", () => {
  it("a piece that cannot be removed is an error, not the end of the pieces", async () => {
    const result = write("ndjson", [`{"v":1}`]);
    rmSync(result.file);
    mkdirSync(result.file);
    await expect(removeLoadFiles(result)).rejects.toMatchObject({ code: "EISDIR" });
  });
});
