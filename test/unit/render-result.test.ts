import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { renderResult, resultOfJson, writeResult } from "../../src/output/render.js";
import { memorySink } from "../helpers/memory-sink.js";

// A command's complete result printed (src/output/render.ts): each kind of result, and each
// option handed on to the output engine, pinned by the exact text.

describe("resultOfJson", () => {
  it("takes a list as records, non-objects in a value column", () => {
    expect(resultOfJson([{ a: 1 }, 2, null])).toEqual({ kind: "records", records: [{ a: 1 }, { value: 2 }, { value: null }] });
    expect(resultOfJson([])).toEqual({ kind: "records", records: [] });
  });

  it("takes an object as one object", () => {
    expect(resultOfJson({ a: 1 })).toEqual({ kind: "object", value: { a: 1 } });
  });

  it("takes any other value as one value record, and null as none", () => {
    expect(resultOfJson("x")).toEqual({ kind: "records", records: [{ value: "x" }], knownFields: ["value"] });
    expect(resultOfJson(0)).toEqual({ kind: "records", records: [{ value: 0 }], knownFields: ["value"] });
    expect(resultOfJson(null)).toEqual({ kind: "records", records: [], knownFields: ["value"] });
  });
});

describe("writeResult", () => {
  it("writes nothing for no result", async () => {
    const sink = memorySink();
    await writeResult({ kind: "none" }, sink, { format: "json" });
    expect(sink.writes).toBe(0);
  });

  it("prints a service answer as it came for json, pretty-printed, C1 controls escaped", async () => {
    const sink = memorySink();
    await writeResult({ kind: "answer", value: { data: [{ id: 1 }], note: "a\u009bb" } }, sink, { format: "json" });
    expect(sink.text()).toBe('{\n  "data": [\n    {\n      "id": 1\n    }\n  ],\n  "note": "a\\u009bb"\n}\n');
  });

  it("prints a service answer's records for other formats, and for json with --fields", async () => {
    const answer = { kind: "answer" as const, value: { data: [{ id: 1, n: "a" }, { id: 2 }] } };
    expect(await renderResult(answer, { format: "csv" })).toBe("id,n\n1,a\n2,\n");
    expect(await renderResult(answer, { format: "json", fields: ["id"] })).toBe(
      '[\n  {\n    "id": 1\n  },\n  {\n    "id": 2\n  }\n]\n',
    );
  });

  it("prints the bare text of an object for -o text", async () => {
    expect(await renderResult({ kind: "object", value: { token: "t" }, text: "t" }, { format: "text" })).toBe("t\n");
    expect(await renderResult({ kind: "object", value: { token: "" }, text: "" }, { format: "text" })).toBe("\n");
  });

  it("refuses -o text for records and for objects without a bare value, saying which commands offer it", async () => {
    for (const result of [
      { kind: "records" as const, records: [{ a: 1 }] },
      { kind: "object" as const, value: { a: 1 } },
    ]) {
      const error = await renderResult(result, { format: "text" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(
        "text prints a single value: `token`, `link`, `assign`, `config get` and `config path` offer it (and any command with --query)",
      );
      expect((error as UsageError).hint).toBe("use -o table, json, csv or ndjson");
    }
  });

  it("prints one object bare for json and as key: value lines for a table", async () => {
    const result = { kind: "object" as const, value: { id: "s1", n: 2 } };
    expect(await renderResult(result, { format: "json" })).toBe('{\n  "id": "s1",\n  "n": 2\n}\n');
    expect(await renderResult(result, { format: "table" })).toBe("id: s1\nn:  2\n");
  });

  it("hands the csv options on: delimiter and byte-order mark", async () => {
    const result = { kind: "records" as const, records: [{ a: 1, b: "x;y" }] };
    expect(await renderResult(result, { format: "csv", delimiter: ";", bom: true })).toBe('\uFEFFa;b\n1;"x;y"\n');
  });

  it("hands the table options on: table columns, width and colour", async () => {
    const result = {
      kind: "records" as const,
      records: [{ id: "s1", desc: "one two three four five six", extra: "x" }],
      tableColumns: ["id", "desc"],
    };
    expect(await renderResult(result, { format: "table", width: 24 })).toBe(
      [
        "┌────┬───────────────┐",
        "│ id │ desc          │",
        "├────┼───────────────┤",
        "│ s1 │ one two three │",
        "│    │ four five six │",
        "└────┴───────────────┘",
        "",
      ].join("\n"),
    );
    const coloured = await renderResult({ kind: "records", records: [{ a: 1 }] }, { format: "table", color: true });
    expect(coloured.split("\n")[1]).toBe("\u001b[90m│\u001b[39m \u001b[36ma\u001b[39m \u001b[90m│\u001b[39m");
  });

  it("hands the flex column on: it takes the width the others leave", async () => {
    const title = Array<string>(16).fill("a").join(" "); // 31 characters
    const desc = Array<string>(50).fill("b").join(" "); // 99 characters
    const records = [{ title, desc }];
    // room 61 - 7 = 54: title keeps its 31, desc gets 23 (without a flex column both get 27).
    const flexed = await renderResult({ kind: "records", records, flexColumn: "desc" }, { format: "table", width: 61 });
    expect(flexed.split("\n")[0]).toBe(`┌${"─".repeat(33)}┬${"─".repeat(25)}┐`);
    const even = await renderResult({ kind: "records", records }, { format: "table", width: 61 });
    expect(even.split("\n")[0]).toBe(`┌${"─".repeat(29)}┬${"─".repeat(29)}┐`);
  });

  it("checks --fields of an empty result against the command's known fields", async () => {
    await expect(
      renderResult({ kind: "records", records: [], knownFields: ["id"] }, { format: "csv", fields: ["nope"] }),
    ).rejects.toThrow("unknown field for --fields: nope; known fields: id");
  });

  it("refuses xlsx as text: its bytes are binary", async () => {
    await expect(renderResult({ kind: "records", records: [] }, { format: "xlsx" })).rejects.toThrow(
      new TypeError("renderResult: xlsx is binary; use writeResult"),
    );
  });
});
