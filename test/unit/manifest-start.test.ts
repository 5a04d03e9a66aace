import { describe, expect, it } from "vitest";
import { decideStart } from "../../src/domain/users-csv/manifest-start.js";
import { manifest, NAMES, SHA_A, SHA_B, withBatch } from "../helpers/import-manifest.js";

// Whether a run may start, with the manifest found: the exact words the user reads (exit 2
// refusals and the note of a replaced manifest), which name the counts and the next command.

const current = { sha256: SHA_A, organizationId: "org-demo" };
const RESUME = "`simadmin users import staff.csv --resume`";
const REMOVE = "; remove staff.import.json only to import the whole file again";

describe("decideStart: without a manifest", () => {
  it("starts fresh, and refuses --resume", () => {
    expect(decideStart(undefined, current, false, NAMES)).toEqual({ kind: "fresh" });
    expect(decideStart(undefined, current, true, NAMES)).toEqual({
      kind: "refuse",
      message: "--resume: there is no manifest staff.import.json to resume from",
      hint: "run without --resume to start the import of staff.csv",
    });
  });
});

describe("decideStart: --resume", () => {
  it("refuses the manifest of another version of the file, naming both hashes' beginnings", () => {
    expect(decideStart(manifest(["uploaded"], SHA_B), current, true, NAMES)).toEqual({
      kind: "refuse",
      message:
        "--resume: staff.csv is not the file recorded in staff.import.json (its content changed since that import: SHA-256 aaaaaaaaaaaa… instead of bbbbbbbbbbbb…)",
      hint: "restore the file that was imported and resume, or remove staff.import.json to import the changed file as a new import (rows imported already would be sent again)",
    });
  });

  it("refuses an import into another organization", () => {
    expect(decideStart(manifest(["uploaded"], SHA_A, "org-other"), current, true, NAMES)).toEqual({
      kind: "refuse",
      message: '--resume: staff.import.json records an import into organization "org-other", not "org-demo"',
      hint: "resume with --org org-other",
    });
  });

  it("resumes a manifest where nothing was sent yet, too", () => {
    const m = manifest(["pending"]);
    expect(decideStart(m, current, true, NAMES)).toEqual({ kind: "resume", manifest: m });
  });
});

describe("decideStart: the same file again without --resume", () => {
  it("replaces a manifest under which nothing was sent, whatever its file", () => {
    const note = { kind: "replace", note: "staff.import.json recorded no upload; starting afresh" };
    expect(decideStart(manifest(["pending", "pending"]), current, false, NAMES)).toEqual(note);
    expect(decideStart(manifest(["pending"], SHA_B), current, false, NAMES)).toEqual(note);
  });

  it("one uploaded batch: refused, pointing to --resume only", () => {
    expect(decideStart(manifest(["uploaded"]), current, false, NAMES)).toEqual({
      kind: "refuse",
      message:
        "staff.csv was already imported into organization org-demo at https://api.example.com (API v2) according to staff.import.json (1 batch: 1 uploaded); nothing was sent",
      hint: `run ${RESUME} to continue that import without sending a batch twice${REMOVE}`,
    });
  });

  it("every state counted; a FAILED task and a held batch each add their way out", () => {
    const m = withBatch(manifest(["uploaded", "ambiguous", "uploading", "rejected", "pending", "uploaded"]), 1, {
      status: "FAILED",
    });
    expect(decideStart(m, current, false, NAMES)).toEqual({
      kind: "refuse",
      message:
        "staff.csv was already imported into organization org-demo at https://api.example.com (API v2) according to staff.import.json (6 batches: 2 uploaded, 2 possibly received, 1 rejected, 1 not sent); nothing was sent",
      hint:
        `run ${RESUME} to continue that import without sending a batch twice` +
        ", or `simadmin users import staff.csv --retry-failed` to also send its FAILED batches again" +
        "; a possibly-received batch is sent again only with `simadmin users import staff.csv --resume --resend-ambiguous`" +
        REMOVE,
    });
  });

  it.each([
    ["a batch only rejected", ["rejected"], "1 batch: 1 rejected"],
    ["a crash mid-upload", ["uploading"], "1 batch: 1 possibly received"],
  ] as const)("%s counts as sent", (_name, states, counts) => {
    const decision = decideStart(manifest([...states]), current, false, NAMES);
    expect(decision).toMatchObject({
      kind: "refuse",
      message: `staff.csv was already imported into organization org-demo at https://api.example.com (API v2) according to staff.import.json (${counts}); nothing was sent`,
    });
  });

  it("an import recorded before the service was: the organization alone", () => {
    const { baseUrl: _b, apiVersion: _v, ...old } = manifest(["uploaded"]);
    expect(decideStart(old, current, false, NAMES)).toMatchObject({
      message:
        "staff.csv was already imported into organization org-demo according to staff.import.json (1 batch: 1 uploaded); nothing was sent",
    });
  });
});

describe("decideStart: a changed file without --resume", () => {
  it.each([
    ["uploaded and rejected", ["uploaded", "rejected"]],
    ["rejected only", ["rejected"]],
  ] as const)("replaces a finished import (%s) of the earlier version", (_name, states) => {
    expect(decideStart(manifest([...states], SHA_B), current, false, NAMES)).toEqual({
      kind: "replace",
      note: "replacing staff.import.json: it recorded a finished import of an earlier version of staff.csv",
    });
  });

  it.each([
    ["a batch not sent", ["uploaded", "pending"], "2 batches: 1 uploaded, 1 not sent"],
    ["a batch possibly received", ["uploaded", "ambiguous"], "2 batches: 1 uploaded, 1 possibly received"],
    ["a crash mid-upload", ["uploading"], "1 batch: 1 possibly received"],
  ] as const)("refuses while the earlier import is unfinished (%s)", (_name, states, counts) => {
    expect(decideStart(manifest([...states], SHA_B), current, false, NAMES)).toEqual({
      kind: "refuse",
      message: `staff.import.json records an unfinished import of an earlier version of staff.csv (${counts}), and the file has changed since; nothing was sent`,
      hint: `restore that version and run ${RESUME} to finish it, or remove staff.import.json to abandon it and import the file as it is now`,
    });
  });
});
