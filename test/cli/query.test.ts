import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateReport } from "../../src/sandbox/reports.js";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// --query <expr> (issue 16 item 3): a JMESPath expression over the JSON result of any
// command, before formatting, in every format; a bad expression is exit 2 with nothing sent.

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv(ROOMY);
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.sandbox.requests.length = 0;
});

const Q1 = ["--from", "2025-01-01", "--to", "2025-03-31"];

describe("--query", () => {
  it("filters and projects library records (json), applied to what -o json prints", async () => {
    const plain = await t.capture(["library", "--user", "user-demo", "--all", "-o", "json"]);
    const all = JSON.parse(plain.stdout) as { id: string; title: string; tags: string[] }[];
    const r = await t.capture([
      "library",
      "--user",
      "user-demo",
      "--all",
      "-o",
      "json",
      "--query",
      "[?contains(tags, 'sales')].{id: id, title: title}",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const expected = all.filter((s) => s.tags.includes("sales")).map((s) => ({ id: s.id, title: s.title }));
    expect(expected.length).toBeGreaterThan(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it("renders a query's records as csv, and --fields applies to the query's answer", async () => {
    const r = await t.capture(["library", "--user", "user-demo", "-o", "csv", "--query", "[:2].{sim: id, name: title}"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("sim,name\nsim-001,Cold Call Opener\nsim-002,Discovery Questions\n");
    const picked = await t.capture([
      "library",
      "--user",
      "user-demo",
      "-o",
      "csv",
      "--query",
      "[:2].{sim: id, name: title}",
      "--fields",
      "name",
    ]);
    expect(picked.stdout).toBe("name\nCold Call Opener\nDiscovery Questions\n");
  });

  it("prints scalars: bare with -o text (one a line), a value column in table and csv, JSON in json", async () => {
    const text = await t.capture(["library", "--user", "user-demo", "--query", "[:3].id", "-o", "text"]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toBe("sim-001\nsim-002\nsim-003\n");
    const table = await t.capture(["token", "--user", "user-demo", "--query", "expiresIn", "-o", "table"]);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/│ value │[\s\S]*│ 3600 +│/);
    const csv = await t.capture(["library", "--user", "user-demo", "--query", "[:2].id", "-o", "csv"]);
    expect(csv.stdout).toBe("value\nsim-001\nsim-002\n");
    const json = await t.capture(["token", "--user", "user-demo", "--query", "{user: userId, secs: expiresIn}", "-o", "json"]);
    expect(JSON.parse(json.stdout)).toEqual({ user: "user-demo", secs: 3600 });
  });

  it("works on reports (one kind, and `all` as the object keyed by kind)", async () => {
    const fast = { SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" };
    const one = await t.run(["reports", "users", ...Q1, "--query", "length(@)", "-o", "json"], { env: fast });
    expect(one.exitCode, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toBe(generateReport("users", "2025-01-01", "2025-03-31", 2).length);
    const all = await t.run(["reports", "all", ...Q1, "--query", "keys(@)", "-o", "text"], { env: fast });
    expect(all.exitCode, all.stderr).toBe(0);
    expect(all.stdout.trim().split("\n")).toContain("user-results");
    const dir = await tempDir();
    try {
      const out = join(dir.path, "firsts.csv");
      const file = await t.run(["reports", "users", ...Q1, "--query", "[:1]", "--out", out], { env: fast });
      expect(file.exitCode, file.stderr).toBe(0);
      const first = generateReport("users", "2025-01-01", "2025-03-31", 2)[0] as Record<string, unknown>;
      const csv = await readFile(out, "utf8");
      expect(csv.split("\n")).toHaveLength(3); // header, one row, final newline
      expect(csv).toContain(String(Object.values(first)[0]));
    } finally {
      await dir.remove();
    }
  });

  it("works on a command without a service call (auth status)", async () => {
    const r = await t.run(["auth", "status", "--query", "apiKeySource", "-o", "text"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("env\n");
  });

  it("a bad expression is exit 2 before anything is sent", async () => {
    for (const expression of ["[", "foo(", "[?a ==]", ""]) {
      const r = await t.capture(["assign", "--user", "user-demo", "--sim", "sim-020", "--query", expression]);
      expect(r.exitCode, expression).toBe(2);
      expect(r.stderr).toMatch(/^error: --query: /);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.sent).toEqual([]);
    }
    expect(t.sandbox.state.isAssigned("org-demo", "user-demo", "sim-020")).toBe(false);
  });

  it("an expression the data cannot satisfy is exit 2 naming --query", async () => {
    const r = await t.capture(["token", "--user", "user-demo", "--query", "length(expiresIn)"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --query: .*length\(\)/);
  });

  // What jmespath.py (the AWS CLI's) answers for the same expressions and data.
  const ROWS = "[{date:'2026-11-14',name:'ann'},{date:'2026-11-16',name:'bo'},{date:'2026-11-15',name:'cy'}]";
  it.each([
    ["[?date >= '2026-11-15'].name", ["bo", "cy"]],
    ["[?date < '2026-11-15'].name", ["ann"]],
    ["[?date > `1`].name", []],
    ["max_by(@, &date).name", "bo"],
    ["min_by(@, &date).name", "ann"],
    ["max_by(@, &name).date", "2026-11-15"],
    ["max_by(`[]`, &date)", null],
  ])("strings order as in jmespath.py: %s", async (expression, expected) => {
    const r = await t.capture(["token", "--user", "user-demo", "-o", "json", "--query", `${ROWS} | ${expression}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it("max_by with keys that mix strings and numbers is exit 2 naming --query", async () => {
    const r = await t.capture(["token", "--user", "user-demo", "--query", "[{k:'a'},{k:`1`}] | max_by(@, &k)"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --query: max_by\(\): the keys mix numbers and strings/);
  });
});
