import { describe, expect, it } from "vitest";
import type { ManifestBatch } from "../../src/domain/users-csv/import-manifest.js";
import type { Baseline } from "../../src/domain/users-sync/sync-plan.js";
import type { OpenTask, PlannedRow, SyncRun } from "../../src/domain/users-sync/records.js";
import { settleRun } from "../../src/domain/users-sync/settle.js";

// How a run ends up in the users sync baseline (docs/users-sync.md "Settling a run";
// docs/cli-contract.md "Sync": the baseline changes only for rows the service accepted), called
// as the pure rule it is. Rows here are plan rows 2, 3, … of the batches; every expectation is
// the list of addresses written out.

const NOW = "2026-11-28T03:00:00.000Z";
const PLANNED = "2026-11-28T02:00:00.000Z";

const row = (n: number): PlannedRow => ({
  email: `p${n}@example.com`,
  firstName: `First${n}`,
  lastName: `Last${n}`,
  teamName: "Sales",
  status: "ACTIVE",
  change: "add",
  action: "Add",
  rosterRow: n + 1,
  changed: [],
});

const batch = (number: number, firstRow: number, lastRow: number, extra: Partial<ManifestBatch>): ManifestBatch => ({
  number,
  rows: lastRow - firstRow + 1,
  firstRow,
  lastRow,
  sha256: "0".repeat(64),
  state: "uploaded",
  sends: 1,
  ...extra,
});

const emptyBaseline: Baseline = {
  version: 1,
  baseUrl: "https://sim.example.com",
  organizationId: "org-1",
  createdAt: PLANNED,
  updatedAt: PLANNED,
  users: {},
};

/** Batch 1 holds plan rows 1–2 (batch rows 2–3), batch 2 rows 3–4 (batch rows 4–5). */
const runOf = (batches: ManifestBatch[]): SyncRun => ({
  version: 1,
  createdAt: PLANNED,
  rows: [row(1), row(2), row(3), row(4)],
  batches,
  uncertain: {},
});

const settle = (run: SyncRun | undefined, tasks: OpenTask[] = [], states: [string, "COMPLETED" | "FAILED"][] = []) =>
  settleRun({ baseline: emptyBaseline, run, held: [], tasks, taskStates: new Map(states), nowIso: NOW });

const inBaseline = (baseline: Baseline): string[] => Object.keys(baseline.users).sort();

describe("rows of a refused batch entering the baseline", () => {
  it("a batch the service refused whole (no task) puts none of its rows into the baseline; the accepted batch's do", () => {
    const refusedWhole = batch(1, 2, 3, {
      state: "rejected",
      rowErrors: [
        { row: 2, batchRow: 2, field: "email", messages: ["exists"] },
        { row: 3, batchRow: 3, field: "email", messages: ["exists"] },
      ],
    });
    const accepted = batch(2, 4, 5, { taskId: "t-2", status: "COMPLETED" });
    const s = settle(runOf([refusedWhole, accepted]));
    expect(inBaseline(s.baseline)).toEqual(["p3@example.com", "p4@example.com"]);
    expect(s.entered).toBe(2);
    expect(s.rejected).toBe(2);
    expect(s.baseline.updatedAt).toBe(NOW);
    expect(s.tasks).toEqual([]);
    expect(s.held).toEqual([]);
  });

  it("a refused batch whose answer named no row still keeps all its rows out", () => {
    const s = settle(runOf([batch(1, 2, 3, { state: "rejected", error: "no valid row" })]));
    expect(inBaseline(s.baseline)).toEqual([]);
    expect(s.baseline).toBe(emptyBaseline);
    expect(s.entered).toBe(0);
    expect(s.rejected).toBe(2);
    expect(s.tasks).toEqual([]);
  });

  it("a FAILED task of the run puts none of its rows into the baseline: they are planned again", () => {
    const s = settle(
      runOf([batch(1, 2, 3, { taskId: "t-1", status: "FAILED" }), batch(2, 4, 5, { taskId: "t-2", status: "COMPLETED" })]),
    );
    expect(inBaseline(s.baseline)).toEqual(["p3@example.com", "p4@example.com"]);
    expect(s.failed).toBe(2);
    expect(s.entered).toBe(2);
    expect(s.tasks).toEqual([]);
    expect(s.unsent).toEqual([]);
  });

  it("an open task of an earlier run found FAILED stays out; one found COMPLETED enters; one not asked stays open", () => {
    const open = (taskId: string, n: number): OpenTask => ({ taskId, plannedAt: PLANNED, rows: [row(n)] });
    const s = settle(
      undefined,
      [open("t-failed", 1), open("t-done", 2), open("t-running", 3)],
      [
        ["t-failed", "FAILED"],
        ["t-done", "COMPLETED"],
      ],
    );
    expect(inBaseline(s.baseline)).toEqual(["p2@example.com"]);
    expect(s.failed).toBe(1);
    expect(s.entered).toBe(1);
    expect(s.tasks.map((t) => t.taskId)).toEqual(["t-running"]);
  });

  it("rows the service rejected inside an accepted batch stay out; the others enter when its task COMPLETED", () => {
    const s = settle(
      runOf([
        batch(1, 2, 5, {
          taskId: "t-1",
          status: "COMPLETED",
          rowErrors: [{ row: 3, batchRow: 3, field: "teamName", messages: ["unknown team"] }],
        }),
      ]),
    );
    expect(inBaseline(s.baseline)).toEqual(["p1@example.com", "p3@example.com", "p4@example.com"]);
    expect(s.rejected).toBe(1);
  });

  it("an accepted batch whose task has not ended: its rows (less the rejected) wait as an open task, not in the baseline", () => {
    const s = settle(
      runOf([
        batch(1, 2, 3, {
          taskId: "t-1",
          status: "STARTED",
          uploadedAt: "2026-11-28T02:01:00.000Z",
          rowErrors: [{ row: 2, batchRow: 2, field: "email", messages: ["bad"] }],
        }),
      ]),
    );
    expect(inBaseline(s.baseline)).toEqual([]);
    expect(s.tasks).toEqual([{ taskId: "t-1", plannedAt: PLANNED, uploadedAt: "2026-11-28T02:01:00.000Z", rows: [row(2)] }]);
  });
});
