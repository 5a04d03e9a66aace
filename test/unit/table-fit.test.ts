import { columnTexts } from "../helpers/drawn-table.js";
import { describe, expect, it } from "vitest";
import { fitWidths, renderTable } from "../../src/output/table.js";

// issue 21 item 1: a table given its columns fits the terminal by wrapping cells (never cutting
// them), the long columns narrowed first; only when not even one character a column fits does
// it say so, in one line.

describe("fitWidths", () => {
  it("keeps natural widths that fit", () => {
    expect(fitWidths([10, 4, 7], 30)).toEqual([10, 4, 7]);
  });

  it("narrows the widest columns first, to the room exactly", () => {
    const widths = fitWidths([10, 4, 60, 40], 50);
    expect(widths.reduce((a, b) => a + b, 0)).toBe(50);
    expect(widths.slice(0, 2)).toEqual([10, 4]);
    expect(Math.max(...widths.slice(2))).toBeLessThanOrEqual(19);
  });

  it("gives each column at least one character when that is all there is", () => {
    expect(fitWidths([5, 5, 5], 3)).toEqual([1, 1, 1]);
  });
});

describe("renderTable at a terminal width", () => {
  const note = "a long note that would never fit beside the other columns of this table at all";
  const rows = [{ date: "2026-10-01", id: "0b8f8c0e-3d5e-4a7b-9c1d-2e3f4a5b6c7d", note, total: 12 }];

  it("wraps cells so every line fits, and keeps every character", async () => {
    const text = await renderTable(["date", "id", "note", "total"], rows, { width: 60 });
    const lines = text.trimEnd().split("\n");
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(60);
    // Header, then the row: each column's wrapped lines joined again, spaces aside.
    const [header, row] = columnTexts(text);
    expect(header).toEqual(["date", "id", "note", "total"]);
    expect(row).toEqual(["2026-10-01", rows[0]!.id, note, "12"].map((v) => v.replace(/ /g, "")));
  });

  it("says so in one line, suggesting -o csv, when not one character a column fits", async () => {
    const text = await renderTable(["date", "id", "note", "total"], rows, { width: 15 });
    expect(text.trimEnd().split("\n")).toHaveLength(1);
    expect(text).toContain("-o csv");
  });
});
