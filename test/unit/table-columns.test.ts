import { describe, expect, it } from "vitest";
import { flattenRecord } from "../../src/domain/records.js";
import { chooseTableColumns, rankColumns, tableHint } from "../../src/output/table-columns.js";

// issue 21 item 1: a terminal table picks its columns from the records themselves — a date,
// a name or title, then numbers, before ids and long text — as many as fit, never from a
// list of the sandbox's field names.

/** Records shaped as an independent service might send them (none of the sandbox's names). */
const RECORDS = [
  {
    date: "2026-10-01",
    userId: "u-7f3a9c21",
    name: "Ada Lovelace",
    stats: { attempts: 12, avgScore: 87.5, completions: 9 },
    trend: "up",
    note: "Completed the onboarding track ahead of the planned schedule.",
  },
  {
    date: "2026-10-02",
    userId: "u-1b2c3d4e",
    name: "Grace Hopper",
    stats: { attempts: 3, avgScore: 61, completions: 1 },
    trend: "down",
    note: "Needs a follow-up session on the negotiation simulation.",
  },
];
const ROWS = RECORDS.map((r) => flattenRecord(r));
const COLUMNS = Object.keys(ROWS[0]!);

describe("rankColumns", () => {
  it("puts the date, then the name, then numbers, then short words, before ids and long text", () => {
    expect(rankColumns(COLUMNS, ROWS)).toEqual([
      "date",
      "name",
      "stats.attempts",
      "stats.avgScore",
      "stats.completions",
      "trend",
      "userId",
      "note",
    ]);
  });

  it.each([
    ["title", { when: "2026-01-01", id: 5, title: "Negotiation" }, ["when", "title", "id"]],
    ["a uuid-valued column", { ref: "0b8f8c0e-3d5e-4a7b-9c1d-2e3f4a5b6c7d", label: "A", n: 1 }, ["label", "n", "ref"]],
    ["an all-empty column", { x: null, name: "B", score: 2 }, ["name", "score", "x"]],
    ["a second date as a short column", { start: "2026-01-01", end: "2026-01-31", n: 4 }, ["start", "n", "end"]],
  ])("ranks %s by what its values look like", (_what, record, expected) => {
    const rows = [flattenRecord(record)];
    expect(rankColumns(Object.keys(rows[0]!), rows)).toEqual(expected);
  });
});

describe("chooseTableColumns", () => {
  it("at 80 columns shows the telling columns that fit and leaves the id and the note out", () => {
    const choice = chooseTableColumns(COLUMNS, ROWS, 80);
    expect(choice.shown.slice(0, 3)).toEqual(["date", "name", "stats.attempts"]);
    expect(choice.hidden).toContain("note");
    expect(choice.hidden).toContain("userId");
    const width = choice.shown.reduce(
      (sum, column) => sum + Math.max(column.length, ...ROWS.map((r) => String(r[column] ?? "").length)) + 3,
      1,
    );
    expect(width).toBeLessThanOrEqual(80);
    expect([...choice.shown, ...choice.hidden].sort()).toEqual([...COLUMNS].sort());
  });

  it("shows every column when they fit", () => {
    expect(chooseTableColumns(["date", "n"], [{ date: "2026-01-01", n: 1 }], 80)).toEqual({
      shown: ["date", "n"],
      hidden: [],
      widths: { date: 10, n: 1 },
    });
  });

  it("shows at least one column on a terminal narrower than any", () => {
    expect(chooseTableColumns(COLUMNS, ROWS, 5).shown).toEqual(["date"]);
  });
});

describe("tableHint", () => {
  it("names what is left out and a --fields that names real columns", () => {
    const hint = tableHint("users", { shown: ["date", "name"], hidden: ["userId", "note"] }, 80);
    expect(hint).toBe(
      "users: 2 of 4 columns shown to fit 80 columns; left out: userId, note (--fields date,name,userId or -o csv / -o json for every column)",
    );
  });

  it("suggests a --fields whose table fits: the least telling shown columns make room for the first hidden", () => {
    // 1 + (10+3) + (12+3) + (20+3) = 52; adding `extra` (25+3) would make 80 > 60.
    const widths = { date: 10, name: 12, wide: 20, extra: 25 };
    const hint = tableHint("k", { shown: ["date", "name", "wide"], hidden: ["extra"], widths }, 60);
    expect(hint).toContain("--fields date,name,extra ");
  });

  it("offers only -o csv / -o json when no hidden column fits even beside the first shown", () => {
    const hint = tableHint("k", { shown: ["date"], hidden: ["note"], widths: { date: 10, note: 70 } }, 80);
    expect(hint).not.toContain("--fields");
    expect(hint).toContain("-o csv / -o json");
  });

  it("quotes a --fields value the shell would split", () => {
    expect(tableHint("k", { shown: ["first name"], hidden: ["it's"] }, undefined)).toContain(`--fields 'first name,it'\\''s'`);
  });

  it("offers only -o csv when a column name holds a comma (--fields cannot name it)", () => {
    const hint = tableHint("k", { shown: ["a,b"], hidden: ["c"] }, 40);
    expect(hint).not.toContain("--fields");
    expect(hint).toContain("-o csv");
  });
});
