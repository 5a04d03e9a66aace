import { describe, expect, it } from "vitest";
import { ColumnNames, cellType, kindTable, quoteIdentifier, widen } from "../../src/domain/sync-columns.js";
import { blockStart, isComplete, planSyncWindows, type SyncedWindow } from "../../src/domain/sync-windows.js";

// Day numbers computed apart from the modules under test (Date.parse of a date-only ISO text is UTC).
const day = (text: string): number => Date.parse(`${text}T00:00:00Z`) / 86_400_000;
const held = (start: string, end: string, fetched: string, complete: boolean): [string, SyncedWindow] => [
  start,
  { start, end, fetchedDay: day(fetched), complete },
];

describe("planSyncWindows", () => {
  it("aligns windows to 30-day blocks from 1970-01-01, whatever day --since names", () => {
    expect(blockStart(day("2026-11-24"))).toBe(day("2026-11-03"));
    const a = planSyncWindows({ today: day("2026-11-24"), since: day("2026-10-05"), openDays: 2, synced: new Map() });
    const b = planSyncWindows({ today: day("2026-11-24"), since: day("2026-11-02"), openDays: 2, synced: new Map() });
    expect(a).toEqual([
      { startDate: "2026-10-04", endDate: "2026-11-02", reason: "missing" },
      { startDate: "2026-11-03", endDate: "2026-11-24", reason: "missing" },
    ]);
    expect(b).toEqual(a);
  });

  it("fetches the open window, a recently ended one, and nothing that is complete", () => {
    const synced = new Map([
      held("2026-09-04", "2026-10-03", "2026-10-10", true),
      held("2026-10-04", "2026-11-02", "2026-11-03", false),
      held("2026-11-03", "2026-11-23", "2026-11-23", false),
    ]);
    expect(planSyncWindows({ today: day("2026-11-24"), since: day("2026-09-10"), openDays: 2, synced })).toEqual([
      { startDate: "2026-10-04", endDate: "2026-11-02", reason: "recent" },
      { startDate: "2026-11-03", endDate: "2026-11-24", reason: "open" },
    ]);
    // Fetched two days after its end: complete; with --open-days 0 already one day after.
    const settled = new Map([held("2026-10-04", "2026-11-02", "2026-11-04", false)]);
    expect(planSyncWindows({ today: day("2026-11-05"), since: day("2026-10-04"), openDays: 2, synced: settled })).toEqual([
      { startDate: "2026-11-03", endDate: "2026-11-05", reason: "missing" },
    ]);
  });

  it.each([
    ["fetched whole two days after its end", "2026-11-02", "2026-11-04", 2, true],
    ["fetched whole one day after its end", "2026-11-02", "2026-11-03", 2, false],
    ["fetched while open (asked only to 11-01)", "2026-11-01", "2026-11-10", 2, false],
    ["fetched on its last day with --open-days 0", "2026-11-02", "2026-11-02", 0, true],
  ])("a window %s is complete: %s", (_label, end, fetched, openDays, complete) => {
    expect(isComplete(day("2026-11-02"), day(end), day(fetched), openDays)).toBe(complete);
  });
});

describe("sync columns", () => {
  it.each([
    [5, "bigint"],
    [5.5, "double"],
    [true, "boolean"],
    ["x", "text"],
    [null, undefined],
  ] as const)("%j needs a %s column", (cell, type) => {
    expect(cellType(cell)).toBe(type);
  });

  it.each([
    ["bigint", "double", "double"],
    ["double", "bigint", "double"],
    ["bigint", "text", "text"],
    ["boolean", "bigint", "text"],
    ["bigint", undefined, "bigint"],
    [undefined, "boolean", "boolean"],
  ] as const)("%s widened with %s is %s", (a, b, wider) => {
    expect(widen(a, b)).toBe(wider);
  });

  it("keeps a field's column across runs, apart from system columns and case twins", () => {
    const first = new ColumnNames(["window_start", "window_end", "fetched_at", "raw"]);
    expect(first.columnFor("userId")).toBe("userId");
    expect(first.columnFor("userid")).toBe("userid_2");
    expect(first.columnFor("raw")).toBe("record.raw");
    // The next run, with the table as the first left it, in another order.
    const next = new ColumnNames(["window_start", "window_end", "fetched_at", "raw", "userId", "userid_2", "record.raw"]);
    expect(next.columnFor("userid")).toBe("userid_2");
    expect(next.columnFor("userId")).toBe("userId");
    expect(next.columnFor("raw")).toBe("record.raw");
  });

  it("shortens names longer than PostgreSQL's 63 bytes to 54 bytes and 8 hex digits of their SHA-256, keeping them apart", () => {
    const names = new ColumnNames([]);
    expect(names.columnFor(`${"x".repeat(70)}.a`)).toBe(`${"x".repeat(54)}_601b3cbb`);
    expect(names.columnFor(`${"x".repeat(70)}.b`)).toBe(`${"x".repeat(54)}_fd70e5e9`);
    // Bytes, not characters: é is two bytes in UTF-8.
    expect(names.columnFor("é".repeat(40))).toBe(`${"é".repeat(27)}_84fe2e03`);
    // 63 bytes fit; 64 do not.
    expect(names.columnFor("x".repeat(63))).toBe("x".repeat(63));
    expect(names.columnFor("y".repeat(64))).toBe(`${"y".repeat(54)}_ffbf30ab`);
    // A case twin of a 63-byte name: its "_2" makes it too long, so it is shortened too.
    expect(names.columnFor("X".repeat(63))).toBe(`${"X".repeat(54)}_8fcc48a4`);
  });
});

