import { describe, expect, it } from "vitest";
import {
  batchAction,
  checkSameBatches,
  decideStart,
  errorsPathFor,
  manifestPathFor,
  parseManifest,
  pendingBatch,
  serializeManifest,
  updateBatch,
} from "../../src/domain/users-csv/import-manifest.js";
import { hash, manifest, NAMES, NOW, SHA_A, SHA_B } from "../helpers/import-manifest.js";

describe("side file names", () => {
  it.each([
    ["staff.csv", "staff.import.json", "staff.errors.csv"],
    ["dir/HR.CSV", "dir/HR.import.json", "dir/HR.errors.csv"],
    ["export.txt", "export.txt.import.json", "export.txt.errors.csv"],
  ])("%s → %s and %s", (csv, manifestPath, errorsPath) => {
    expect(manifestPathFor(csv)).toBe(manifestPath);
    expect(errorsPathFor(csv)).toBe(errorsPath);
  });
});

describe("parseManifest", () => {
  it("reads back what serializeManifest wrote", () => {
    const m = manifest(["uploaded", "ambiguous", "pending"]);
    expect(parseManifest(serializeManifest(m))).toEqual({ ok: true, manifest: m });
  });
  it.each([
    ["not JSON", "{", /not JSON/],
    [
      "an unknown state",
      JSON.stringify({ ...manifest(["pending"]), batches: [{ ...manifest(["pending"]).batches[0], state: "done" }] }),
      /batches\.0\.state/,
    ],
    ["another version", JSON.stringify({ ...manifest([]), manifestVersion: 2 }), /manifestVersion/],
  ])("refuses %s", (_name, text, problem) => {
    const parsed = parseManifest(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });
});

describe("pendingBatch", () => {
  it("records count, first and last original row, and the hash", () => {
    expect(pendingBatch({ number: 2, rows: [752, 760, 1600], sha256: SHA_B })).toEqual({
      number: 2,
      rows: 3,
      firstRow: 752,
      lastRow: 1600,
      sha256: SHA_B,
      state: "pending",
      sends: 0,
    });
  });
});

describe("updateBatch", () => {
  it("changes one batch and the time, leaving the original untouched", () => {
    const m = manifest(["pending", "pending"]);
    const next = updateBatch(m, 2, { state: "uploading", sends: 1 }, "2026-11-22T00:00:00.000Z");
    expect(next.batches.map((b) => b.state)).toEqual(["pending", "uploading"]);
    expect(next.updatedAt).toBe("2026-11-22T00:00:00.000Z");
    expect(m.batches[1]?.state).toBe("pending");
    expect(() => updateBatch(m, 3, {}, NOW)).toThrow(RangeError);
  });
});

describe("decideStart", () => {
  const current = { sha256: SHA_A, organizationId: "org-demo" };

  it("starts fresh without a manifest, and refuses --resume without one", () => {
    expect(decideStart(undefined, current, false, NAMES)).toEqual({ kind: "fresh" });
    expect(decideStart(undefined, current, true, NAMES)).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(/no manifest/),
    });
  });

  it("replaces a manifest under which nothing was sent", () => {
    expect(decideStart(manifest(["pending", "pending"]), current, false, NAMES).kind).toBe("replace");
  });

  it.each([
    ["uploaded", ["uploaded", "pending"]],
    ["ambiguous", ["uploaded", "ambiguous"]],
    ["uploading (a crash mid-upload)", ["uploading"]],
    ["finished", ["uploaded", "uploaded"]],
  ] as const)("refuses to run the same file again without --resume when a batch is %s", (_name, states) => {
    const decision = decideStart(manifest([...states]), current, false, NAMES);
    expect(decision).toMatchObject({ kind: "refuse", hint: expect.stringContaining("--resume") });
  });

  it("replaces the finished import of an earlier version of the file", () => {
    expect(decideStart(manifest(["uploaded", "rejected"], SHA_B), current, false, NAMES)).toMatchObject({ kind: "replace" });
  });

  it("refuses a changed file while the earlier import is unfinished", () => {
    expect(decideStart(manifest(["uploaded", "ambiguous"], SHA_B), current, false, NAMES)).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(/unfinished import of an earlier version/),
    });
  });

  it("resumes only the same file into the same organization", () => {
    const m = manifest(["uploaded", "ambiguous"]);
    expect(decideStart(m, current, true, NAMES)).toEqual({ kind: "resume", manifest: m });
    expect(decideStart(manifest(["uploaded"], SHA_B), current, true, NAMES)).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(/changed/),
    });
    expect(decideStart(manifest(["uploaded"], SHA_A, "org-other"), current, true, NAMES)).toMatchObject({
      kind: "refuse",
      hint: "resume with --org org-other",
    });
  });
});

describe("resume planning", () => {
  it("sends pending batches, holds ambiguous and uploading ones back, skips uploaded and rejected ones", () => {
    const m = manifest(["uploaded", "ambiguous", "uploading", "pending", "rejected"]);
    expect(m.batches.map((b) => batchAction(b))).toEqual([
      "skip-uploaded",
      "hold-ambiguous",
      "hold-ambiguous",
      "send",
      "skip-rejected",
    ]);
  });

  it("re-sends ambiguous and uploading batches only under --resend-ambiguous", () => {
    const m = manifest(["uploaded", "ambiguous", "uploading", "pending"]);
    expect(m.batches.map((b) => batchAction(b, true))).toEqual(["skip-uploaded", "resend-ambiguous", "resend-ambiguous", "send"]);
  });

  it("checks that the file still makes the recorded batches", () => {
    const m = manifest(["uploaded", "pending"]);
    expect(
      checkSameBatches(m, [
        { number: 1, sha256: hash(1) },
        { number: 2, sha256: hash(2) },
      ]),
    ).toBeUndefined();
    expect(checkSameBatches(m, [{ number: 1, sha256: hash(1) }])).toMatch(/1 batches/);
    expect(
      checkSameBatches(m, [
        { number: 1, sha256: hash(1) },
        { number: 2, sha256: hash(3) },
      ]),
    ).toMatch(/batch 2 differs/);
  });
});
