// @ts-nocheck
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LocalFileError } from "../../src/errors.js";
import { SettingsStore, type OwnershipProbe } from "../../src/settings/store.js";
import { tempDir } from "../helpers/cli.js";

// Settings you can trust (issue 13 item 8; docs/cli-contract.md "Secrets"). Ownership is
// faked through the store's probe — tests may run as root, who owns everything it makes —
// while modes are real.

const ME = 1000;
let dir: { path: string; remove(): Promise<void> };
let cfg: string;
let file: string;
let owners: Record<string, number>;
let warnings: string[];

function probe(): OwnershipProbe {
  return { uid: ME, stat: (path) => ({ uid: owners[path] ?? ME, mode: statSync(path).mode }) };
}

function store(): SettingsStore {
  return new SettingsStore(cfg, { probe: probe(), warn: (text) => warnings.push(text) });
}

beforeEach(async () => {
  dir = await tempDir();
  cfg = join(dir.path, "cfg");
  file = join(cfg, "settings.json");
  mkdirSync(cfg, { mode: 0o700 });
  chmodSync(cfg, 0o700);
  writeFileSync(file, JSON.stringify({ profiles: { default: { baseUrl: "https://api.example.com" } } }), { mode: 0o600 });
  chmodSync(file, 0o600);
  owners = {};
  warnings = [];
});
afterEach(() => dir.remove());

function refusal(): LocalFileError {
  try {
    store().read();
  } catch (error) {
    expect(error).toBeInstanceOf(LocalFileError);
    return error as LocalFileError;
  }
  throw new Error("expected the settings to be refused");
}

describe("ownership", () => {
  it("reads settings owned by this user", () => {
    expect(store().getProfile("default")).toEqual({ baseUrl: "https://api.example.com" });
    expect(warnings).toEqual([]);
  });

  it("refuses a settings directory owned by another user (exit 11), naming it", () => {
    owners[cfg] = 1234;
    const error = refusal();
    expect(error.exitCode).toBe(11);
    expect(error.message).toBe(`the settings directory ${cfg} belongs to another user (uid 1234, you are ${ME}); it is not used`);
    expect(error.hint).toMatch(/set SIMADMIN_CONFIG_DIR/);
  });

  it("refuses a settings file owned by another user", () => {
    owners[file] = 1234;
    expect(refusal().message).toMatch(/^the settings file .* belongs to another user/);
  });

  it("a root-owned file after sudo is a permission problem with the chown to run, not 'not valid JSON'", () => {
    owners[file] = 0;
    const error = refusal();
    expect(error.exitCode).toBe(11);
    expect(error.message).toMatch(/is owned by root, not by you \(uid 1000\): it was probably written by `sudo simadmin …`/);
    expect(error.hint).toContain(`sudo chown -R 1000 ${cfg}`);
    expect(error.message).not.toMatch(/JSON/);
  });

  it("refuses before writing too (config set)", async () => {
    owners[cfg] = 1234;
    await expect(store().updateProfile("default", (p) => ({ ...p, org: "x" }))).rejects.toThrow(/belongs to another user/);
  });
});

describe("modes", () => {
  it.each([
    ["file", () => file, 0o666, 0o600, /the settings file .* was writable by every user \(mode 0666\); changed to 0600/],
    ["file", () => file, 0o620, 0o600, /was writable by its group \(mode 0620\); changed to 0600/],
    ["directory", () => cfg, 0o777, 0o700, /the settings directory .* was writable by every user \(mode 0777\); changed to 0700/],
    ["directory", () => cfg, 0o775, 0o700, /was writable by its group \(mode 0775\); changed to 0700/],
  ])(
    "a %s writable by others (%o) is tightened to %o, with a warning naming what changed",
    (_kind, path, mode, tight, warning) => {
      chmodSync(path(), mode);
      store().read();
      expect(statSync(path()).mode & 0o777).toBe(tight);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(warning);
      expect(warnings[0]).toMatch(/check `simadmin config list` \(baseUrl above all\)/);
    },
  );

  it("a file only readable by others is tightened without a warning", () => {
    chmodSync(file, 0o644);
    store().read();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([]);
  });
});

it("an unreadable settings file is exit 11 naming the path and cause, not 'not valid JSON'", async () => {
  const other = join(dir.path, "cfg2");
  mkdirSync(join(other, "settings.json"), { recursive: true, mode: 0o700 });
  chmodSync(other, 0o700);
  chmodSync(join(other, "settings.json"), 0o600);
  let error: unknown;
  try {
    new SettingsStore(other, { probe: probe() }).read();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(LocalFileError);
  expect((error as Error).message).toBe(`cannot read the settings file ${join(other, "settings.json")}: is a directory (EISDIR)`);
});
