// @ts-nocheck
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { resolveSettings } from "../../src/settings/resolve.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-settings-"));
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "settings.json"),
    JSON.stringify({
      profiles: {
        default: {
          baseUrl: "https://profile.example",
          org: "org-profile",
          apiVersion: 1,
          timeout: 12,
          apiKey: "stored-key-123456",
        },
        prod: { baseUrl: "https://prod.example" },
      },
    }),
  );
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("precedence: flag > environment > profile > default", () => {
  it("takes the profile's values when nothing overrides them", () => {
    const s = resolveSettings({}, { SIMADMIN_CONFIG_DIR: dir });
    expect([s.baseUrl, s.org, s.apiVersion, s.timeoutSeconds, s.apiKey]).toEqual([
      "https://profile.example",
      "org-profile",
      1,
      12,
      "stored-key-123456",
    ]);
    expect(s.sources).toMatchObject({ baseUrl: "profile", org: "profile", apiKey: "stored" });
  });

  it("the environment wins over the profile", () => {
    const s = resolveSettings(
      {},
      {
        SIMADMIN_CONFIG_DIR: dir,
        SIMADMIN_BASE_URL: "https://env.example",
        SIMADMIN_ORG: "org-env",
        SIMADMIN_API_VERSION: "2",
        SIMADMIN_API_KEY: "env-key-1234567",
      },
    );
    expect([s.baseUrl, s.org, s.apiVersion, s.apiKey]).toEqual(["https://env.example", "org-env", 2, "env-key-1234567"]);
    expect(s.sources).toMatchObject({ baseUrl: "env", org: "env", apiVersion: "env", apiKey: "env" });
  });

  it("a flag wins over the environment", () => {
    const s = resolveSettings(
      { baseUrl: "https://flag.example/", org: "org-flag", apiVersion: "2", timeout: "5" },
      { SIMADMIN_CONFIG_DIR: dir, SIMADMIN_BASE_URL: "https://env.example", SIMADMIN_ORG: "org-env" },
    );
    expect([s.baseUrl, s.org, s.apiVersion, s.timeoutSeconds]).toEqual(["https://flag.example", "org-flag", 2, 5]);
  });

  it("built-in defaults apply last", () => {
    const s = resolveSettings({ profile: "prod" }, { SIMADMIN_CONFIG_DIR: dir });
    expect([s.apiVersion, s.org, s.apiKey, s.retries, s.timeoutSeconds]).toEqual([2, undefined, undefined, 5, undefined]);
  });

  it("SIMADMIN_PROFILE selects the profile, --profile wins over it", () => {
    expect(resolveSettings({}, { SIMADMIN_CONFIG_DIR: dir, SIMADMIN_PROFILE: "prod" }).baseUrl).toBe("https://prod.example");
    expect(resolveSettings({ profile: "default" }, { SIMADMIN_CONFIG_DIR: dir, SIMADMIN_PROFILE: "prod" }).baseUrl).toBe(
      "https://profile.example",
    );
  });
});

describe("bad settings are usage errors naming the source", () => {
  it.each([
    [{ baseUrl: "ftp://x" }, {}, /--base-url/],
    [{}, { SIMADMIN_BASE_URL: "not a url" }, /SIMADMIN_BASE_URL/],
    [{}, { SIMADMIN_API_VERSION: "3" }, /SIMADMIN_API_VERSION: must be 1 or 2/],
    [{ timeout: "-1" }, {}, /--timeout/],
    [{ retries: "many" }, {}, /--retries/],
    [{ profile: "no such" }, {}, /--profile/],
    [{ profile: "missing" }, {}, /unknown profile 'missing' \(known: default, prod\)/],
  ])("%j %j", (globals, env, message) => {
    expect(() => resolveSettings(globals, { SIMADMIN_CONFIG_DIR: dir, ...env })).toThrow(message);
  });

  it("a corrupted settings file is reported and left untouched", async () => {
    await writeFile(join(dir, "settings.json"), "{ not json");
    expect(() => resolveSettings({}, { SIMADMIN_CONFIG_DIR: dir })).toThrow(UsageError);
    expect(() => resolveSettings({}, { SIMADMIN_CONFIG_DIR: dir })).toThrow(/not valid JSON/);
  });
});
