import { describe, expect, it } from "vitest";
import { BudgetTimes } from "../../src/api/rate/least-time.js";
import { progressFields, progressTable, type ProgressAnswers } from "../../src/commands/progress/records.js";
import type { ProgressRow } from "../../src/domain/progress.js";
import type { ProgressFile } from "../../src/engines/progress/input.js";
import type { PairResult } from "../../src/engines/progress/pair-asker.js";
import { dryRunValue, planProgress } from "../../src/engines/progress/progress-plan.js";

// What `progress` answers and plans (docs/cli-contract.md "Progress"), called as libraries: the
// records in file order with the file's own columns, the refused and unsettled pairs, the
// summary; the plan line and --dry-run's value. Every value is written out.

const NOW = Date.UTC(2026, 10, 28, 12);

const row = (n: number, userId: string, dueDate?: string, extra: Record<string, string> = {}): ProgressRow => ({
  row: n,
  userId,
  simulationId: "sim-1",
  dueDate,
  extra,
});

const fileOf = (rows: ProgressRow[], names: string[]): ProgressFile => ({
  header: { names, userId: 0, simulationId: 1, dueDate: 2 },
  rows,
  problems: [],
  warnings: [],
});

const answers = (results: PairResult[], links?: Map<ProgressRow, { link: string; expiresAt: string }>): ProgressAnswers => ({
  results: new Map(results.map((r) => [r.row, r])),
  links,
  doneAt: NOW,
  apiVersion: 2,
  requests: "4 requests in 2s",
});

describe("progressTable", () => {
  const done = row(2, "u-done", "2026-12-01", { manager: "m@x.test", state: "file's own" });
  const started = row(3, "u-started", "2026-12-01", { manager: "m@x.test" });
  const late = row(4, "u-late", "2026-11-01", { manager: "n@x.test" });
  const refused = row(5, "u-refused", undefined, { manager: "" });
  const unreadable = row(6, "u-odd", undefined, { manager: "" });
  const file = fileOf([done, started, late, refused, unreadable], ["userId", "simulationId", "dueDate", "manager", "state"]);
  const results: PairResult[] = [
    { row: done, facts: { completed: true, incomplete: 0, attempts: 2, completedAt: "2026-11-20T10:00:00Z", bestScore: 81 } },
    { row: started, facts: { completed: false, incomplete: 1, attempts: 1, completedAt: null, bestScore: null } },
    { row: late, facts: { completed: false, incomplete: 0, attempts: 0, completedAt: null, bestScore: null } },
    { row: refused, facts: undefined, error: "400 no such user" },
    { row: unreadable, facts: undefined, error: "the answer could not be read", unsettled: true },
  ];

  it("one record per row in file order: state, facts, the file's columns (a clash prefixed file.), the refusal", () => {
    const { table, refused: r, unsettled } = progressTable(file, answers(results));
    expect(table.records).toEqual([
      {
        userId: "u-done",
        simulationId: "sim-1",
        state: "completed",
        completedAt: "2026-11-20T10:00:00Z",
        bestScore: 81,
        attempts: 2,
        dueDate: "2026-12-01",
        manager: "m@x.test",
        "file.state": "file's own",
      },
      {
        userId: "u-started",
        simulationId: "sim-1",
        state: "in-progress",
        completedAt: null,
        bestScore: null,
        attempts: 1,
        dueDate: "2026-12-01",
        manager: "m@x.test",
      },
      {
        userId: "u-late",
        simulationId: "sim-1",
        state: "overdue",
        completedAt: null,
        bestScore: null,
        attempts: 0,
        dueDate: "2026-11-01",
        manager: "n@x.test",
      },
      {
        userId: "u-refused",
        simulationId: "sim-1",
        state: "unknown",
        completedAt: null,
        bestScore: null,
        attempts: 0,
        dueDate: null,
        manager: "",
        error: "400 no such user",
      },
      {
        userId: "u-odd",
        simulationId: "sim-1",
        state: "unknown",
        completedAt: null,
        bestScore: null,
        attempts: 0,
        dueDate: null,
        manager: "",
        error: "the answer could not be read",
      },
    ]);
    expect(r).toBe(1);
    expect(unsettled).toBe(1);
    expect(table.note).toBe(
      "3 pairs: 1 done, 1 in progress, 0 not started, 1 overdue, 1 refused by the service, 1 unsettled (the answer could not be read) (4 requests in 2s)",
    );
    expect(table.tableColumns).toEqual(["userId", "simulationId", "state", "dueDate", "completedAt"]);
    expect(table.flexColumn).toBe("completedAt");
    expect(table).not.toHaveProperty("wholeColumn");
    expect(table.knownFields).toEqual([
      "userId",
      "simulationId",
      "state",
      "completedAt",
      "bestScore",
      "attempts",
      "dueDate",
      "manager",
      "state",
      "error",
    ]);
  });

  it("with --links: each record's link and expiry (empty when none), the link column in the table", () => {
    const links = new Map([[done, { link: "https://sim.example.com/go?token=t", expiresAt: "2026-11-28T13:00:00.000Z" }]]);
    const { table } = progressTable(
      fileOf([done, started], ["userId", "simulationId", "dueDate"]),
      answers(results.slice(0, 2), links),
    );
    expect(table.records.map((r) => [r.userId, r.link, r.linkExpiresAt])).toEqual([
      ["u-done", "https://sim.example.com/go?token=t", "2026-11-28T13:00:00.000Z"],
      ["u-started", "", ""],
    ]);
    expect(table.tableColumns).toEqual(["userId", "simulationId", "state", "dueDate", "completedAt", "link"]);
    // A link is copied whole: under the table when the table cannot hold it (docs/table-width.md).
    expect(table.flexColumn).toBe("completedAt");
    expect(table.wholeColumn).toBe("link");
    expect(table.note).toBe("2 pairs: 1 done, 1 in progress, 0 not started, 0 overdue (4 requests in 2s)");
    expect(table.knownFields.slice(-3)).toEqual(["error", "link", "linkExpiresAt"]);
  });

  it("a pair not asked (or with no answer) is not started; one pair is 'pair'", () => {
    const lone = row(2, "u-1");
    const { table, refused: r } = progressTable(fileOf([lone], ["userId", "simulationId"]), answers([]));
    expect(table.records[0]!.state).toBe("not-started");
    expect(r).toBe(0);
    expect(table.note).toBe("1 pair: 0 done, 0 in progress, 1 not started, 0 overdue (4 requests in 2s)");
  });

  it("the fields known before any answer: the file's own columns but the three it maps, error always, links when asked", () => {
    const f = fileOf([], ["user", "sim", "due", "manager", "team"]);
    expect(progressFields(f, false)).toEqual([
      "userId",
      "simulationId",
      "state",
      "completedAt",
      "bestScore",
      "attempts",
      "dueDate",
      "manager",
      "team",
      "error",
    ]);
    expect(progressFields(f, true).slice(-3)).toEqual(["error", "link", "linkExpiresAt"]);
  });
});

