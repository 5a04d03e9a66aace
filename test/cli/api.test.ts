import { readFile, writeFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { classifyApiPath, normalizeApiPath } from "../../src/commands/api/api.js";
import { UsageError } from "../../src/errors.js";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// `simadmin api <path>` (issue 16 item 2): a raw POST with the profile's key and base URL, the
// budget by path, the retry rules by path, --data/--input, JSON (or -o by shape) out.

const TOKEN = "/v2/access-api/user/token";
const LIBRARY = "/v2/access-api/simulation/library";
const BULK = "/v2/access-api/user/bulk-import";

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv(ROOMY);
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.sandbox.faults.clear();
});

describe("simadmin api", () => {
  it("POSTs --data to the path under the base URL and prints the answer as JSON", async () => {
    const r = await t.capture(["api", TOKEN, "--data", '{"organizationId":"org-demo","userId":"user-demo"}']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent.map((s) => [s.path, s.body, s.status])).toEqual([
      [TOKEN, { organizationId: "org-demo", userId: "user-demo" }, 200],
    ]);
    const answer = JSON.parse(r.stdout) as { token: string; expiresIn: number };
    expect(answer.expiresIn).toBe(3600);
    expect(t.sandbox.state.verifyUserToken(answer.token)).toMatchObject({ valid: true, userId: "user-demo" });
  });

  it("prints a `null` answer as null (valid JSON) with exit 0", async () => {
    t.sandbox.faults.respondNext(TOKEN, 1, { status: 200, body: "null", headers: { "content-type": "application/json" } });
    const r = await t.capture(["api", TOKEN, "--data", '{"organizationId":"org-demo","userId":"user-demo"}']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("null");
  });

  it("prints JSON even on a terminal, and by shape with -o csv / ndjson; --query applies to the answer", async () => {
    const body = '{"organizationId":"org-demo","userId":"user-demo","pageSize":3}';
    const tty = await t.capture(["api", LIBRARY, "--data", body], { stdoutIsTTY: true });
    expect(JSON.parse(tty.stdout)).toMatchObject({ simulations: [{ id: "sim-001" }, { id: "sim-002" }, { id: "sim-003" }] });
    const csv = await t.capture(["api", LIBRARY, "--data", body, "-o", "csv", "--fields", "id"]);
    expect(csv.stdout).toBe("id\nsim-001\nsim-002\nsim-003\n");
    const ndjson = await t.capture(["api", LIBRARY, "--data", body, "-o", "ndjson"]);
    expect(
      ndjson.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(["sim-001", "sim-002", "sim-003"]);
    const q = await t.capture(["api", LIBRARY, "--data", body, "--query", "simulations[].id", "-o", "text"]);
    expect(q.stdout).toBe("sim-001\nsim-002\nsim-003\n");
  });

  it("writes the answer through the printer: -o xlsx --out makes a workbook of its records, --out .json the JSON as it came", async () => {
    // The command returns the answer and the printer writes it, as for every other command:
    // when api rendered by itself, -o xlsx was an internal error (exit 1).
    const body = '{"organizationId":"org-demo","userId":"user-demo","pageSize":2}';
    const dir = await tempDir();
    try {
      const xlsx = join(dir.path, "library.xlsx");
      const r = await t.capture(["api", LIBRARY, "--data", body, "-o", "xlsx", "--out", xlsx, "--fields", "id,title"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`wrote ${xlsx}`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(xlsx);
      const rows: unknown[][] = [];
      workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      expect(rows).toEqual([
        ["id", "title"],
        ["sim-001", "Cold Call Opener"],
        ["sim-002", "Discovery Questions"],
      ]);

      const json = join(dir.path, "library.json");
      const j = await t.capture(["api", LIBRARY, "--data", body, "--out", json]);
      expect(j.exitCode, j.stderr).toBe(0);
      const written = JSON.parse(await readFile(json, "utf8")) as { simulations: { id: string }[] };
      expect(written.simulations.map((sim) => sim.id)).toEqual(["sim-001", "sim-002"]);
    } finally {
      await dir.remove();
    }
  });

  it("reads the body from --input <file> and from --input - (stdin); a path without its leading slash works", async () => {
    const dir = await tempDir();
    try {
      const file = join(dir.path, "body.json");
      await writeFile(file, '{"organizationId":"org-demo","userId":"user-ava"}');
      const fromFile = await t.capture(["api", TOKEN.slice(1), "--input", file]);
      expect(fromFile.exitCode, fromFile.stderr).toBe(0);
      expect(fromFile.sent.map((s) => s.body)).toEqual([{ organizationId: "org-demo", userId: "user-ava" }]);
      const fromStdin = await t.capture(["api", TOKEN, "--input", "-"], {
        input: '{"organizationId":"org-demo","userId":"user-ben"}',
      });
      expect(fromStdin.exitCode, fromStdin.stderr).toBe(0);
      expect(fromStdin.sent.map((s) => s.body)).toEqual([{ organizationId: "org-demo", userId: "user-ben" }]);
      const missing = await t.capture(["api", TOKEN, "--input", join(dir.path, "nope.json")]);
      expect(missing.exitCode).toBe(11);
      expect(missing.sent).toEqual([]);
    } finally {
      await dir.remove();
    }
  });

  it("sends nothing for invalid JSON, a URL instead of a path, or --data with --input (exit 2)", async () => {
    for (const args of [
      ["api", TOKEN, "--data", "{organizationId: org-demo}"],
      ["api", TOKEN, "--input", "-"],
      ["api", "https://evil.example.com/v2/access-api/user/token", "--data", "{}"],
      ["api", "/v2/../secret", "--data", "{}"],
      ["api", TOKEN, "--data", "{}", "--input", "-"],
    ]) {
      const r = await t.capture(args, { input: "not json" });
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.sent).toEqual([]);
    }
  });

  it("maps errors to the usual exit codes: 400 → 6, 404 → 5, 401 → 3", async () => {
    const bad = await t.capture(["api", TOKEN, "--data", '{"organizationId":"org-demo"}']);
    expect(bad.exitCode).toBe(6);
    const unknownUser = await t.capture(["api", TOKEN, "--data", '{"organizationId":"org-demo","userId":"nobody"}']);
    expect(unknownUser.exitCode).toBe(5);
    const unknownPath = await t.capture(["api", "/v2/access-api/nothing-here", "--data", "{}"]);
    expect(unknownPath.exitCode).toBe(5);
    const key = await t.capture(["api", TOKEN, "--data", "{}"], { env: { SIMADMIN_API_KEY: "sk_wrong" } });
    expect(key.exitCode).toBe(3);
  });

  it("retries a known-safe path after a 503, but not an unknown or upload path after an ambiguous failure", async () => {
    t.sandbox.faults.failNext(TOKEN, 1, 503);
    const safe = await t.capture(["api", TOKEN, "--data", '{"organizationId":"org-demo","userId":"user-demo"}']);
    expect(safe.exitCode, safe.stderr).toBe(0);
    expect(safe.sent.map((s) => s.status)).toEqual([503, 200]);

    t.sandbox.faults.failNext("/v2/access-api/user/frobnicate", 1, 503);
    const unknown = await t.capture(["api", "/v2/access-api/user/frobnicate", "--data", "{}"]);
    expect(unknown.exitCode).toBe(8);
    expect(unknown.sent).toHaveLength(1);

    t.sandbox.faults.dropNext(BULK, 1);
    const upload = await t.capture(["api", BULK, "--data", "{}"]);
    expect(upload.exitCode).toBe(8);
    expect(upload.sent).toHaveLength(1);

    // A 429 means "not accepted": repeated for any path.
    t.sandbox.faults.failNext("/v2/access-api/user/frobnicate", 1, 429, { retryAfterSeconds: 0 });
    const limited = await t.capture(["api", "/v2/access-api/user/frobnicate", "--data", "{}"]);
    expect(limited.sent.map((s) => s.status)).toEqual([429, 404]);
  });

  it("spends the budget of the path's group: reports for report paths, access otherwise", async () => {
    // One report request a minute, on a fake clock: a second report call waits for the
    // minute, an access call in between does not wait at all.
    const dir = await tempDir();
    try {
      const clock = createFakeClock(Date.now());
      const env = { SIMADMIN_RATE_LIMITS: "reports=1/60s,access=1000/1s", SIMADMIN_CONFIG_DIR: dir.path };
      const range = '{"startDate":"2025-01-01","endDate":"2025-01-10"}';
      const first = await t.run(["api", "/v2/report/users", "--data", range], { env, clock });
      expect(first.exitCode, first.stderr).toBe(0);
      expect(first.sent.map((s) => [s.path, s.group])).toEqual([["/v2/report/users", "reports"]]);
      expect(clock.sleeps).toEqual([]);
      const access = await t.run(["api", TOKEN, "--data", '{"organizationId":"org-demo","userId":"user-demo"}'], { env, clock });
      expect(access.exitCode, access.stderr).toBe(0);
      expect(clock.sleeps).toEqual([]);
      const second = await t.run(["api", "/v2/report/users", "--data", range, "-v"], { env, clock });
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/waiting [\d.]+ s \(reports rate budget\) before api \/v2\/report\/users/);
      expect(clock.sleeps).toHaveLength(1);
      expect(clock.sleeps[0]).toBeGreaterThanOrEqual(59_000);
    } finally {
      await dir.remove();
    }
  });
});

describe("path rules", () => {
  it("classifies paths: budget group and retry safety", async () => {
    expect(await classifyApiPath("/v2/report/users")).toMatchObject({ group: "reports", retry: "safe" });
    expect(await classifyApiPath("/report/syms")).toMatchObject({ group: "reports", retry: "safe" });
    expect(await classifyApiPath(TOKEN)).toMatchObject({ group: "access", retry: "safe" });
    expect(await classifyApiPath("/access-api/simulation/deep-links")).toMatchObject({ group: "access", retry: "safe" });
    expect(await classifyApiPath(BULK)).toMatchObject({ group: "access", retry: "upload" });
    expect(await classifyApiPath("/v2/access-api/user/delete")).toMatchObject({ group: "access", retry: "upload" });
  });

  it("normalises a path and refuses URLs, dot segments and queries", () => {
    expect(normalizeApiPath("v2/access-api/user/token")).toBe(TOKEN);
    const refusals: [string, string][] = [
      ["", 'api: "" is not an endpoint path'],
      ["/", 'api: "/" is not an endpoint path'],
      ["http://x/y", 'api: give a path, not a URL ("http://x/y")'],
      ["/a/../b", "api: the path may not contain '.' or '..' segments (\"/a/../b\")"],
      ["/a?b=1", 'api: "/a?b=1" is not an endpoint path'],
      ["/a#b", 'api: "/a#b" is not an endpoint path'],
      ["//host/a", 'api: "//host/a" is not an endpoint path'],
    ];
    for (const [bad, message] of refusals) {
      let thrown: unknown;
      try {
        normalizeApiPath(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(UsageError);
      expect((thrown as UsageError).message, bad).toBe(message);
    }
  });
});
