import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// The small ones of issue 22 (item 6), through the real program against the sandbox: bidi
// controls from the service never reach the terminal raw; a 301 answer to an upload is not
// "may have been accepted"; the API key echoed inside report data never lands in an export.

const RANGE = ["--from", "2025-01-01", "--to", "2025-01-03"];
const SYMS = "/v2/report/syms";
const UPLOAD = "/v2/access-api/user/bulk-import";

let t: TestEnv;
let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});
beforeEach(async () => {
  t = await startTestEnv(ROOMY);
});
afterEach(async () => {
  await t.close();
});

describe("bidirectional controls from the service", () => {
  it("U+202E in a service's error message is escaped on stderr", async () => {
    t.sandbox.faults.respondNext(SYMS, 1, { status: 400, body: { message: "bad file report\u202Etxt.exe" } });
    const r = await t.capture(["reports", "syms", ...RANGE, "-o", "json"]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("report\\u202etxt.exe");
    expect(r.stderr).not.toContain("\u202E");
  });

  it("U+202E and U+2066 in report data are escaped in a table on a terminal", async () => {
    t.sandbox.faults.respondNext(SYMS, 1, { status: 200, body: [{ name: "evil\u202Eexe.txt", other: "a\u2066b" }] });
    const r = await t.capture(["reports", "syms", ...RANGE, "-o", "table"], { stdoutIsTTY: true, columns: 120 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("evil\\u202eexe.txt");
    expect(r.stdout).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });
});

describe("a redirect answering an upload", () => {
  async function staffFile(): Promise<string> {
    const file = join(dir.path, `staff-${Math.random().toString(36).slice(2)}.csv`);
    await writeFile(
      file,
      "firstName,lastName,username,email,role,teamName,status,action\nAda,Lovelace,ada@example.com,ada@example.com,trainee,,ACTIVE,Add\n",
    );
    return file;
  }

  it("301: not processed, so the batch is pending (not 'may have been accepted') and a re-run sends it", async () => {
    const file = await staffFile();
    t.sandbox.faults.respondNext(UPLOAD, 1, { status: 301, body: "", headers: { location: "https://elsewhere.example/v2" } });
    const first = await t.capture(["users", "import", file, "--yes"]);
    expect(first.exitCode).toBe(8);
    expect(first.stderr).toContain("a redirect to https://elsewhere.example/v2");
    expect(first.stderr).not.toContain("may have been accepted");
    const manifest = JSON.parse(await readFile(file.replace(/\.csv$/, ".import.json"), "utf8")) as {
      batches: { state: string }[];
    };
    expect(manifest.batches.map((b) => b.state)).toEqual(["pending"]);
    const again = await t.capture(["users", "import", file, "--yes", "--resume"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.sent.filter((request) => request.path === UPLOAD)).toHaveLength(1);
  });

  it("303 See Other (how a server points at the result of a POST it processed) stays ambiguous", async () => {
    const file = await staffFile();
    t.sandbox.faults.respondNext(UPLOAD, 1, { status: 303, body: "", headers: { location: "https://elsewhere.example/task" } });
    const first = await t.capture(["users", "import", file, "--yes"]);
    expect(first.exitCode).toBe(8);
    expect(first.stderr).toContain("may have been accepted");
  });
});

describe("the API key echoed inside report data", () => {
  let key: string;
  beforeEach(() => {
    key = t.env.SIMADMIN_API_KEY ?? "";
    expect(key.length).toBeGreaterThan(8);
    t.sandbox.faults.respondNext(SYMS, 1, {
      status: 200,
      body: { data: [{ name: "echo", requestedWith: `Bearer ${key}`, [key]: 1, nested: { list: [key] } }] },
    });
  });

  it.each(["json", "csv", "ndjson", "raw"])("is redacted in a %s export", async (format) => {
    const out = join(dir.path, `syms-${format}-${Date.now()}.${format === "raw" ? "json" : format}`);
    const args = format === "raw" ? ["--raw", "--out", out] : ["--out", out];
    const r = await t.capture(["reports", "syms", ...RANGE, ...args]);
    expect(r.exitCode, r.stderr).toBe(0);
    const text = await readFile(out, "utf8");
    expect(text).not.toContain(key);
    expect(text).toContain("Bearer [REDACTED]");
  });

  it("is redacted in an .xlsx export", async () => {
    const out = join(dir.path, `syms-${Date.now()}.xlsx`);
    const r = await t.capture(["reports", "syms", ...RANGE, "--out", out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(out);
    const cells: string[] = [];
    workbook.worksheets[0]?.eachRow((row) => cells.push(JSON.stringify(row.values)));
    expect(cells.join("\n")).not.toContain(key);
    expect(cells.join("\n")).toContain("Bearer [REDACTED]");
  });

  it("is redacted on stdout, and in `simadmin api` answers", async () => {
    const r = await t.capture(["reports", "syms", ...RANGE, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(key);
    t.sandbox.faults.respondNext("/v2/access-api/user/token", 1, { status: 200, body: { token: "t", echo: key } });
    const api = await t.capture([
      "api",
      "/v2/access-api/user/token",
      "--data",
      '{"organizationId":"org-demo","userId":"user-demo"}',
    ]);
    expect(api.exitCode, api.stderr).toBe(0);
    expect(api.stdout).not.toContain(key);
    expect(api.stdout).toContain("[REDACTED]");
  });
});
