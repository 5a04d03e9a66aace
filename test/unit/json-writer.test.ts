import { describe, expect, it } from "vitest";
import type { JsonRecord } from "../../src/domain/records.js";
import { InterruptedError, UsageError } from "../../src/errors.js";
import { checkFields, FieldsGate, pickFields } from "../../src/output/fields-check.js";
import { createRecordWriter } from "../../src/output/record-stream.js";
import type { RecordStreamOptions } from "../../src/output/record-types.js";
import { memorySink } from "../helpers/memory-sink.js";

// The json and ndjson writers (src/output/json-writer.ts) and the one --fields check
// (src/output/fields-check.ts), driven directly: every expectation is the exact text.

async function render(batches: JsonRecord[][], options: RecordStreamOptions): Promise<string> {
  const sink = memorySink();
  const writer = createRecordWriter(sink, options);
  for (const batch of batches) await writer.writeBatch(batch);
  await writer.end();
  return sink.text();
}

describe("json writer", () => {
  it("writes a stream one compact record a line inside the brackets", async () => {
    expect(await render([[{ a: 1 }], [{ a: { b: 2 } }]], { format: "json" })).toBe('[\n{"a":1},\n{"a":{"b":2}}\n]\n');
  });

  it("pretty-prints a complete result with every record one level in", async () => {
    expect(await render([[{ a: 1 }, { b: [1] }]], { format: "json", jsonIndent: true })).toBe(
      '[\n  {\n    "a": 1\n  },\n  {\n    "b": [\n      1\n    ]\n  }\n]\n',
    );
  });

  it("prints a single object bare, pretty or compact, and null when none came", async () => {
    expect(await render([[{ a: 1 }]], { format: "json", single: true, jsonIndent: true })).toBe('{\n  "a": 1\n}\n');
    expect(await render([[{ a: 1 }]], { format: "json", single: true })).toBe('{"a":1}\n');
    expect(await render([], { format: "json", single: true })).toBe("null\n");
  });

  it("ends with the trailer given, bare objects and empty lists too", async () => {
    expect(await render([[{ a: 1 }]], { format: "json", jsonTrailer: "" })).toBe('[\n{"a":1}\n]');
    expect(await render([], { format: "json", jsonTrailer: "" })).toBe("[]");
    expect(await render([[{ a: 1 }]], { format: "json", single: true, jsonTrailer: "" })).toBe('{"a":1}');
    expect(await render([], { format: "json", single: true, jsonTrailer: ";" })).toBe("null;");
  });

  it("keeps only --fields even when records are split while writing", async () => {
    expect(await render([[{ a: 1, b: { c: 2 } }]], { format: "json", fields: ["b.c"], jsonSplitDepth: 3 })).toBe(
      '[\n{"b.c":2}\n]\n',
    );
  });

  it("splits records while writing only when asked, to the same text", async () => {
    expect(await render([[{ a: [1, { b: 2 }] }]], { format: "ndjson", jsonSplitDepth: 2 })).toBe('{"a":[1,{"b":2}]}\n');
  });

  it("completes the document once, however often end() is called", async () => {
    const sink = memorySink();
    const writer = createRecordWriter(sink, { format: "json" });
    await writer.writeBatch([{ a: 1 }]);
    await writer.end();
    await writer.end();
    expect(sink.text()).toBe('[\n{"a":1}\n]\n');
    expect(writer.count).toBe(1);
  });

  it("writes nothing more after abort(), not even the closing bracket", async () => {
    const sink = memorySink();
    const writer = createRecordWriter(sink, { format: "json" });
    await writer.writeBatch([{ a: 1 }]);
    await writer.abort();
    await writer.end();
    expect(sink.text()).toBe("");
  });

  it("stops at the next write once the signal is aborted (Ctrl-C)", async () => {
    const controller = new AbortController();
    const writer = createRecordWriter(memorySink(), { format: "json", signal: controller.signal });
    await writer.writeBatch([{ a: 1 }]);
    controller.abort();
    await expect(writer.end()).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe("ndjson writer", () => {
  it("writes one compact line a record, ignoring the pretty and single options of json", async () => {
    expect(await render([[{ a: { b: 1 } }, { c: 2 }]], { format: "ndjson", jsonIndent: true, single: true })).toBe(
      '{"a":{"b":1}}\n{"c":2}\n',
    );
  });

  it("keeps --fields in order", async () => {
    expect(await render([[{ a: 1, b: 2, c: 3 }]], { format: "ndjson", fields: ["c", "a"] })).toBe('{"c":3,"a":1}\n');
  });
});

describe("checkFields", () => {
  it("names every unknown field, and the known ones", () => {
    expect(() => checkFields(["a", "x", "y"], ["a", "b"])).toThrow(
      new UsageError("unknown fields for --fields: x, y; known fields: a, b"),
    );
    expect(() => checkFields(["x"], new Set(["a"]))).toThrow("unknown field for --fields: x; known fields: a");
  });

  it("passes when nothing is known to check against, when no --fields is given, and when all are known", () => {
    expect(() => checkFields(["x"], [])).not.toThrow();
    expect(() => checkFields(undefined, ["a"])).not.toThrow();
    expect(() => checkFields(["b", "a"], ["a", "b"])).not.toThrow();
  });
});

describe("pickFields", () => {
  it("keeps top-level values whole, dotted names flattened, and null for what is missing", () => {
    const record = { user: { name: "Ana", team: { name: "Sales" } }, tags: ["a", "b"], n: 0 };
    expect(pickFields(record, ["n", "user.team.name", "user", "tags", "missing"])).toEqual({
      n: 0,
      "user.team.name": "Sales",
      user: { name: "Ana", team: { name: "Sales" } },
      tags: ["a", "b"],
      missing: null,
    });
  });
});

describe("FieldsGate", () => {
  const records = [{ id: 1, user: { name: "Ana" } }];

  it("csv and table know only flattened names; json also takes a whole object's key", () => {
    expect(() => new FieldsGate(["user"], undefined, false).check(records)).toThrow(
      "unknown field for --fields: user; known fields: id, user.name",
    );
    expect(() => new FieldsGate(["user"], undefined, true).check(records)).not.toThrow();
  });

  it("knows the declared fields beside those of the records", () => {
    expect(() => new FieldsGate(["total"], ["total"], false).check(records)).not.toThrow();
    expect(() => new FieldsGate(["nope"], ["total"], false).check(records)).toThrow(
      "unknown field for --fields: nope; known fields: total, id, user.name",
    );
  });

  it("checks once: a field the records had is not checked again at the end against the declared ones", () => {
    const gate = new FieldsGate(["id"], ["total"], false);
    gate.check(records);
    expect(() => gate.check([{ other: 1 }])).not.toThrow();
    expect(() => gate.finish()).not.toThrow();
  });

  it("with no record, checks at the end against the declared fields, once", () => {
    const gate = new FieldsGate(["nope"], ["total"], false);
    gate.check([]);
    expect(() => gate.finish()).toThrow("unknown field for --fields: nope; known fields: total");
    expect(() => gate.finish()).not.toThrow();
    expect(() => new FieldsGate(["nope"], undefined, false).finish()).not.toThrow();
    expect(() => new FieldsGate(undefined, ["total"], false).finish()).not.toThrow();
  });
});
