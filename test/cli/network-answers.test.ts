import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAST, ROOMY, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { pour, startScriptedService, type ScriptedService } from "../helpers/scripted-service.js";

// Answers that are not what was asked (issue 13 items 4 and 5; docs/cli-contract.md
// "Retries"): too large, empty, `null`, not JSON, nested absurdly deep, redirects. Each is
// exit 8 naming what came back, never an empty export, and none of them is retried. The
// program's reading of an answer is the subject, not the process: in-process, against a
// sandbox or a scripted service on loopback.

const TOKEN_PATH = "/v2/access-api/user/token";
const REPORT_PATH = "/v2/report/users";
const TOKEN = ["token", "--user", "user-demo", "-o", "json"];

let t: TestEnv | undefined;
let service: ScriptedService | undefined;
afterEach(async () => {
  await t?.close();
  await service?.close();
  t = undefined;
  service = undefined;
});

const lastError = (stderr: string): string => stderr.split("\n").find((line) => line.startsWith("error:")) ?? "";

describe("empty, null, not JSON, too deep", () => {
  it.each([
    ["an empty body", "", /answered 200 with an empty body where JSON was expected/],
    ["null", "null", /answered 200 with `null` where JSON was expected/],
    [
      "an HTML page",
      "<html><head><title>Sign in</title></head></html>",
      /answered 200 with text\/plain "<html><head><title>Sign in/,
    ],
    ["JSON nested 100,000 deep", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, /JSON nested deeper than 256 levels/],
  ])("token, %s: exit 8 naming it, one attempt", async (_name, body, message) => {
    t = await startTestEnv(ROOMY);
    t.sandbox.faults.respondNext(TOKEN_PATH, 5, { status: 200, body });
    const r = await t.capture(TOKEN);
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toBe("");
    expect(lastError(r.stderr)).toMatch(message);
    expect(r.stderr).not.toMatch(/Maximum call stack|internal error/);
    expect(r.sent).toHaveLength(1);
  });

  it.each([
    ["an empty body", "", /answered 200 with an empty body/],
    ["null", " null\n", /answered 200 with `null`/],
    ["JSON nested 100,000 deep", `[${"[".repeat(100_000)}${"]".repeat(100_000)}]`, /nested deeper than 256 levels/],
  ])("reports, %s: exit 8, no export file, one attempt", async (_name, body, message) => {
    t = await startTestEnv(ROOMY);
    t.sandbox.faults.respondNext(REPORT_PATH, 5, { status: 200, body });
    const dir = await tempDir();
    try {
      const out = join(dir.path, "users.csv");
      const r = await t.capture(["reports", "users", "--from", "2026-01-01", "--to", "2026-01-10", "--out", out]);
      expect(r.exitCode).toBe(8);
      expect(lastError(r.stderr)).toMatch(message);
      expect(existsSync(out)).toBe(false);
      expect(r.sent).toHaveLength(1);
    } finally {
      await dir.remove();
    }
  });
});

describe("redirects are reported, never followed", () => {
  it.each([301, 302, 307, 308])("%i: exit 8 naming the Location and the --base-url that would reach it", async (status) => {
    t = await startTestEnv(ROOMY);
    const elsewhere = await startScriptedService((_req, res) => res.writeHead(200).end("{}"));
    service = elsewhere;
    const location = `${elsewhere.baseUrl}/api${TOKEN_PATH}`;
    t.sandbox.faults.respondNext(TOKEN_PATH, 5, { status, body: "", headers: { location } });
    const r = await t.capture(TOKEN);
    expect(r.exitCode).toBe(8);
    expect(lastError(r.stderr)).toContain(`answered ${status}`);
    expect(lastError(r.stderr)).toContain(`a redirect to ${location}`);
    expect(lastError(r.stderr)).toContain(`use --base-url ${elsewhere.baseUrl}/api;`);
    expect(r.sent).toHaveLength(1);
    expect(elsewhere.paths).toEqual([]);
  });

  it("escapes a Location holding a C1 control character (CSI, allowed in a header as Latin-1)", async () => {
    t = await startTestEnv(ROOMY);
    t.sandbox.faults.respondNext(TOKEN_PATH, 1, { status: 302, body: "", headers: { location: "https://x.test/\u009b31mred" } });
    const r = await t.capture(TOKEN);
    expect(r.exitCode).toBe(8);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stderr).toContain("a redirect to https://x.test/%C2%9B31mred");
  });
});

describe("size caps", () => {
  it("token: an answer over the cap is exit 8 'answer too large', read no further, not retried", async () => {
    let written = 0;
    service = await startScriptedService((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.on("close", () => undefined);
      pour(res, Buffer.alloc(64 * 1024, 0x20));
      written++;
    });
    const r = await runCli([...TOKEN, "--retries", "3"], {
      env: { ...serviceEnv(service), SIMADMIN_MAX_ANSWER_BYTES: String(1024 * 1024) },
    });
    expect(r.exitCode).toBe(8);
    expect(lastError(r.stderr)).toMatch(
      /^error: user token: answer too large \(more than 1 MiB\); it was not read further and not retried/,
    );
    expect(written).toBe(1);
  });

  it("token: a Content-Length over the cap fails before reading", async () => {
    service = await startScriptedService((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) });
      res.write("{");
    });
    const r = await runCli(TOKEN, { env: { ...serviceEnv(service), SIMADMIN_MAX_ANSWER_BYTES: String(1024 * 1024) } });
    expect(r.exitCode).toBe(8);
    expect(lastError(r.stderr)).toMatch(/answer too large \(50 MiB announced, over 1 MiB\)/);
    expect(service.paths).toHaveLength(1);
  });

  it("an endless 503 body is read only for its message, then retried as a 503", async () => {
    service = await startScriptedService((_req, res) => {
      res.writeHead(503, { "content-type": "text/plain" });
      pour(res, Buffer.from("down for maintenance ".repeat(1000)));
    });
    const r = await runCli([...TOKEN, "--retries", "1"], { env: serviceEnv(service) });
    expect(r.exitCode).toBe(8);
    expect(lastError(r.stderr)).toMatch(/the service failed \(503\): down for maintenance/);
    expect(service.paths).toHaveLength(2);
  });

  it("reports: a window over the cap is exit 8 'answer too large', no export and no window file, not retried", async () => {
    service = await startScriptedService((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      pour(res, Buffer.from('{"user":"u","score":1},'.repeat(1000)));
    });
    const dir = await tempDir();
    try {
      const out = join(dir.path, "users.json");
      const r = await runCli(["reports", "users", "--from", "2026-01-01", "--to", "2026-01-10", "--out", out], {
        env: { ...serviceEnv(service), SIMADMIN_MAX_REPORT_BYTES: String(2 * 1024 * 1024) },
      });
      expect(r.exitCode).toBe(8);
      expect(lastError(r.stderr)).toMatch(/report users: answer too large \(more than 2 MiB\)/);
      expect(existsSync(out)).toBe(false);
      expect(service.paths).toHaveLength(1);
    } finally {
      await dir.remove();
    }
  });
});

function serviceEnv(s: ScriptedService): Record<string, string> {
  return {
    ...FAST,
    SIMADMIN_BASE_URL: s.baseUrl,
    SIMADMIN_API_KEY: "sk_test_0123456789",
    SIMADMIN_ORG: "org-test",
    SIMADMIN_CONFIG_DIR: join(t?.configDir ?? "/nonexistent", "scripted"),
  };
}