describe("sync edges (issue 27 item 3)", () => {
  it("blocks are 30 days from day 0", () => {
    expect([0, 29, 30, 59, 60, 20_416].map(blockStart)).toEqual([0, 0, 30, 30, 60, 20_400]);
  });

  it("a --since after today plans today's block only", () => {
    expect(planSyncWindows({ today: day("2026-11-24"), since: day("2026-12-24"), openDays: 2, synced: new Map() })).toEqual([
      { startDate: "2026-11-03", endDate: "2026-11-24", reason: "missing" },
    ]);
  });

  it("a block whose last day is today is open, and is fetched again even when marked complete", () => {
    const synced = new Map([held("2026-10-04", "2026-11-02", "2026-11-02", true)]);
    expect(planSyncWindows({ today: day("2026-11-02"), since: day("2026-10-04"), openDays: 0, synced })).toEqual([
      { startDate: "2026-10-04", endDate: "2026-11-02", reason: "open" },
    ]);
  });

  it("a past block held with an unreadable end is fetched again", () => {
    const synced = new Map([held("2026-10-04", "garbage", "2026-11-20", false)]);
    expect(planSyncWindows({ today: day("2026-11-24"), since: day("2026-10-04"), openDays: 2, synced })).toEqual([
      { startDate: "2026-10-04", endDate: "2026-11-02", reason: "recent" },
      { startDate: "2026-11-03", endDate: "2026-11-24", reason: "missing" },
    ]);
  });

  it.each([
    [2 ** 53, "double"],
    [-3, "bigint"],
    [0, "bigint"],
    [false, "boolean"],
    ["", "text"],
  ] as const)("%j needs a %s column", (cell, type) => {
    expect(cellType(cell)).toBe(type);
  });

  it.each([
    ["text", "text", "text"],
    ["boolean", "boolean", "boolean"],
    ["double", "double", "double"],
    ["double", "text", "text"],
    ["boolean", "double", "text"],
    ["text", "bigint", "text"],
    [undefined, undefined, undefined],
  ] as const)("%s widened with %s is %s", (a, b, wider) => {
    expect(widen(a, b)).toBe(wider);
  });

  it("a table's column of another case holds the name; the exact column is kept", () => {
    const names = new ColumnNames(["UserId"]);
    expect(names.columnFor("userid")).toBe("userid_2");
    expect(names.columnFor("UserId")).toBe("UserId");
    expect(names.columnFor("UserId")).toBe("UserId");
    expect(names.columnFor("window_start")).toBe("record.window_start");
    expect(names.columnFor("Raw")).toBe("Raw_2");
    expect(names.columnFor("userid")).toBe("userid_2");
    expect(names.columnFor("USERID")).toBe("USERID_3");
  });

  it("quotes identifiers and names tables", () => {
    expect(quoteIdentifier('a"b"c')).toBe('"a""b""c"');
    expect(quoteIdentifier("user.team")).toBe('"user.team"');
    expect(kindTable("training-plan-result")).toBe("training_plan_result");
    expect(kindTable("users")).toBe("users");
  });
});

describe("column names: a field named like another's column (issue 27 item 3)", () => {
  it("gives a field named like the case twin's column a column of its own, and the same one when asked again", () => {
    const names = new ColumnNames([]);
    expect(names.columnFor("A")).toBe("A");
    expect(names.columnFor("a")).toBe("a_2");
    // Before, `a_2` was taken for "a column the table already has" and shared with field `a`.
    expect(names.columnFor("a_2")).toBe("a_2_2");
    expect([names.columnFor("a"), names.columnFor("a_2"), names.columnFor("A")]).toEqual(["a_2", "a_2_2", "A"]);
  });

  it("a later run finds the same columns in the table", () => {
    const names = new ColumnNames(["window_start", "window_end", "fetched_at", "raw", "A", "a_2", "a_2_2"]);
    expect([names.columnFor("A"), names.columnFor("a"), names.columnFor("a_2")]).toEqual(["A", "a_2", "a_2_2"]);
  });
});

describe("sync windows: the day a block begins, and the stored complete flag (issue 27 item 3)", () => {
  it("on the first day of a block, that block is fetched up to today", () => {
    // 2025-12-08 is day 20430 = 681 × 30: a block begins.
    expect(planSyncWindows({ today: day("2025-12-08"), since: day("2025-12-01"), openDays: 2, synced: new Map() })).toEqual([
      { startDate: "2025-11-08", endDate: "2025-12-07", reason: "missing" },
      { startDate: "2025-12-08", endDate: "2025-12-08", reason: "missing" },
    ]);
  });

  it("a past block stored as complete is not fetched again, even when its fetch day would not make it complete now", () => {
    const synced = new Map<string, SyncedWindow>([
      ["2025-11-08", { start: "2025-11-08", end: "2025-12-07", fetchedDay: day("2025-12-07"), complete: true }],
    ]);
    expect(planSyncWindows({ today: day("2025-12-20"), since: day("2025-11-10"), openDays: 2, synced })).toEqual([
      { startDate: "2025-12-08", endDate: "2025-12-20", reason: "missing" },
    ]);
  });
});
