// @ts-nocheck
import { existsSync } from "node:fs";
import { readdir, readFile, stat, writeFile, chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, FAST, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// The promised CLI surface through the real program (in-process) against a real server on 127.0.0.1:
// exit codes from real HTTP answers, settings precedence and modes, secrets, --out.

let t: TestEnv;

beforeAll(async () => {
  t = await startTestEnv({ rateLimits: { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } } });
});
afterAll(() => t.close());

describe("exit codes from real HTTP answers", () => {
  it("0 and a JSON document on success", async () => {
    const r = await t.run(["token", "--user", "user-demo"], { env: FAST });
    expect(r.exitCode).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ userId: "user-demo", expiresIn: 3600 });
    expect(typeof body.token).toBe("string");
  });

  it.each([
    [
      "400 → 6",
      { status: 400, body: { error: { code: "INVALID_REQUEST", message: "userId is invalid" } } },
      6,
      /userId is invalid/,
    ],
    [
      "401 → 3",
      { status: 401, body: { error: { message: "bad key" } } },
      3,
      /the key came from SIMADMIN_API_KEY in the environment/,
    ],
    ["403 → 4", { status: 403, body: {} }, 4, /lacks permission/],
    ["404 → 5", { status: 404, body: { error: { message: "user not found" } } }, 5, /user not found/],
    ["429 → 7", { status: 429, body: {} }, 7, /rate limit/],
    ["500 → 8", { status: 500, body: {} }, 8, /failed \(500\)/],
    ["503 → 8", { status: 503, body: "down for maintenance" }, 8, /down for maintenance/],
  ])("%s", async (_name, response, code, message) => {
    t.sandbox.faults.respondNext("/v2/access-api/user/token", 1, response);
    const r = await t.run(["token", "--user", "user-demo", "--retries", "0"], { env: FAST });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1); // one line, no stack trace
  });

  it("the real sandbox: unknown user → 5, read-only key → 4, unknown key → 3", async () => {
    expect((await t.run(["token", "--user", "nobody"], { env: FAST })).exitCode).toBe(5);
    expect(
      (await t.run(["token", "--user", "user-demo"], { env: { ...FAST, SIMADMIN_API_KEY: t.sandbox.keys.readOnly } })).exitCode,
    ).toBe(4);
    expect(
      (await t.run(["token", "--user", "user-demo"], { env: { ...FAST, SIMADMIN_API_KEY: "sk_wrong_key_123456" } })).exitCode,
    ).toBe(3);
  });

  it("a timeout → 8", async () => {
    t.sandbox.faults.delayNext("/v2/access-api/user/token", 1, 3000);
    const r = await t.run(["token", "--user", "user-demo", "--retries", "0", "--timeout", "0.5"], { env: FAST });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/no answer within 0.5 s/);
  });

  it("a refused connection → 8", async () => {
    const port = await closedPort();
    const r = await t.run(["token", "--user", "user-demo", "--retries", "0"], {
      env: { ...FAST, SIMADMIN_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/ECONNREFUSED/);
  });

  it("no key anywhere → 3 naming auth login and SIMADMIN_API_KEY", async () => {
    const r = await t.run(["token", "--user", "user-demo"], { env: { SIMADMIN_API_KEY: undefined } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/simadmin auth login/);
    expect(r.stderr).toMatch(/SIMADMIN_API_KEY/);
  });

  it("usage errors → 2 and nothing sent", async () => {
    const before = t.sandbox.requests.length;
    for (const args of [
      ["bogus"],
      ["token"],
      ["token", "--user", "u", "--nope"],
      ["token", "--user", "u", "--api-version", "1"],
      ["token", "--user", "u", "-o", "xml"],
    ]) {
      const r = await t.run(args, { env: FAST });
      expect(r.exitCode, args.join(" ")).toBe(2);
    }
    expect(t.sandbox.requests.length).toBe(before);
  });

  it("a typo gets a suggestion", async () => {
    const r = await runCli(["tokn"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Did you mean token\?/);
  });

  it("a missing org → 2 naming --org", async () => {
    const r = await t.run(["token", "--user", "user-demo"], { env: { SIMADMIN_ORG: undefined } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--org/);
  });
});

describe("global options", () => {
  it("are accepted before and after the subcommand", async () => {
    const before = await t.run(["--org", "org-demo", "-o", "json", "token", "--user", "user-demo"], {
      env: { ...FAST, SIMADMIN_ORG: undefined },
    });
    const after = await t.run(["token", "--user", "user-demo", "--org", "org-demo", "-o", "json"], {
      env: { ...FAST, SIMADMIN_ORG: undefined },
    });
    expect(before.exitCode).toBe(0);
    expect(after.exitCode).toBe(0);
  });

  it("precedence flag > env > profile, seen in the request the service received", async () => {
    const dir = await tempDir();
    try {
      const env = { ...FAST, SIMADMIN_CONFIG_DIR: dir.path, SIMADMIN_ORG: undefined };
      expect((await t.run(["config", "set", "org", "org-profile"], { env })).exitCode).toBe(0);
      const orgSent = async (extraEnv: Record<string, string | undefined>, args: string[] = []): Promise<unknown> => {
        await t.run(["token", "--user", "user-demo", ...args], { env: { ...env, ...extraEnv } });
        return (t.sandbox.requests.at(-1)?.body as { organizationId?: string }).organizationId;
      };
      expect(await orgSent({})).toBe("org-profile");
      expect(await orgSent({ SIMADMIN_ORG: "org-env" })).toBe("org-env");
      expect(await orgSent({ SIMADMIN_ORG: "org-env" }, ["--org", "org-demo"])).toBe("org-demo");
    } finally {
      await dir.remove();
    }
  });
});

describe("settings and auth", () => {
  it("auth login stores the key in a 0600 file inside a 0700 directory; status masks it", async () => {
    const dir = await tempDir();
    try {
      const env = { SIMADMIN_CONFIG_DIR: join(dir.path, "cfg"), SIMADMIN_API_KEY: undefined };
      const login = await runCli(["auth", "login", "--with-key", "--base-url", t.sandbox.baseUrl, "--org", "org-demo"], {
        env,
        input: `${t.sandbox.keys.full}\n`,
      });
      expect(login.exitCode).toBe(0);
      expect(login.stdout + login.stderr).not.toContain(t.sandbox.keys.full);
      expect((await stat(join(dir.path, "cfg"))).mode & 0o777).toBe(0o700);
      expect((await stat(join(dir.path, "cfg", "settings.json"))).mode & 0o777).toBe(0o600);
      const status = await runCli(["auth", "status", "-o", "json"], { env });
      expect(status.exitCode).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({
        apiKey: `****${t.sandbox.keys.full.slice(-4)}`,
        apiKeySource: "stored",
        org: "org-demo",
      });
      expect(status.stdout).not.toContain(t.sandbox.keys.full);
      const token = await runCli(["token", "--user", "user-demo", "-o", "text"], { env: { ...env, ...FAST } });
      expect(token.exitCode).toBe(0);
      const envStatus = await runCli(["auth", "status", "-o", "json"], {
        env: { ...env, SIMADMIN_API_KEY: "sk_from_env_9999" },
      });
      expect(JSON.parse(envStatus.stdout)).toMatchObject({ apiKey: "****9999", apiKeySource: "env" });
      expect((await runCli(["auth", "logout"], { env })).exitCode).toBe(0);
      const after = await runCli(["auth", "status", "-o", "json"], { env });
      expect(after.exitCode).toBe(3);
      expect(await readFile(join(dir.path, "cfg", "settings.json"), "utf8")).not.toContain(t.sandbox.keys.full);
    } finally {
      await dir.remove();
    }
  });

  it("tightens modes of an existing settings file and directory", async () => {
    const dir = await tempDir();
    try {
      const cfg = join(dir.path, "cfg");
      await mkdir(cfg, { mode: 0o755 });
      await chmod(cfg, 0o755);
      await writeFile(join(cfg, "settings.json"), JSON.stringify({ profiles: { default: { org: "org-demo" } } }), {
        mode: 0o644,
      });
      await chmod(join(cfg, "settings.json"), 0o644);
      const r = await runCli(["config", "set", "timeout", "10"], { env: { SIMADMIN_CONFIG_DIR: cfg } });
      expect(r.exitCode).toBe(0);
      expect((await stat(cfg)).mode & 0o777).toBe(0o700);
      expect((await stat(join(cfg, "settings.json"))).mode & 0o777).toBe(0o600);
    } finally {
      await dir.remove();
    }
  });

  it("a corrupted settings file → 2 and is not overwritten", async () => {
    const dir = await tempDir();
    try {
      await writeFile(join(dir.path, "settings.json"), "{ broken");
      const r = await runCli(["config", "set", "org", "x"], { env: { SIMADMIN_CONFIG_DIR: dir.path } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/not valid JSON/);
      expect(await readFile(join(dir.path, "settings.json"), "utf8")).toBe("{ broken");
    } finally {
      await dir.remove();
    }
  });

  it.each([
    [["config", "set", "baseUrl", "not-a-url"], /baseUrl/],
    [["config", "set", "apiVersion", "3"], /must be 1 or 2/],
    [["config", "set", "colour", "red"], /unknown setting/],
    [["--profile", "ghost", "auth", "status"], /unknown profile 'ghost'/],
  ])("bad input %j → 2", async (args, message) => {
    const dir = await tempDir();
    try {
      const r = await runCli(args, { env: { SIMADMIN_CONFIG_DIR: dir.path } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
    } finally {
      await dir.remove();
    }
  });
});

describe("secrets under --verbose", () => {
  it("the API key and the user token appear in no byte of stderr", async () => {
    const r = await t.run(["token", "--user", "user-demo", "--verbose", "-o", "json"], { env: FAST });
    expect(r.exitCode).toBe(0);
    const token = JSON.parse(r.stdout).token as string;
    expect(r.stderr).toMatch(/POST \/v2\/access-api\/user\/token/);
    expect(r.stderr).not.toContain(t.sandbox.keys.full);
    expect(r.stderr).not.toContain(token);
  });

  it("an error answer that echoes the key is redacted", async () => {
    t.sandbox.faults.respondNext("/v2/access-api/user/token", 1, {
      status: 401,
      body: { error: { message: `key ${t.sandbox.keys.full} unknown` } },
    });
    const r = await t.run(["token", "--user", "user-demo", "--verbose"], { env: FAST });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).not.toContain(t.sandbox.keys.full);
    expect(r.stderr).toContain("[REDACTED]");
  });

  it("warns before sending the key over plain http to a non-loopback host", async () => {
    const r = await runCli(["token", "--user", "u", "--retries", "0", "--timeout", "1"], {
      env: {
        SIMADMIN_API_KEY: "sk_test_123456789",
        SIMADMIN_ORG: "o",
        SIMADMIN_BASE_URL: "http://192.0.2.1",
        SIMADMIN_CONFIG_DIR: join(t.configDir, "w"),
      },
    });
    expect(r.stderr).toMatch(/plain http:\/\//);
  });
});

describe("--out", () => {
  it("writes the result atomically and leaves no partial file when the command fails", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "token.json");
      const ok = await t.run(["token", "--user", "user-demo", "--out", out], { env: FAST });
      expect(ok.exitCode).toBe(0);
      expect(ok.stdout).toBe("");
      expect(JSON.parse(await readFile(out, "utf8"))).toMatchObject({ userId: "user-demo" });
      const failed = join(dir.path, "failed.json");
      t.sandbox.faults.failNext("/v2/access-api/user/token", 1, 500);
      const bad = await t.run(["token", "--user", "user-demo", "--retries", "0", "--out", failed], { env: FAST });
      expect(bad.exitCode).toBe(8);
      expect(existsSync(failed)).toBe(false);
      expect(await readdir(dir.path)).toEqual(["token.json"]);
    } finally {
      await dir.remove();
    }
  });
});
