import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAST, ROOMY, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// The API key in the 0600 settings file (docs/cli-contract.md "Secrets"): with
// SIMADMIN_KEYCHAIN=off, and the warning about a stored key's age. Neither needs a keychain,
// so the program runs in-process; the OS keychain and its absence are
// test/e2e/keychain.test.ts.

let t: TestEnv;
const dirs: { path: string; remove(): Promise<void> }[] = [];
beforeAll(async () => {
  t = await startTestEnv(ROOMY);
});
afterAll(async () => {
  await t.close();
  await Promise.all(dirs.map((d) => d.remove()));
});

async function freshConfig(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return join(dir.path, "cfg");
}

async function login(env: Record<string, string | undefined>) {
  return runCli(["auth", "login", "--with-key", "--base-url", t.sandbox.baseUrl, "--org", "org-demo"], {
    env,
    input: `${t.sandbox.keys.full}\n`,
  });
}

async function status(env: Record<string, string | undefined>) {
  const r = await runCli(["auth", "status", "-o", "json"], { env });
  return { ...r, value: r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined };
}

describe("SIMADMIN_KEYCHAIN=off", () => {
  it("SIMADMIN_KEYCHAIN=off stores in the file too; SIMADMIN_API_KEY wins and status says 'environment'", async () => {
    const cfg = await freshConfig();
    const env = { SIMADMIN_KEYCHAIN: "off", SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined };
    const r = await login(env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/no OS keychain \(SIMADMIN_KEYCHAIN=off\)/);
    const s = await status({ ...env, SIMADMIN_API_KEY: "sk_from_env_7777" });
    expect(s.value).toMatchObject({
      apiKey: "****7777",
      apiKeySource: "env",
      apiKeyLocation: "environment",
      apiKeyCreatedAt: null,
    });
  });
});

describe("key age", () => {
  async function settingsWithKeyAged(days: number): Promise<string> {
    const cfg = await freshConfig();
    await login({ SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined });
    const path = join(cfg, "settings.json");
    const file = JSON.parse(await readFile(path, "utf8")) as { profiles: { default: Record<string, unknown> } };
    file.profiles.default.apiKeyCreatedAt = new Date(Date.now() - days * 86_400_000).toISOString();
    await writeFile(path, JSON.stringify(file), { mode: 0o600 });
    return cfg;
  }

  it("warns once a day when the stored key is older than 90 days", async () => {
    const cfg = await settingsWithKeyAged(120);
    const env = { SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined, ...FAST };
    const first = await runCli(["token", "--user", "user-demo", "-o", "json"], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /^warning: the stored API key of profile 'default' is 120 days old; .*every 90 days.*simadmin auth login/m,
    );
    const second = await runCli(["token", "--user", "user-demo", "-o", "json"], { env });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/days old/);
    const warned = JSON.parse(await readFile(join(cfg, "key-age-warned.json"), "utf8")) as Record<string, string>;
    expect(warned).toEqual({ default: new Date().toISOString().slice(0, 10) });
    // The state is the day of the last warning: yesterday's does not silence today's.
    await writeFile(join(cfg, "key-age-warned.json"), JSON.stringify({ default: "2000-01-01" }));
    expect((await runCli(["token", "--user", "user-demo", "-o", "json"], { env })).stderr).toMatch(/120 days old/);
    // A key from the environment is not the stored one: no warning about the stored key's age.
    await writeFile(join(cfg, "key-age-warned.json"), "{}");
    const fromEnv = await runCli(["token", "--user", "user-demo", "-o", "json"], {
      env: { ...env, SIMADMIN_API_KEY: t.sandbox.keys.full },
    });
    expect(fromEnv.stderr).not.toMatch(/days old/);
  });

  it("says nothing for a key younger than 90 days", async () => {
    const cfg = await settingsWithKeyAged(89);
    const r = await runCli(["token", "--user", "user-demo", "-o", "json"], {
      env: { SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined, ...FAST },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/days old/);
  });
});
