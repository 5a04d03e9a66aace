import { describe, expect, it } from "vitest";
import {
  type BulkManifest,
  BulkRowChecker,
  bulkErrorsPath,
  bulkManifestPath,
  decideBulkStart,
  parseBulkManifest,
  planBulk,
} from "../../src/domain/bulk-rows.js";

// The pure rules of `assign|unassign|link --from-csv` (docs/cli-contract.md "Bulk operations"):
// row checks, the plan, file names beside the CSV and what a run does with a manifest. The
// commands' own tests (test/cli) run them end to end; these pin each rule and message.

const header = { userId: 1, simulationId: 0, names: ["simulationId", "userId", "note"] };

describe("BulkRowChecker", () => {
  it("keeps valid rows with their ids trimmed and their cells as read", () => {
    const checker = new BulkRowChecker(header);
    const cells = [" sim-1 ", "\tu-1", "first"];
    checker.add(cells, 2);
    cells[2] = "changed later";
    expect(checker.rows).toEqual([{ row: 2, userId: "u-1", simulationId: "sim-1", cells: [" sim-1 ", "\tu-1", "first"] }]);
    expect(checker.problems).toEqual([]);
    expect([...checker.invalidCells]).toEqual([]);
  });

  it("skips blank rows, spaces-only ones included", () => {
    const checker = new BulkRowChecker(header);
    checker.add(["", "", ""], 2);
    checker.add(["  ", " ", "\t"], 3);
    checker.add([""], 4);
    expect(checker.rows).toEqual([]);
    expect(checker.problems).toEqual([]);
    expect(checker.invalidCells.size).toBe(0);
  });

  it("names empty ids and a row narrower or wider than the header, keeping the row's cells for the errors file", () => {
    const checker = new BulkRowChecker(header);
    checker.add(["sim-1", " ", "x"], 2);
    checker.add(["", "u-2", "x"], 3);
    checker.add(["sim-3", "u-3"], 4);
    checker.add(["sim-4", "u-4", "x", "extra"], 5);
    expect(checker.problems).toEqual([
      { row: 2, field: "userId", message: "is empty" },
      { row: 3, field: "simulationId", message: "is empty" },
      { row: 4, field: "(row)", message: "has 2 cells, the header has 3" },
      { row: 5, field: "(row)", message: "has 4 cells, the header has 3" },
    ]);
    expect(checker.rows).toEqual([]);
    expect([...checker.invalidCells]).toEqual([
      [2, ["sim-1", " ", "x"]],
      [3, ["", "u-2", "x"]],
      [4, ["sim-3", "u-3"]],
      [5, ["sim-4", "u-4", "x", "extra"]],
    ]);
  });

  it("reports both ids of a row when both are empty, and a missing cell as empty", () => {
    const checker = new BulkRowChecker(header);
    checker.add(["", "", "note"], 2);
    checker.add(["sim-1"], 3);
    expect(checker.problems).toEqual([
      { row: 2, field: "userId", message: "is empty" },
      { row: 2, field: "simulationId", message: "is empty" },
      { row: 3, field: "(row)", message: "has 1 cells, the header has 3" },
      { row: 3, field: "userId", message: "is empty" },
    ]);
  });

  it("a missing simulationId cell is empty too", () => {
    const checker = new BulkRowChecker({ userId: 0, simulationId: 1, names: ["userId", "simulationId"] });
    checker.add(["u-1"], 2);
    expect(checker.problems).toEqual([
      { row: 2, field: "(row)", message: "has 1 cells, the header has 2" },
      { row: 2, field: "simulationId", message: "is empty" },
    ]);
  });

  it("does not count rows with an empty id as repeated pairs, and keeps a copy of their cells", () => {
    const checker = new BulkRowChecker(header);
    const cells = ["sim-1", " ", "x"];
    checker.add(cells, 2);
    cells[2] = "changed later";
    checker.add(["sim-1", "", "y"], 3);
    checker.add(["", "u-1", "x"], 4);
    checker.add([" ", "u-1", "y"], 5);
    expect(checker.problems).toEqual([
      { row: 2, field: "userId", message: "is empty" },
      { row: 3, field: "userId", message: "is empty" },
      { row: 4, field: "simulationId", message: "is empty" },
      { row: 5, field: "simulationId", message: "is empty" },
    ]);
    expect(checker.invalidCells.get(2)).toEqual(["sim-1", " ", "x"]);
  });

  it("refuses a repeated pair in the later row, naming the first; other pairs with a shared id pass", () => {
    const checker = new BulkRowChecker(header);
    checker.add(["sim-1", "u-1", "a"], 2);
    checker.add(["sim-2", "u-1", "b"], 3);
    checker.add(["sim-1", "u-2", "c"], 4);
    checker.add([" sim-1", "u-1 ", "d"], 5);
    checker.add(["sim-1", "u-1", "e"], 6);
    expect(checker.problems).toEqual([
      { row: 5, field: "(row)", message: "repeats the pair u-1 / sim-1 of row 2" },
      { row: 6, field: "(row)", message: "repeats the pair u-1 / sim-1 of row 2" },
    ]);
    expect(checker.rows.map((r) => r.row)).toEqual([2, 3, 4]);
    expect([...checker.invalidCells.keys()]).toEqual([5, 6]);
  });

  it("tells pairs apart even when their ids joined would read the same", () => {
    const checker = new BulkRowChecker({ userId: 0, simulationId: 1, names: ["userId", "simulationId"] });
    checker.add(["a,b", "c"], 2);
    checker.add(["a", "b,c"], 3);
    expect(checker.problems).toEqual([]);
    expect(checker.rows.map((r) => r.row)).toEqual([2, 3]);
  });

  it("remembers the pair of a row that is wrong only in width: a later copy names that row", () => {
    const checker = new BulkRowChecker(header);
    checker.add(["sim-1", "u-1"], 2);
    checker.add(["sim-1", "u-1", "x"], 3);
    expect(checker.problems).toEqual([
      { row: 2, field: "(row)", message: "has 2 cells, the header has 3" },
      { row: 3, field: "(row)", message: "repeats the pair u-1 / sim-1 of row 2" },
    ]);
  });
});

