import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyDir, readLegacy, retireLegacy } from "../../src/commands/users-sync/legacy.js";
import { serializeManifest } from "../../src/domain/users-csv/import-manifest.js";
import { LocalFileError } from "../../src/errors.js";
import { manifest } from "../helpers/import-manifest.js";
import { tempDir } from "../helpers/in-process.js";

// The users sync state an earlier version kept in `<settings>/sync/<hash>/`
// (docs/users-sync.md "From the settings directory"): where it is, what of it is moved into the
// state store, what stops the run, and the directory renamed once the store holds it.

let root: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  root = await tempDir();
});
afterAll(async () => {
  await root.remove();
});

const BASELINE = {
  version: 1,
  baseUrl: "https://sim.example.com",
  organizationId: "org-1",
  createdAt: "2026-11-01T02:00:00.000Z",
  updatedAt: "2026-11-19T02:00:00.000Z",
  users: {},
};
const ROW = {
  email: "p1@example.com",
  firstName: "F1",
  lastName: "L1",
  teamName: "Sales",
  status: "ACTIVE",
  change: "add",
  action: "Add",
  rosterRow: 2,
  changed: [],
};

let n = 0;
async function oldDir(files: Record<string, string>): Promise<string> {
  const dir = join(root.path, `old-${++n}`);
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe("the settings directory of an earlier version", () => {
  it("is <configDir>/sync/ and the first 16 hex digits of sha256(base URL, newline, organization)", () => {
    // printf 'https://sim.example.com\norg-1' | sha256sum
    expect(legacyDir("/home/a/.config/simadmin", "https://sim.example.com", "org-1")).toBe(
      "/home/a/.config/simadmin/sync/0548845eb9828050",
    );
  });

  it("without a baseline there is nothing to move", async () => {
    expect(await readLegacy(await oldDir({}))).toBeUndefined();
    expect(await readLegacy(join(root.path, "absent"))).toBeUndefined();
  });

  it("a baseline alone is moved as the baseline", async () => {
    const dir = await oldDir({ "baseline.json": JSON.stringify(BASELINE) });
    expect(await readLegacy(dir)).toEqual({ dir, changes: { baseline: BASELINE } });
  });

  it("a plan with its import manifest becomes the run to settle, so nothing it sent is sent again", async () => {
    const recorded = manifest(["uploaded", "pending"]);
    const dir = await oldDir({
      "baseline.json": JSON.stringify(BASELINE),
      "plan.json": JSON.stringify({ createdAt: "2026-11-19T02:00:00.000Z", rows: [ROW] }),
      "plan.import.json": serializeManifest(recorded),
    });
    expect(await readLegacy(dir)).toEqual({
      dir,
      changes: {
        baseline: BASELINE,
        run: { version: 1, createdAt: "2026-11-19T02:00:00.000Z", rows: [ROW], batches: recorded.batches, uncertain: {} },
      },
    });
  });

  it("a plan without a readable manifest, or a manifest without a readable plan, is not a run", async () => {
    const noManifest = await oldDir({
      "baseline.json": JSON.stringify(BASELINE),
      "plan.json": JSON.stringify({ createdAt: "2026-11-19T02:00:00.000Z", rows: [ROW] }),
      "plan.import.json": "{ not json",
    });
    expect((await readLegacy(noManifest))?.changes).toEqual({ baseline: BASELINE });
    const badPlan = await oldDir({
      "baseline.json": JSON.stringify(BASELINE),
      "plan.json": "{ not json",
      "plan.import.json": serializeManifest(manifest(["uploaded"])),
    });
    expect((await readLegacy(badPlan))?.changes).toEqual({ baseline: BASELINE });
  });

  it("a baseline that cannot be read stops the run, naming the file and what to do", async () => {
    for (const text of ["{ not json", JSON.stringify({ version: 1 })]) {
      const dir = await oldDir({ "baseline.json": text });
      const error = await readLegacy(dir).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LocalFileError);
      expect((error as LocalFileError).message).toBe(
        `${join(dir, "baseline.json")} (the sync baseline of an earlier version) cannot be read`,
      );
      expect((error as LocalFileError).hint).toBe("restore it from a backup, or move the directory away to start a first sync");
      expect((error as LocalFileError).path).toBe(join(dir, "baseline.json"));
    }
  });

  it("a file that exists but cannot be read (a directory in its place) is an error naming it, not 'absent'", async () => {
    const dir = await oldDir({});
    await mkdir(join(dir, "baseline.json"));
    const error = await readLegacy(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).message).toMatch(new RegExp(`^cannot read ${join(dir, "baseline.json")}: `));
  });

  it("once moved, the directory is renamed <dir>.moved; a rename that fails names the directory", async () => {
    const dir = await oldDir({ "baseline.json": JSON.stringify(BASELINE) });
    expect(await retireLegacy(dir)).toBe(`${dir}.moved`);
    expect(await readdir(`${dir}.moved`)).toEqual(["baseline.json"]);
    const error = await retireLegacy(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).message).toMatch(
      new RegExp(`^cannot rename \\(its state is in the state store now\\) ${dir}: `),
    );
  });

  it("a plan with no manifest beside it is not a run", async () => {
    const dir = await oldDir({
      "baseline.json": JSON.stringify(BASELINE),
      "plan.json": JSON.stringify({ createdAt: "2026-11-19T02:00:00.000Z", rows: [ROW] }),
    });
    expect((await readLegacy(dir))?.changes).toEqual({ baseline: BASELINE });
  });
});
