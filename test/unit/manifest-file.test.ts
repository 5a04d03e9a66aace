import { describe, expect, it } from "vitest";
import {
  describeTarget,
  isSectionFor,
  joinManifest,
  lockPathFor,
  normalizeBaseUrl,
  parseManifest,
  serializeManifest,
  splitManifest,
} from "../../src/domain/users-csv/manifest-file.js";
import { manifest } from "../helpers/import-manifest.js";

// The manifest as a file: its sections (one per service and organization), the lock's name,
// and the problems of a file that is not a manifest, as the user reads them.

const target = { baseUrl: "https://api.example.com", apiVersion: 2, organizationId: "org-demo" };

describe("sections", () => {
  it("normalizeBaseUrl drops trailing slashes only", () => {
    expect(normalizeBaseUrl("https://api.example.com/v//")).toBe("https://api.example.com/v");
    expect(normalizeBaseUrl("https://api.example.com")).toBe("https://api.example.com");
  });

  it.each([
    ["the same service and organization", {}, target, true],
    [
      "a trailing slash either side",
      { baseUrl: "https://api.example.com/" },
      { ...target, baseUrl: "https://api.example.com//" },
      true,
    ],
    ["another organization", {}, { ...target, organizationId: "org-other" }, false],
    ["another service", {}, { ...target, baseUrl: "https://other.example.com" }, false],
    ["another API version", {}, { ...target, apiVersion: 1 }, false],
    ["no API version recorded: version 2", { apiVersion: undefined }, target, true],
    ["no API version recorded, version 1 wanted", { apiVersion: undefined }, { ...target, apiVersion: 1 }, false],
    ["no service recorded: the organization decides", { baseUrl: undefined }, { ...target, baseUrl: "https://x.test" }, true],
    ["no service recorded, another organization", { baseUrl: undefined }, { ...target, organizationId: "org-other" }, false],
  ])("isSectionFor: %s → %s", (_name, patch, wanted, mine) => {
    expect(isSectionFor({ ...manifest(["pending"]), ...patch }, wanted)).toBe(mine);
  });

  it("splitManifest: no file, nothing", () => {
    expect(splitManifest(undefined, target)).toEqual({ mine: undefined, others: [] });
  });

  it("splitManifest finds this run's section among the others; joinManifest puts it on top", () => {
    const { otherImports: _o, ...top } = manifest(["uploaded"], undefined, "org-a");
    const demo = manifest(["pending"]);
    const b = manifest(["rejected"], undefined, "org-b");
    const file = { ...top, otherImports: [demo, b] };
    const { mine, others } = splitManifest(file, target);
    expect(mine).toBe(demo);
    expect(others).toEqual([top, b]);
    expect(joinManifest(demo, others)).toEqual({ ...demo, otherImports: [top, b] });
  });

  it("splitManifest without a section of this run: all are others", () => {
    const m = manifest(["uploaded"], undefined, "org-a");
    expect(splitManifest(m, target)).toEqual({ mine: undefined, others: [m] });
  });

  it("joinManifest without others writes no otherImports, dropping a stale one", () => {
    const m = { ...manifest(["pending"]), otherImports: [manifest(["uploaded"], undefined, "org-a")] };
    expect(joinManifest(m, [])).toEqual(manifest(["pending"]));
    expect("otherImports" in joinManifest(m, [])).toBe(false);
  });

  it.each([
    [{ organizationId: "org-demo" }, "organization org-demo"],
    [
      { organizationId: "org-demo", baseUrl: "https://api.example.com" },
      "organization org-demo at https://api.example.com (API v2)",
    ],
    [
      { organizationId: "org-demo", baseUrl: "https://api.example.com", apiVersion: 1 },
      "organization org-demo at https://api.example.com (API v1)",
    ],
    [{ organizationId: "org-demo", baseUrl: "" }, "organization org-demo"],
  ])("describeTarget(%j) → %s", (section, text) => {
    expect(describeTarget(section)).toBe(text);
  });
});

describe("the file", () => {
  it.each([
    ["staff.csv", "staff.import.lock"],
    ["dir/HR.Csv", "dir/HR.import.lock"],
    ["staff.csv.txt", "staff.csv.txt.import.lock"],
  ])("lockPathFor(%s) → %s", (csv, lock) => {
    expect(lockPathFor(csv)).toBe(lock);
  });

  it("is written as indented JSON ending with a line break", () => {
    const text = serializeManifest(manifest([]));
    expect(text.startsWith('{\n  "manifestVersion": 1,\n  "file": "staff.csv",\n')).toBe(true);
    expect(text.endsWith('  "batches": []\n}\n')).toBe(true);
  });

  it.each([
    ["an array", "[]", "document: Invalid input: expected object, received array"],
    [
      "a missing field",
      JSON.stringify({ ...manifest([]), file: undefined }),
      "file: Invalid input: expected string, received undefined",
    ],
    ["a bad hash", JSON.stringify({ ...manifest([]), sha256: "abc" }), "sha256: a SHA-256 in hex"],
  ])("names the first problem of %s", (_name, text, problem) => {
    expect(parseManifest(text)).toEqual({ ok: false, problem });
  });

  it("says when the text is not JSON, with the parser's reason", () => {
    const parsed = parseManifest("{");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(/^not JSON \(.+\)$/);
  });
});
