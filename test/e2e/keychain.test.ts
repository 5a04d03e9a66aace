import { spawnSync } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAST, ROOMY, runBinary, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";
import { startSecretService, type SecretService } from "../helpers/secret-service.js";

// The API key in the OS keychain, or in the 0600 settings file when there is none (issue 16
// item 4; docs/cli-contract.md "Secrets"). The fallback is tested always; the keychain path
// against a private Secret Service (gnome-keyring on a D-Bus session of the test's own). The
// binary, because the keychain library finds the session bus in the process's environment
// (DBUS_SESSION_BUS_ADDRESS); SIMADMIN_KEYCHAIN=off and the key's age, which need no bus, are
// test/cli/auth-key-file.test.ts, in-process.

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

/** No Secret Service reachable: the bus address points at nothing. */
const NO_BUS = { SIMADMIN_KEYCHAIN: undefined, DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/simadmin-test-bus" };

async function login(env: Record<string, string | undefined>) {
  return runBinary(["auth", "login", "--with-key", "--base-url", t.sandbox.baseUrl, "--org", "org-demo"], {
    env,
    input: `${t.sandbox.keys.full}\n`,
  });
}

async function status(env: Record<string, string | undefined>) {
  const r = await runBinary(["auth", "status", "-o", "json"], { env });
  return { ...r, value: r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined };
}

describe("no keychain: the settings file", () => {
  it("stores the key in the 0600 file with a one-line notice; status says 'settings file'; logout removes it", async () => {
    const cfg = await freshConfig();
    const env = { ...NO_BUS, SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined };
    const r = await login(env);
    expect(r.exitCode, r.stderr).toBe(0);
    const notice = r.stderr.split("\n").filter((line) => line.includes("no OS keychain"));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toMatch(/^warning: no OS keychain \(.+\): the key is stored in .*settings\.json, readable by you only$/);
    const file = JSON.parse(await readFile(join(cfg, "settings.json"), "utf8")) as {
      profiles: Record<string, Record<string, unknown>>;
    };
    expect(file.profiles.default).toMatchObject({ apiKey: t.sandbox.keys.full });
    expect(file.profiles.default?.keychainAccount).toBeUndefined();
    expect(Date.parse(String(file.profiles.default?.apiKeyCreatedAt))).not.toBeNaN();
    expect((await stat(join(cfg, "settings.json"))).mode & 0o777).toBe(0o600);

    const s = await status(env);
    expect(s.exitCode, s.stderr).toBe(0);
    expect(s.value).toMatchObject({
      apiKey: `****${t.sandbox.keys.full.slice(-4)}`,
      apiKeySource: "stored",
      apiKeyLocation: "settings file",
      apiKeyCreatedAt: file.profiles.default?.apiKeyCreatedAt,
    });
    const token = await runBinary(["token", "--user", "user-demo", "-o", "json"], { env: { ...env, ...FAST } });
    expect(token.exitCode, token.stderr).toBe(0);

    const out = await runBinary(["auth", "logout"], { env });
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stderr).toContain("from the settings file");
    const after = JSON.parse(await readFile(join(cfg, "settings.json"), "utf8")) as { profiles: Record<string, object> };
    expect(after.profiles.default).toEqual({ baseUrl: t.sandbox.baseUrl, org: "org-demo" });
    expect((await status(env)).exitCode).toBe(3);
  });

  it("a settings file that says the key is in an unreachable keychain: exit 3 naming the keychain; SIMADMIN_API_KEY still works", async () => {
    const cfg = await freshConfig();
    const env = { ...NO_BUS, SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined };
    await login({ ...env, SIMADMIN_KEYCHAIN: "off" });
    const path = join(cfg, "settings.json");
    const file = JSON.parse(await readFile(path, "utf8")) as { profiles: { default: Record<string, unknown> } };
    delete file.profiles.default.apiKey;
    file.profiles.default.keychainAccount = "default (elsewhere)";
    await writeFile(path, JSON.stringify(file));
    const r = await runBinary(["token", "--user", "user-demo"], { env: { ...env, ...FAST } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(
      /^error: cannot read the API key of profile 'default' from the OS keychain \(.+\); .*SIMADMIN_API_KEY/,
    );
    const withEnv = await runBinary(["token", "--user", "user-demo", "-o", "json"], {
      env: { ...env, ...FAST, SIMADMIN_API_KEY: t.sandbox.keys.full },
    });
    expect(withEnv.exitCode, withEnv.stderr).toBe(0);
  });
});

// The real keychain path: a Secret Service of the test's own.
const service: SecretService | string = await startSecretService();
const skipReason = typeof service === "string" ? service : undefined;
if (skipReason) console.warn(`keychain tests skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)(
  `the OS keychain (Secret Service)${skipReason ? ` — skipped: ${skipReason}` : ""}`,
  () => {
    afterAll(async () => {
      if (typeof service !== "string") await service.stop();
    });
    const kc = () => (service as SecretService).env;
    const lookup = (account: string): string =>
      spawnSync("secret-tool", ["lookup", "service", "simadmin", "username", account], {
        env: { ...process.env, ...kc() },
        encoding: "utf8",
      }).stdout;

    it("login stores the key in the keychain, not in the file; status says 'keychain'; commands use it; logout removes it from both", async () => {
      const cfg = await freshConfig();
      const env = { ...kc(), SIMADMIN_KEYCHAIN: undefined, SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined };
      const r = await login(env);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/in the OS keychain/);
      expect(r.stderr).not.toMatch(/no OS keychain/);
      const text = await readFile(join(cfg, "settings.json"), "utf8");
      expect(text).not.toContain(t.sandbox.keys.full);
      const account = `default (${cfg})`;
      expect(JSON.parse(text)).toMatchObject({ profiles: { default: { keychainAccount: account } } });
      expect(lookup(account)).toBe(t.sandbox.keys.full);

      const s = await status(env);
      expect(s.exitCode, s.stderr).toBe(0);
      expect(s.value).toMatchObject({
        apiKey: `****${t.sandbox.keys.full.slice(-4)}`,
        apiKeySource: "stored",
        apiKeyLocation: "keychain",
      });
      const before = t.sandbox.requests.length;
      const token = await runBinary(["token", "--user", "user-demo", "-o", "json"], { env: { ...env, ...FAST } });
      expect(token.exitCode, token.stderr).toBe(0);
      expect(t.sandbox.requests.slice(before).map((q) => q.status)).toEqual([200]);

      const out = await runBinary(["auth", "logout"], { env });
      expect(out.exitCode, out.stderr).toBe(0);
      expect(out.stderr).toMatch(/from the OS keychain/);
      expect(lookup(account)).toBe("");
      expect(await readFile(join(cfg, "settings.json"), "utf8")).not.toMatch(/keychainAccount|apiKey/);
      expect((await status(env)).exitCode).toBe(3);
    });

    it("a key previously in the file moves to the keychain at the next login", async () => {
      const cfg = await freshConfig();
      const env = { ...kc(), SIMADMIN_CONFIG_DIR: cfg, SIMADMIN_API_KEY: undefined };
      await login({ ...env, SIMADMIN_KEYCHAIN: "off" });
      expect(await readFile(join(cfg, "settings.json"), "utf8")).toContain(t.sandbox.keys.full);
      const r = await login({ ...env, SIMADMIN_KEYCHAIN: undefined });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(await readFile(join(cfg, "settings.json"), "utf8")).not.toContain(t.sandbox.keys.full);
      expect((await status({ ...env, SIMADMIN_KEYCHAIN: undefined })).value).toMatchObject({ apiKeyLocation: "keychain" });
      await runBinary(["auth", "logout"], { env: { ...env, SIMADMIN_KEYCHAIN: undefined } });
    });
  },
);
