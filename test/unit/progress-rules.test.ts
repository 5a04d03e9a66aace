import { describe, expect, it } from "vitest";
import {
  askOrder,
  countStates,
  formatCounts,
  isDueSoon,
  isOverdue,
  pairFacts,
  pairState,
  parseDueDate,
  ProgressRowChecker,
  splitFileNames,
  type PairFacts,
} from "../../src/domain/progress.js";

// The pure rules of `progress --from-csv` (docs/cli-contract.md "Progress"; issue 25), driven
// directly (issue 27 item 3: the module had no unit test, so no mutant of it was killed under
// `npm run mutate`). Expectations are written out.

const DAY = 86_400_000;
const NOV_21 = Date.UTC(2026, 10, 21); // 2026-11-21T00:00:00Z

describe("parseDueDate", () => {
  it("reads a real date as 00:00 UTC", () => {
    expect(parseDueDate("2026-12-31")).toBe(Date.UTC(2026, 11, 31));
    expect(parseDueDate("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
  });

  it.each([
    "2026-02-29",
    "2026-13-01",
    "2026-04-31",
    "2026-00-10",
    "2026-01-00",
    "2026-1-01",
    " 2026-01-01",
    "2026-01-01x",
    "x2026-01-01",
    "",
  ])("refuses %j", (text) => {
    expect(parseDueDate(text)).toBeUndefined();
  });
});

describe("ProgressRowChecker", () => {
  const header = { userId: 0, simulationId: 1, dueDate: 2, names: ["userId", "simulationId", "dueDate", "team"] };

  it("keeps a good row: ids trimmed, the due date, the other columns as read", () => {
    const checker = new ProgressRowChecker(header);
    checker.add([" u1 ", "s1\t", " 2026-12-31 ", " Sales "], 2);
    checker.add(["u2", "s1", "", ""], 3);
    expect(checker.problems).toEqual([]);
    expect(checker.rows).toEqual([
      { row: 2, userId: "u1", simulationId: "s1", dueDate: "2026-12-31", extra: { team: " Sales " } },
      { row: 3, userId: "u2", simulationId: "s1", dueDate: undefined, extra: { team: "" } },
    ]);
  });

  it("skips blank rows without a problem", () => {
    const checker = new ProgressRowChecker(header);
    checker.add(["", " ", "\t", ""], 2);
    expect(checker.rows).toEqual([]);
    expect(checker.problems).toEqual([]);
  });

  it("names every problem of a row and keeps the row out", () => {
    const checker = new ProgressRowChecker(header);
    checker.add(["", " ", "2026-02-30", "x", "extra"], 2);
    checker.add(["u1"], 3);
    expect(checker.problems).toEqual([
      { row: 2, field: "(row)", message: "has 5 cells, the header has 4" },
      { row: 2, field: "userId", message: "is empty" },
      { row: 2, field: "simulationId", message: "is empty" },
      { row: 2, field: "dueDate", message: '"2026-02-30" is not a date YYYY-MM-DD (e.g. 2026-12-31)' },
      { row: 3, field: "(row)", message: "has 1 cells, the header has 4" },
      { row: 3, field: "simulationId", message: "is empty" },
    ]);
    expect(checker.rows).toEqual([]);
  });

  it("quotes at most 30 characters of a bad due date", () => {
    const checker = new ProgressRowChecker(header);
    checker.add(["u1", "s1", "x".repeat(40), ""], 2);
    expect(checker.problems).toEqual([
      { row: 2, field: "dueDate", message: `"${"x".repeat(30)}" is not a date YYYY-MM-DD (e.g. 2026-12-31)` },
    ]);
  });

  it("refuses a repeated pair, naming the row that had it first, and keeps the first", () => {
    const checker = new ProgressRowChecker(header);
    checker.add(["u1", "s1", "", ""], 2);
    checker.add(["u1", "s2", "", ""], 3);
    checker.add([" u1", "s1 ", "", "again"], 4);
    expect(checker.problems).toEqual([{ row: 4, field: "(row)", message: "repeats the pair u1 / s1 of row 2" }]);
    expect(checker.rows.map((r) => r.row)).toEqual([2, 3]);
  });

  it("reads a file without a dueDate column, and one whose dueDate is the first column", () => {
    const noDue = new ProgressRowChecker({ userId: 1, simulationId: 2, dueDate: -1, names: ["team", "userId", "simulationId"] });
    noDue.add(["Sales", "u1", "s1"], 2);
    expect(noDue.rows).toEqual([{ row: 2, userId: "u1", simulationId: "s1", dueDate: undefined, extra: { team: "Sales" } }]);

    const dueFirst = new ProgressRowChecker({
      userId: 1,
      simulationId: 2,
      dueDate: 0,
      names: ["dueDate", "userId", "simulationId"],
    });
    dueFirst.add(["2026-12-01", "u1", "s1"], 2);
    dueFirst.add(["soon", "u2", "s1"], 3);
    expect(dueFirst.rows).toEqual([{ row: 2, userId: "u1", simulationId: "s1", dueDate: "2026-12-01", extra: {} }]);
    expect(dueFirst.problems).toEqual([
      { row: 3, field: "dueDate", message: '"soon" is not a date YYYY-MM-DD (e.g. 2026-12-31)' },
    ]);
  });
});

describe("pairFacts", () => {
  const done = (executionId: string, completedAt: unknown, score: number | null) => ({
    executionId,
    completedAt: completedAt as string,
    completionTime: 600,
    score,
  });

  it("no attempts: nothing completed", () => {
    expect(pairFacts([])).toEqual({ completed: false, incomplete: 0, attempts: 0, completedAt: null, bestScore: null });
  });

  it("counts started and inconsistent attempts as incomplete, takes the first completion and the best score", () => {
    expect(
      pairFacts([
        done("e1", "2026-01-12T10:00:00Z", 80),
        { executionId: "e2", completedAt: null, completionTime: null },
        done("e3", "2026-01-10T09:00:00Z", 70),
        { executionId: "e4", completedAt: "2026-01-11T09:00:00Z", completionTime: null },
      ]),
    ).toEqual({ completed: true, incomplete: 2, attempts: 4, completedAt: "2026-01-10T09:00:00Z", bestScore: 80 });
  });

  it("on two completions at the same instant keeps the first in the answer", () => {
    expect(pairFacts([done("e1", "2026-01-10T09:00:00.000Z", 1), done("e2", "2026-01-10T09:00:00Z", 2)]).completedAt).toBe(
      "2026-01-10T09:00:00.000Z",
    );
  });

  it("a readable completion time wins over an unreadable one, whatever the order", () => {
    expect(pairFacts([done("e1", "yesterday", 1), done("e2", "2026-01-10T09:00:00Z", 2)]).completedAt).toBe(
      "2026-01-10T09:00:00Z",
    );
  });

  it.each([["yesterday"], [" "], ["null"], [1_768_000_000_000]])(
    "a completedAt that is no timestamp (%j) is no completion: not completed, no completedAt, counted as incomplete",
    (completedAt) => {
      expect(pairFacts([done("e1", completedAt as string, 1)])).toMatchObject({
        completed: false,
        completedAt: null,
        incomplete: 1,
      });
    },
  );
});

describe("pairState", () => {
  const facts = (over: Partial<PairFacts>): PairFacts => ({
    completed: false,
    incomplete: 0,
    attempts: 0,
    completedAt: null,
    bestScore: null,
    ...over,
  });

  it.each<[string, PairFacts | undefined, string | undefined, 1 | 2, string]>([
    ["completed, even past the due date", facts({ completed: true, attempts: 1 }), "2026-11-01", 2, "completed"],
    ["completed under version 1", facts({ completed: true, attempts: 1 }), undefined, 1, "completed"],
    ["not asked yet, past the due date", undefined, "2026-11-20", 2, "overdue"],
    ["attempts but none completed, past the due date", facts({ attempts: 2, incomplete: 2 }), "2026-11-01", 2, "overdue"],
    ["attempts under version 2", facts({ attempts: 1, incomplete: 1 }), "2026-11-21", 2, "in-progress"],
    ["attempts under version 1", facts({ attempts: 1, incomplete: 1 }), undefined, 1, "not-started"],
    ["no attempts under version 2", facts({}), undefined, 2, "not-started"],
    ["not asked, no due date", undefined, undefined, 2, "not-started"],
  ])("%s → %s", (_name, f, due, version, state) => {
    expect(pairState(f, due, NOV_21, version)).toBe(state);
  });
});

describe("isOverdue and isDueSoon", () => {
  it("the whole due day counts: overdue from 00:00 UTC the day after", () => {
    expect(isOverdue("2026-11-20", NOV_21 - 1)).toBe(false);
    expect(isOverdue("2026-11-20", NOV_21)).toBe(true);
    expect(isOverdue("2026-11-21", NOV_21)).toBe(false);
    expect(isOverdue(undefined, NOV_21)).toBe(false);
    expect(isOverdue("soon", NOV_21)).toBe(false);
  });

  it("due soon: the end of the due day within the given days, and not yet overdue", () => {
    // 2026-11-25 ends at 2026-11-26T00:00Z: 5 days after NOV_21.
    expect(isDueSoon("2026-11-25", NOV_21, 5)).toBe(true);
    expect(isDueSoon("2026-11-25", NOV_21, 4)).toBe(false);
    expect(isDueSoon("2026-11-25", NOV_21 + DAY / 2, 4)).toBe(false);
    expect(isDueSoon("2026-11-25", NOV_21 + DAY, 4)).toBe(true);
    expect(isDueSoon("2026-11-20", NOV_21, 30)).toBe(false);
    expect(isDueSoon(undefined, NOV_21, 30)).toBe(false);
    expect(isDueSoon("soon", NOV_21, 30)).toBe(false);
  });
});

describe("askOrder", () => {
  it("overdue first, then due soon, each by due date, then the rest in file order", () => {
    const rows = [
      { row: 2, dueDate: undefined },
      { row: 3, dueDate: "2026-11-25" },
      { row: 4, dueDate: "2026-11-10" },
      { row: 5, dueDate: "2026-11-22" },
      { row: 6, dueDate: "2026-11-01" },
      { row: 7, dueDate: "2027-01-01" },
      { row: 8, dueDate: undefined },
      { row: 9, dueDate: "2026-11-22" },
    ];
    expect(askOrder(rows, NOV_21, 7).map((r) => r.row)).toEqual([6, 4, 5, 9, 3, 2, 7, 8]);
    expect(rows.map((r) => r.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("with no due-soon window only the overdue rows move", () => {
    const rows = [
      { row: 2, dueDate: "2026-11-21" },
      { row: 3, dueDate: "2026-11-20" },
    ];
    expect(askOrder(rows, NOV_21, 0).map((r) => r.row)).toEqual([3, 2]);
  });
});

describe("countStates and formatCounts", () => {
  it("counts each state", () => {
    expect(countStates(["completed", "overdue", "in-progress", "not-started", "completed", "overdue", "overdue"])).toEqual({
      completed: 2,
      inProgress: 1,
      notStarted: 1,
      overdue: 3,
    });
    expect(countStates([])).toEqual({ completed: 0, inProgress: 0, notStarted: 0, overdue: 0 });
  });

  it("says pair or pairs", () => {
    expect(formatCounts({ completed: 20, inProgress: 10, notStarted: 25, overdue: 5 })).toBe(
      "60 pairs: 20 done, 10 in progress, 25 not started, 5 overdue",
    );
    expect(formatCounts({ completed: 0, inProgress: 0, notStarted: 0, overdue: 1 })).toBe(
      "1 pair: 0 done, 0 in progress, 0 not started, 1 overdue",
    );
    expect(formatCounts({ completed: 0, inProgress: 0, notStarted: 0, overdue: 0 })).toBe(
      "0 pairs: 0 done, 0 in progress, 0 not started, 0 overdue",
    );
  });
});

describe("splitFileNames", () => {
  it("keeps safe names, replaces each run of other characters by one _, and names the empty value", () => {
    expect([...splitFileNames(["Sales", "a/b  c", "", "  ", "Ops_1.x-y", "Téam"])]).toEqual([
      ["Sales", "Sales"],
      ["a/b  c", "a_b_c"],
      ["", "_none_"],
      ["  ", "_none_-2"],
      ["Ops_1.x-y", "Ops_1.x-y"],
      ["Téam", "Téam"],
    ]);
  });

  it("trims the value and composes accents (NFC) before replacing", () => {
    expect(splitFileNames([" e\u0301 "]).get(" e\u0301 ")).toBe("\u00e9");
  });

  it("never starts a name with a dot", () => {
    expect([...splitFileNames(["..", ".", "../etc", ".hidden"]).values()]).toEqual(["_..", "_.", "_.._etc", "_.hidden"]);
  });

  it("cuts at 80 characters", () => {
    expect(splitFileNames(["x".repeat(100)]).get("x".repeat(100))).toBe("x".repeat(80));
  });

  it("numbers names already taken, ignoring case; a value seen before keeps its name", () => {
    expect([...splitFileNames(["Sales", "sales", "SALES", "Sales", "Sales-2"])]).toEqual([
      ["Sales", "Sales"],
      ["sales", "sales-2"],
      ["SALES", "SALES-3"],
      ["Sales-2", "Sales-2-2"],
    ]);
  });
});

describe("progress rules: the last survivors (issue 27 item 3)", () => {
  const header = { userId: 0, simulationId: 1, dueDate: -1, names: ["userId", "simulationId"] };

  it.each(["0050-01-01", "2026-12-00", "2026-11-31", "2026-02-30"])(
    "parseDueDate refuses %s, rolled over by Date.UTC",
    (text) => {
      expect(parseDueDate(text)).toBeUndefined();
    },
  );

  it("a pair with an empty id is no pair: two such rows are two empty ids, not a repeat", () => {
    const checker = new ProgressRowChecker(header);
    checker.add(["", "s1"], 2);
    checker.add(["", "s1"], 3);
    checker.add(["u1", ""], 4);
    checker.add(["u1", ""], 5);
    expect(checker.problems).toEqual([
      { row: 2, field: "userId", message: "is empty" },
      { row: 3, field: "userId", message: "is empty" },
      { row: 4, field: "simulationId", message: "is empty" },
      { row: 5, field: "simulationId", message: "is empty" },
    ]);
    expect(checker.rows).toEqual([]);
  });

  it("a short row: its missing ids are empty", () => {
    const checker = new ProgressRowChecker({ userId: 1, simulationId: 0, dueDate: -1, names: ["simulationId", "userId"] });
    checker.add(["s1"], 2);
    expect(checker.problems).toEqual([
      { row: 2, field: "(row)", message: "has 1 cells, the header has 2" },
      { row: 2, field: "userId", message: "is empty" },
    ]);
  });

  it("pairFacts takes the first completion among completed attempts only", () => {
    const facts = pairFacts([
      { executionId: "e1", completedAt: "2026-01-01T00:00:00Z", completionTime: null },
      { executionId: "e2", completedAt: "2026-02-01T00:00:00Z", completionTime: 300, score: 80 },
    ]);
    expect(facts).toEqual({ completed: true, incomplete: 1, attempts: 2, completedAt: "2026-02-01T00:00:00Z", bestScore: 80 });
  });

  it("askOrder: equal rank and due date in file order, whatever the order given; earlier due first", () => {
    const rows = [
      { row: 7, dueDate: "2026-11-01" },
      { row: 3, dueDate: "2026-11-01" },
      { row: 2, dueDate: "2026-11-05" },
      { row: 9, dueDate: undefined },
      { row: 4, dueDate: undefined },
    ];
    expect(askOrder(rows, NOV_21, 7).map((r) => r.row)).toEqual([3, 7, 2, 4, 9]);
  });

  it("askOrder: an overdue row goes before a row without a due date, whatever their row numbers", () => {
    const rows = [
      { row: 3, dueDate: "2026-11-01" },
      { row: 2, dueDate: undefined },
    ];
    expect(askOrder(rows, NOV_21, 7).map((r) => r.row)).toEqual([3, 2]);
  });

  it("no due date is never overdue nor due soon; an unreadable one neither", () => {
    expect([isOverdue(undefined, NOV_21), isDueSoon(undefined, NOV_21, 3650)]).toEqual([false, false]);
    expect([isOverdue("soon", NOV_21), isDueSoon("soon", NOV_21, 3650)]).toEqual([false, false]);
  });
});
