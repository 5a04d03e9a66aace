import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { JsonRecord } from "../../src/domain/records.js";
import { UsageError } from "../../src/errors.js";
import { jsonChunks } from "../../src/output/json-text.js";
import { createRecordWriter } from "../../src/output/record-stream.js";
import type { RecordStreamOptions } from "../../src/output/record-types.js";
import { tempDir } from "../helpers/cli.js";
import { memorySink } from "../helpers/memory-sink.js";

async function render(batches: JsonRecord[][], options: RecordStreamOptions, toTerminal = false): Promise<string> {
  const sink = memorySink(toTerminal);
  const writer = createRecordWriter(sink, options);
  for (const batch of batches) await writer.writeBatch(batch);
  await writer.end();
  return sink.text();
}

const WINDOW_1 = [
  { id: 1, user: { name: "Ana", team: { name: "Sales" } } },
  { id: 2, user: { name: "Bo" } },
];
const WINDOW_2 = [
  { id: 3, score: 90, user: { name: "Cy", team: { name: "Support" } } },
  { id: 4, tags: ["a", "b"], score: null },
];

describe("json writer", () => {
  it("writes one valid JSON array of every record, in order, one record a line", async () => {
    const text = await render([WINDOW_1, [], WINDOW_2], { format: "json" });
    expect(JSON.parse(text)).toEqual([...WINDOW_1, ...WINDOW_2]);
    expect(text.split("\n")).toHaveLength(4 + 3); // "[", 4 records, "]", ""
  });

  it("writes [] for no records at all", async () => {
    expect(await render([], { format: "json" })).toBe("[]\n");
    expect(await render([[], []], { format: "json" })).toBe("[]\n");
  });

  it("keeps --fields in order, dotted names picking flattened values", async () => {
    const text = await render([WINDOW_1], { format: "json", fields: ["user.team.name", "id", "user"] });
    expect(JSON.parse(text)).toEqual([
      { "user.team.name": "Sales", id: 1, user: { name: "Ana", team: { name: "Sales" } } },
      { "user.team.name": null, id: 2, user: { name: "Bo" } },
    ]);
  });

  it("nests the array in a larger document with an empty trailer", async () => {
    const sink = memorySink();
    await sink.write('{"a": ');
    const writer = createRecordWriter(sink, { format: "json", jsonTrailer: "" });
    await writer.writeBatch(WINDOW_1);
    await writer.end();
    await sink.write("}\n");
    expect(JSON.parse(sink.text())).toEqual({ a: WINDOW_1 });
  });

  it("escapes DEL and C1 control characters, keeping the document valid", async () => {
    const text = await render([[{ note: "a\u009b31mb\u007f\u001b" }]], { format: "json" });
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(text).not.toMatch(/[\u007f-\u009f\u001b]/);
    expect(JSON.parse(text)).toEqual([{ note: "a\u009b31mb\u007f\u001b" }]);
  });

  it("escapes them in ndjson too, in records on either side of a 64 KiB write", async () => {
    const pad = "x".repeat(1000);
    const records = Array.from({ length: 200 }, (_, i) => ({ i, note: `${pad}\u009b\u0085` }));
    const text = await render([records], { format: "ndjson" });
    expect(text).not.toMatch(/[\u007f-\u009f]/);
    expect(
      text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(records);
  });

  it("splits huge records while writing, with the same text as one stringify", async () => {
    const response = {
      generatedAt: "x",
      data: Array.from({ length: 5000 }, (_, i) => ({ i, name: `n${i}`, nested: { a: [i] } })),
    };
    const sink = memorySink();
    const writer = createRecordWriter(sink, { format: "ndjson", jsonSplitDepth: 4 });
    await writer.writeBatch([{ startDate: "2026-01-01", endDate: "2026-01-30", response }]);
    await writer.end();
    expect(sink.text()).toBe(`${JSON.stringify({ startDate: "2026-01-01", endDate: "2026-01-30", response })}\n`);
    expect(sink.writes).toBeGreaterThan(1);
  });
});

describe("jsonChunks", () => {
  it.each([
    [{ a: 1, b: [1, 2, { c: [3] }], d: undefined, e: null }],
    [[1, undefined, "x", { y: "\u0085" }]],
    [{ data: [] }],
    ["text"],
    [null],
    [{}],
  ])("joins to what JSON.stringify gives for %j", (value) => {
    expect([...jsonChunks(value)].join("")).toBe(JSON.stringify(value).replace(/\u0085/g, "\\u0085"));
  });
});

describe("ndjson writer", () => {
  it("writes one record a line, across batches", async () => {
    const text = await render([WINDOW_1, WINDOW_2], { format: "ndjson" });
    const lines = text.trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual([...WINDOW_1, ...WINDOW_2]);
  });

  it("writes nothing for no records", async () => {
    expect(await render([[]], { format: "ndjson" })).toBe("");
  });
});

describe("csv writer", () => {
  it("uses the union of flattened columns in first-seen order across batches", async () => {
    const text = await render([WINDOW_1, WINDOW_2], { format: "csv" });
    expect(text).toBe(
      ["id,user.name,user.team.name,score,tags", "1,Ana,Sales,,", "2,Bo,,,", "3,Cy,Support,90,", "4,,,,a;b", ""].join("\n"),
    );
  });

  it("neutralises cells a spreadsheet would read as a formula, and quotes commas, quotes and line breaks", async () => {
    const text = await render(
      [[{ a: "=SUM(A1)", b: "+1 Upsell", c: "-x", d: "@cmd", e: "\tTab", f: "a,b", g: 'say "hi"', h: "two\nlines", n: -5 }]],
      { format: "csv" },
    );
    const [, row] = text.split("\n");
    expect(row).toBe(`'=SUM(A1),'+1 Upsell,'-x,'@cmd,'\tTab,"a,b","say ""hi""","two`);
    expect(text).toContain('lines",-5\n');
  });

  it("starts with a byte-order mark when asked", async () => {
    const text = await render([[{ a: 1 }]], { format: "csv", bom: true });
    expect(text).toBe("\uFEFFa\n1\n");
  });

  it("streams straight through with --fields, in the given order", async () => {
    const text = await render([WINDOW_2, WINDOW_1], { format: "csv", fields: ["score", "user.name"] });
    expect(text).toBe(["score,user.name", "90,Cy", ",", ",Ana", ",Bo", ""].join("\n"));
  });

  it("writes the header of --fields even when no record came back", async () => {
    expect(await render([[]], { format: "csv", fields: ["a", "b"] })).toBe("a,b\n");
  });

  it("writes an empty document for no records and no --fields", async () => {
    expect(await render([[]], { format: "csv" })).toBe("");
  });

  it("escapes control characters when the CSV goes to a terminal", async () => {
    const text = await render([[{ a: "x\u001b[2Jy" }]], { format: "csv" }, true);
    expect(text).toBe("a\nx\\u001b[2Jy\n");
  });

  it("spools in a private temp dir and removes it at the end and on abort", async () => {
    const dir = await tempDir();
    try {
      const many = Array.from({ length: 20_000 }, (_, i) => ({ i, text: `row ${i}` }));
      const writer = createRecordWriter(memorySink(), { format: "csv", spoolDir: dir.path });
      await writer.writeBatch(many);
      expect(await readdir(dir.path)).toHaveLength(1);
      await writer.end();
      expect(await readdir(dir.path)).toEqual([]);

      const aborted = createRecordWriter(memorySink(), { format: "csv", spoolDir: dir.path });
      await aborted.writeBatch(many);
      await aborted.abort();
      expect(await readdir(dir.path)).toEqual([]);
    } finally {
      await dir.remove();
    }
  });

  it("keeps every row of a large spooled export, in order", async () => {
    const many = Array.from({ length: 30_000 }, (_, i) => (i === 29_999 ? { i, late: "new column" } : { i }));
    const text = await render([many.slice(0, 10_000), many.slice(10_000)], { format: "csv" });
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe("i,late");
    expect(lines).toHaveLength(30_001);
    expect(lines[1]).toBe("0,");
    expect(lines.at(-1)).toBe("29999,new column");
  });
});

describe("table writer", () => {
  it("renders the union of columns", async () => {
    const text = await render([WINDOW_1, WINDOW_2], { format: "table", width: 200 });
    expect(text).toContain("user.team.name");
    expect(text).toContain("Support");
    expect(text).toContain("tags");
  });

  it("says so when there is nothing", async () => {
    expect(await render([], { format: "table" })).toBe("(no results)\n");
  });
});

describe("--fields check", () => {
  it.each(["json", "ndjson", "csv", "table"] as const)(
    "%s: an unknown field is a usage error listing the known ones, before any record is written",
    async (format) => {
      const sink = memorySink();
      const writer = createRecordWriter(sink, { format, fields: ["id", "nope"] });
      const attempt = writer.writeBatch(WINDOW_1);
      await expect(attempt).rejects.toThrow(UsageError);
      await expect(writer.writeBatch(WINDOW_1)).resolves.toBeUndefined(); // checked once
      const writer2 = createRecordWriter(memorySink(), { format, fields: ["nope"] });
      await expect(writer2.writeBatch(WINDOW_1)).rejects.toThrow(/unknown field for --fields: nope; known fields: .*user\.name/);
      expect(sink.text()).toBe("");
    },
  );

  it("is checked at the first batch with records, so empty windows first do not let a typo through", async () => {
    const writer = createRecordWriter(memorySink(), { format: "json", fields: ["nope"] });
    await writer.writeBatch([]);
    await expect(writer.writeBatch(WINDOW_1)).rejects.toThrow(UsageError);
  });

  it("accepts fields that only known fields name", async () => {
    const text = await render([[]], { format: "csv", fields: ["x"], knownFields: ["x"] });
    expect(text).toBe("x\n");
  });
});