describe("planBulk", () => {
  const rows = [
    { row: 2, userId: "u-1", simulationId: "s-1", cells: [] },
    { row: 3, userId: "u-1", simulationId: "s-2", cells: [] },
    { row: 4, userId: "u-2", simulationId: "s-1", cells: [] },
    { row: 5, userId: "u-3", simulationId: "s-3", cells: [] },
  ];

  it("counts rows, distinct users and simulations, finished rows and the requests left", () => {
    expect(planBulk("assign", rows, new Set([3, 9]))).toEqual({
      command: "assign",
      rows: 4,
      users: 3,
      simulations: 3,
      finished: 1,
      requests: 3,
    });
  });

  it("link: one token per distinct user on top of the rows left, finished rows' users included", () => {
    expect(planBulk("link", rows, new Set([2, 3]))).toEqual({
      command: "link",
      rows: 4,
      users: 3,
      simulations: 3,
      finished: 2,
      requests: 5,
    });
  });

  it("an empty file plans nothing", () => {
    expect(planBulk("unassign", [], new Set())).toEqual({
      command: "unassign",
      rows: 0,
      users: 0,
      simulations: 0,
      finished: 0,
      requests: 0,
    });
  });
});

describe("files beside the CSV", () => {
  it.each([
    ["cohort.csv", "link", "cohort.link.json", "cohort.errors.csv"],
    ["dir/COHORT.CSV", "assign", "dir/COHORT.assign.json", "dir/COHORT.errors.csv"],
    ["list.txt", "unassign", "list.txt.unassign.json", "list.txt.errors.csv"],
    ["a.csv.bak", "link", "a.csv.bak.link.json", "a.csv.bak.errors.csv"],
  ] as const)("%s (%s) → %s and %s", (csv, command, manifest, errors) => {
    expect(bulkManifestPath(csv, command)).toBe(manifest);
    expect(bulkErrorsPath(csv)).toBe(errors);
  });
});

const manifest: BulkManifest = {
  version: 1,
  command: "link",
  sha256: "abc",
  organizationId: "org-1",
  baseUrl: "https://api.example.com",
  startedAt: "2026-03-01T10:00:00.000Z",
  updatedAt: "2026-03-01T10:05:00.000Z",
  rows: {
    "2": { status: "ok", deepLink: "https://app.example.com/s", at: "2026-03-01T10:01:00.000Z" },
    "3": { status: "failed", error: "404", at: "2026-03-01T10:02:00.000Z" },
  },
};

