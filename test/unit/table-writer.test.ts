import { describe, expect, it } from "vitest";
import type { JsonRecord } from "../../src/domain/records.js";
import { createRecordWriter } from "../../src/output/record-stream.js";
import type { RecordStreamOptions } from "../../src/output/record-types.js";
import type { TableColumns } from "../../src/output/table-columns.js";
import { memorySink } from "../helpers/memory-sink.js";

// The table writer (src/output/table-writer.ts), driven directly: which columns it draws
// (--fields, the command's tableColumns, or chosen from the records), one object as
// `key: value` lines, and that the table is written once.

async function render(batches: JsonRecord[][], options: Omit<RecordStreamOptions, "format">): Promise<string> {
  const sink = memorySink();
  const writer = createRecordWriter(sink, { format: "table", ...options });
  for (const batch of batches) await writer.writeBatch(batch);
  await writer.end();
  return sink.text();
}

const ROWS = [
  { id: "s1", title: "Alpha", tags: ["x", "y"] },
  { id: "s2", title: "Beta", extra: "e" },
];

describe("table writer", () => {
  it("draws the union of columns in first-seen order, lists joined with a comma", async () => {
    expect(await render([ROWS.slice(0, 1), ROWS.slice(1)], { width: 80 })).toBe(
      [
        "┌────┬───────┬──────┬───────┐",
        "│ id │ title │ tags │ extra │",
        "├────┼───────┼──────┼───────┤",
        "│ s1 │ Alpha │ x, y │       │",
        "│ s2 │ Beta  │      │ e     │",
        "└────┴───────┴──────┴───────┘",
        "",
      ].join("\n"),
    );
  });

  it("draws --fields in their order", async () => {
    expect(await render([ROWS], { width: 80, fields: ["title", "id"] })).toBe(
      ["┌───────┬────┐", "│ title │ id │", "├───────┼────┤", "│ Alpha │ s1 │", "│ Beta  │ s2 │", "└───────┴────┘", ""].join("\n"),
    );
  });

  it("draws the command's table columns the records have, leaving out those they lack", async () => {
    expect(await render([ROWS], { width: 80, tableColumns: ["title", "missing", "id"] })).toBe(
      ["┌───────┬────┐", "│ title │ id │", "├───────┼────┤", "│ Alpha │ s1 │", "│ Beta  │ s2 │", "└───────┴────┘", ""].join("\n"),
    );
  });

  it("draws every column when the records have none of the command's table columns", async () => {
    expect(await render([[{ a: 1 }]], { width: 80, tableColumns: ["missing"] })).toBe(
      ["┌───┐", "│ a │", "├───┤", "│ 1 │", "└───┘", ""].join("\n"),
    );
  });

  it("chooses the columns that fit from the records when asked to, and says which it left out", async () => {
    const hidden: TableColumns[] = [];
    const rows = [{ id: "0123456789abcdef0123", note: "n".repeat(40), when: "2026-10-01", name: "Ana" }];
    const text = await render([rows], { width: 30, onColumnsHidden: (choice) => hidden.push(choice) });
    expect(text).toBe(
      [
        "┌────────────┬──────┐",
        "│ when       │ name │",
        "├────────────┼──────┤",
        "│ 2026-10-01 │ Ana  │",
        "└────────────┴──────┘",
        "",
      ].join("\n"),
    );
    expect(hidden).toEqual([
      { shown: ["when", "name"], hidden: ["id", "note"], widths: { when: 10, name: 4, id: 20, note: 40 } },
    ]);
  });

  it("chooses the columns for 120 characters when no width is known", async () => {
    const hidden: TableColumns[] = [];
    const rows = [{ a: "a".repeat(60), b: "b".repeat(60) }];
    await render([rows], { onColumnsHidden: (choice) => hidden.push(choice) });
    expect(hidden.map((c) => c.hidden)).toEqual([["b"]]);
  });

  it("does not call back when every column fits, nor when there is no record", async () => {
    const calls: TableColumns[] = [];
    expect(await render([[{ a: 1 }]], { width: 80, onColumnsHidden: (c) => calls.push(c) })).toBe(
      ["┌───┐", "│ a │", "├───┤", "│ 1 │", "└───┘", ""].join("\n"),
    );
    expect(await render([], { width: 80, onColumnsHidden: (c) => calls.push(c) })).toBe("(no results)\n");
    expect(calls).toEqual([]);
  });

  it("does not choose columns when the command names them", async () => {
    const calls: TableColumns[] = [];
    const rows = [{ a: "a".repeat(30), b: "b".repeat(30) }];
    await render([rows], { width: 40, fields: ["a", "b"], onColumnsHidden: (c) => calls.push(c) });
    await render([rows], { width: 40, tableColumns: ["a", "b"], onColumnsHidden: (c) => calls.push(c) });
    expect(calls).toEqual([]);
  });

  it("prints one object as key: value lines at full length, coloured keys on request", async () => {
    const link = `https://example.test/${"x".repeat(100)}`;
    expect(await render([[{ id: "s1", link }]], { width: 40, single: true })).toBe(`id:   s1\nlink: ${link}\n`);
    expect(await render([[{ id: "s1" }]], { single: true, color: true })).toBe("\u001b[36mid:\u001b[39m s1\n");
  });

  it("prints one object as a table of --fields when they are given", async () => {
    expect(await render([[{ id: "s1", title: "A" }]], { width: 80, single: true, fields: ["title"] })).toBe(
      ["┌───────┐", "│ title │", "├───────┤", "│ A     │", "└───────┘", ""].join("\n"),
    );
  });

  it("writes the table once, however often end() is called, and nothing after abort()", async () => {
    const sink = memorySink();
    const writer = createRecordWriter(sink, { format: "table", width: 80 });
    await writer.writeBatch([{ a: 1 }]);
    await writer.end();
    await writer.end();
    expect(sink.writes).toBe(1);
    expect(writer.count).toBe(1);

    const aborted = memorySink();
    const other = createRecordWriter(aborted, { format: "table", width: 80 });
    await other.writeBatch([{ a: 1 }]);
    await other.abort();
    await other.end();
    expect(aborted.writes).toBe(0);
  });

  it("checks --fields at the end when no record came", async () => {
    const writer = createRecordWriter(memorySink(), { format: "table", fields: ["nope"], knownFields: ["id"] });
    await expect(writer.end()).rejects.toThrow("unknown field for --fields: nope; known fields: id");
  });
});