describe("planProgress", () => {
  const budget = new BudgetTimes({ reports: { limit: 10, windowMs: 60_000 }, access: { limit: 2, windowMs: 60_000 } });

  it("cached completions are not asked; the rest overdue first, then due soon, then the others; the least time", () => {
    const cached = row(2, "u-cached", "2026-11-01");
    const later = row(3, "u-later", "2027-03-01");
    const soon = row(4, "u-soon", "2026-12-02");
    const late = row(5, "u-late", "2026-11-02");
    const none = row(6, "u-none");
    const plan = planProgress(
      [cached, later, soon, late, none],
      (r) => (r === cached ? { completedAt: "2026-10-30T09:00:00Z", bestScore: 90, attempts: 3 } : undefined) as never,
      budget,
      NOW,
      7,
    );
    expect(plan.ordered.map((r) => r.userId)).toEqual(["u-late", "u-soon", "u-later", "u-none"]);
    expect(plan.results.get(cached)).toEqual({
      row: cached,
      facts: { completed: true, incomplete: 0, attempts: 3, completedAt: "2026-10-30T09:00:00Z", bestScore: 90 },
    });
    expect(plan.results.size).toBe(1);
    expect(plan.cached).toBe(1);
    expect(plan.urgent).toBe(2);
    // 4 requests at 2 per minute: the first two at once, the next two one window (+ margin) later.
    expect(plan.minimumMs).toBeGreaterThanOrEqual(60_000);
    expect(plan.line).toMatch(
      /^4 pairs to ask, 1 cached: at least 1m( \d+s)? at 2 per 1m \(2 overdue or due within 7 days first\)$/,
    );
    expect(dryRunValue("pairs.csv", plan)).toEqual({
      file: "pairs.csv",
      pairs: 5,
      cached: 1,
      toAsk: 4,
      urgent: 2,
      minimumSeconds: Math.ceil(plan.minimumMs / 1000),
      budget: "2 per 1m",
    });
  });

  it("one pair, nothing urgent: no wait", () => {
    const plan = planProgress([row(2, "u-1", "2027-01-01")], () => undefined, budget, NOW, 7);
    expect(plan.line).toBe("1 pair to ask, 0 cached: no wait at 2 per 1m");
    expect(plan.urgent).toBe(0);
    expect(plan.minimumMs).toBe(0);
  });

  it("the budget named in seconds when its window is", () => {
    const fast = new BudgetTimes({ reports: { limit: 10, windowMs: 60_000 }, access: { limit: 100, windowMs: 30_000 } });
    expect(planProgress([], () => undefined, fast, NOW, 7).line).toBe("0 pairs to ask, 0 cached: no wait at 100 per 30s");
  });

  it("a window of minutes and seconds, or of hours and minutes, is named in one way", () => {
    const odd = (windowMs: number) =>
      new BudgetTimes({ reports: { limit: 10, windowMs: 60_000 }, access: { limit: 20, windowMs } });
    expect(planProgress([], () => undefined, odd(90_000), NOW, 7).line).toBe(
      "0 pairs to ask, 0 cached: no wait at 20 per 1m 30s",
    );
    expect(planProgress([], () => undefined, odd(5_400_000), NOW, 7).line).toBe(
      "0 pairs to ask, 0 cached: no wait at 20 per 1h 30m",
    );
  });
});
