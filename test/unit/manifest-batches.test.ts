import { describe, expect, it } from "vitest";
import {
  batchRecord,
  countStates,
  isAmbiguous,
  isFinished,
  mayHaveBeenSent,
  newManifest,
  pendingBatch,
  rowRange,
  updateBatch,
} from "../../src/domain/users-csv/manifest-batches.js";
import { hash, LATER, manifest, NOW, withBatch } from "../helpers/import-manifest.js";

// The batch records of a manifest: built, changed one at a time, counted, and shown.

describe("building", () => {
  it("newManifest stamps the version and both times", () => {
    const source = {
      file: "staff.csv",
      sha256: hash(9),
      bytes: 10,
      baseUrl: "https://api.example.com",
      apiVersion: 2,
      organizationId: "org-demo",
      skipInvalid: true,
      totalRows: 3,
      validRows: 2,
      invalidRows: 1,
    };
    expect(newManifest(source, [], NOW)).toEqual({ manifestVersion: 1, ...source, createdAt: NOW, updatedAt: NOW, batches: [] });
  });

  it("pendingBatch refuses a batch without rows, naming it", () => {
    expect(() => pendingBatch({ number: 3, rows: [], sha256: hash(3) })).toThrow(new RangeError("batch 3 has no rows"));
  });

  it("pendingBatch of one row: that row first and last", () => {
    expect(pendingBatch({ number: 1, rows: [7], sha256: hash(1) })).toMatchObject({ rows: 1, firstRow: 7, lastRow: 7 });
  });

  it("updateBatch names a batch the manifest lacks", () => {
    expect(() => updateBatch(manifest(["pending"]), 2, {}, LATER)).toThrow(new RangeError("the manifest has no batch 2"));
  });
});

describe("reading states", () => {
  it.each([
    ["pending", false, false],
    ["uploading", true, true],
    ["uploaded", true, false],
    ["ambiguous", true, true],
    ["rejected", true, false],
  ] as const)("%s: may have been sent %s, held back %s", (state, sent, held) => {
    const [batch] = manifest([state]).batches;
    expect(mayHaveBeenSent(batch!)).toBe(sent);
    expect(isAmbiguous(batch!)).toBe(held);
  });

  it.each([
    [["uploaded", "rejected"], true],
    [["uploaded", "pending"], false],
    [["ambiguous"], false],
    [["uploading"], false],
    [[], true],
  ] as const)("isFinished(%j) → %s", (states, finished) => {
    expect(isFinished(manifest([...states]))).toBe(finished);
  });

  it("countStates counts every state, zero included", () => {
    expect(countStates(manifest(["uploaded", "ambiguous", "uploaded", "pending"]))).toEqual({
      pending: 1,
      uploading: 0,
      uploaded: 2,
      ambiguous: 1,
      rejected: 0,
    });
  });
});

describe("showing", () => {
  it("rowRange: one row or a range", () => {
    expect(rowRange({ firstRow: 5, lastRow: 5 })).toBe("row 5");
    expect(rowRange({ firstRow: 2, lastRow: 751 })).toBe("rows 2–751");
  });

  it("batchRecord: the output record of each batch", () => {
    const m = withBatch(manifest(["uploaded", "rejected", "pending"]), 1, {
      rowErrors: [{ row: 3, batchRow: 2, field: "email", messages: ["bad"] }],
    });
    expect(m.batches.map(batchRecord)).toEqual([
      { batch: 1, rows: 2, firstRow: 2, lastRow: 751, state: "uploaded", taskId: "task-1", status: "SCHEDULED", rejectedRows: 1 },
      { batch: 2, rows: 2, firstRow: 752, lastRow: 1501, state: "rejected", taskId: null, status: null, rejectedRows: 2 },
      { batch: 3, rows: 2, firstRow: 1502, lastRow: 2251, state: "pending", taskId: null, status: null, rejectedRows: 0 },
    ]);
  });
});