describe("parseBulkManifest", () => {
  it("reads a manifest it wrote", () => {
    expect(parseBulkManifest(JSON.stringify(manifest))).toEqual(manifest);
  });

  it.each([
    ["text that is not JSON", "{not json"],
    ["JSON of another shape", JSON.stringify({ ...manifest, version: 2 })],
    ["an empty file", ""],
  ])("gives nothing for %s", (_name, text) => {
    expect(parseBulkManifest(text)).toBeUndefined();
  });
});

describe("decideBulkStart", () => {
  const current = {
    command: "link",
    sha256: "abc",
    organizationId: "org-1",
    baseUrl: "https://api.example.com",
    assign: false,
  } as const;
  const path = "cohort.link.json";

  it("starts fresh without a manifest, or with an unreadable one, when not resuming", () => {
    expect(decideBulkStart(undefined, current, false, path)).toEqual({ kind: "fresh" });
    expect(decideBulkStart("unreadable", current, false, path)).toEqual({ kind: "fresh" });
  });

  it("--resume without a manifest, or with an unreadable one, is refused", () => {
    expect(decideBulkStart(undefined, current, true, path)).toEqual({
      kind: "refuse",
      message: "--resume: there is no cohort.link.json to resume from",
      hint: "run the command without --resume to start",
    });
    expect(decideBulkStart("unreadable", current, true, path)).toEqual({
      kind: "refuse",
      message: "--resume: cohort.link.json is not a manifest simadmin can read",
      hint: "run the command without --resume to start",
    });
  });

  it("without --resume, a manifest of the same file with finished rows is refused (nothing sent twice)", () => {
    expect(decideBulkStart(manifest, current, false, path)).toEqual({
      kind: "refuse",
      message: "cohort.link.json shows 2 rows of this file already done by an earlier run; nothing was sent",
      hint: "add --resume to continue without repeating them, or remove the manifest to start over",
    });
    const one = { ...manifest, rows: { "2": manifest.rows["2"]! } };
    expect(decideBulkStart(one, current, false, path)).toMatchObject({
      message: "cohort.link.json shows 1 row of this file already done by an earlier run; nothing was sent",
    });
  });

  it("without --resume, a manifest of another file, or one with no finished row, is replaced", () => {
    expect(decideBulkStart({ ...manifest, sha256: "other" }, current, false, path)).toEqual({ kind: "fresh" });
    expect(decideBulkStart({ ...manifest, rows: {} }, current, false, path)).toEqual({ kind: "fresh" });
  });

  it("--resume of a changed file is refused", () => {
    expect(decideBulkStart({ ...manifest, sha256: "other" }, current, true, path)).toEqual({
      kind: "refuse",
      message: "--resume: the file changed since cohort.link.json was written; nothing was sent",
      hint: "resume with the file as it was, or remove the manifest to start over",
    });
  });

  it("--resume for another organization or service is refused", () => {
    const refusal = {
      kind: "refuse",
      message: "--resume: cohort.link.json was written for organization org-1 at https://api.example.com; nothing was sent",
      hint: "use the same --org and base URL, or remove the manifest to start over",
    };
    expect(decideBulkStart(manifest, { ...current, organizationId: "org-2" }, true, path)).toEqual(refusal);
    expect(decideBulkStart(manifest, { ...current, baseUrl: "https://other.example.com" }, true, path)).toEqual(refusal);
  });

  it("--resume with --assign changed is refused, either way", () => {
    expect(decideBulkStart(manifest, { ...current, assign: true }, true, path)).toEqual({
      kind: "refuse",
      message: "--resume: cohort.link.json was written without --assign; nothing was sent",
      hint: "run it without --assign, as before",
    });
    expect(decideBulkStart({ ...manifest, assign: true }, current, true, path)).toEqual({
      kind: "refuse",
      message: "--resume: cohort.link.json was written with --assign; nothing was sent",
      hint: "run it with --assign, as before",
    });
  });

  it("--resume of the same file, organization, service and --assign resumes from the manifest", () => {
    expect(decideBulkStart(manifest, current, true, path)).toEqual({ kind: "resume", manifest });
    const assigned = { ...manifest, assign: true };
    expect(decideBulkStart(assigned, { ...current, assign: true }, true, path)).toEqual({ kind: "resume", manifest: assigned });
    // A manifest written without the field counts as without --assign.
    expect(decideBulkStart({ ...manifest, assign: false }, current, true, path)).toEqual({
      kind: "resume",
      manifest: { ...manifest, assign: false },
    });
  });
});
