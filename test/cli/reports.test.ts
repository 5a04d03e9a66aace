import { existsSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderResult } from "../../src/output/render.js";
import { flattenRecord } from "../../src/domain/records.js";
import { REPORT_KINDS, generateReport } from "../../src/sandbox/reports.js";
import { startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { usersWindowFailure } from "../helpers/cli.js";

/** The whole report as one result: the CSV a streamed export of every window must equal. */
function csvOf(records: Record<string, unknown>[]): Promise<string> {
  return renderResult({ kind: "records", records }, { format: "csv" });
}

// `simadmin reports` through the real program, in-process, against the sandbox (issue
// 5); Ctrl-C of a running process is in test/e2e/reports-interrupt.test.ts. Budgets are not
// the point here: client and sandbox both allow 1000 report requests a second.

const FAST = { SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" };
const SANDBOX_LIMITS = { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } };

/** 2025-01-01..2025-03-31: three windows (01-01..01-30, 01-31..03-01, 03-02..03-31). */
const Q1 = ["--from", "2025-01-01", "--to", "2025-03-31"];
const Q1_WINDOWS = [
  { startDate: "2025-01-01", endDate: "2025-01-30" },
  { startDate: "2025-01-31", endDate: "2025-03-01" },
  { startDate: "2025-03-02", endDate: "2025-03-31" },
];

function reportRequests(env: TestEnv): { path: string; body: unknown; status: number }[] {
  return env.sandbox.requests
    .filter((r) => r.path.includes("/report/"))
    .map(({ path, body, status }) => ({ path, body, status }));
}

describe("reports <kind>", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ rateLimits: SANDBOX_LIMITS });
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(() => {
    env.sandbox.requests.length = 0;
  });

  it("requests a 90-day range as three windows in order and merges them into exactly the whole range's records (json)", async () => {
    const result = await env.run(["reports", "user-results", ...Q1, "-o", "json"], { env: FAST });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(generateReport("user-results", "2025-01-01", "2025-03-31", 2));
    expect(reportRequests(env)).toEqual(Q1_WINDOWS.map((body) => ({ path: "/v2/report/user-results", body, status: 200 })));
  });

  it("writes ndjson: one record a line, none lost, none twice", async () => {
    const result = await env.run(["reports", "syms", ...Q1, "-o", "ndjson"], { env: FAST });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual(generateReport("syms", "2025-01-01", "2025-03-31", 2));
  });

  it("writes csv with flattened dotted columns, neutralised and quoted cells, every record of the three windows in order", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "modules.csv");
      // --out with a .csv extension picks csv by itself.
      const result = await env.run(["reports", "modules-results", ...Q1, "--out", out], { env: FAST });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toContain(`wrote ${out} (270 records)`);
      const text = await readFile(out, "utf8");
      // Written out by hand from the sandbox's records (src/sandbox/reports.ts), not rendered.
      const lines = text.split("\n");
      expect(lines.slice(0, 4)).toEqual([
        "recordId,date,module.id,module.name,metrics.attempts,metrics.completions,metrics.avgScore,passRate,medianScore",
        // "+1 Upsell Techniques" and "=Policy Basics" must not reach a spreadsheet as formulas.
        "modres-20250101-0001,2025-01-01,mod-03,'+1 Upsell Techniques,5,4,50.61,0.863,99.78",
        "modres-20250101-0002,2025-01-01,mod-03,'+1 Upsell Techniques,10,9,83.55,0.1364,79.88",
        "modres-20250101-0003,2025-01-01,mod-06,Closing Strong,14,11,58.15,0.5734,85.88",
      ]);
      expect(lines).toContain('modres-20250102-0001,2025-01-02,mod-02,"Objections, Part 2",23,13,59.07,0.9644,57.34');
      expect(lines).toContain("modres-20250103-0001,2025-01-03,mod-05,'=Policy Basics,36,8,40.51,0.9057,79.74");
      expect(lines.slice(-2)).toEqual([
        "modres-20250331-0003,2025-03-31,mod-04,Empathy Under Pressure,59,9,90.17,0.1493,57.85",
        "",
      ]);
      // Every record of the three windows, once, in the service's order.
      const ids = generateReport("modules-results", "2025-01-01", "2025-03-31", 2).map((r) => r.recordId);
      expect(lines.slice(1, -1).map((line) => line.split(",")[0])).toEqual(ids);
      expect(await readdir(dir.path)).toEqual(["modules.csv"]); // no temp file left
    } finally {
      await dir.remove();
    }
  });

  it("writes a table with -o table, and --fields picks and orders columns", async () => {
    const result = await env.run(
      ["reports", "teams-result", "--from", "2025-02-01", "--to", "2025-02-02", "-o", "table", "--fields", "team.name,recordId"],
      {
        env: FAST,
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const header = result.stdout.split("\n").find((line) => line.includes("team.name"));
    expect(header).toMatch(/team\.name.*recordId/);
    expect(result.stdout.match(/teamres-2025020/g)).toHaveLength(6);
  });

  it("prints each window's response untouched with its dates under --raw", async () => {
    const result = await env.run(["reports", "users", "--month", "2024-02", "--raw", "-o", "json"], { env: FAST });
    expect(result.exitCode, result.stderr).toBe(0);
    const windows = JSON.parse(result.stdout) as {
      startDate: string;
      endDate: string;
      response: { data: unknown[]; reportType: string };
    }[];
    expect(windows.map(({ startDate, endDate }) => ({ startDate, endDate }))).toEqual([
      { startDate: "2024-02-01", endDate: "2024-02-29" },
    ]);
    expect(windows[0]?.response.reportType).toBe("users");
    expect(windows[0]?.response.data).toEqual(generateReport("users", "2024-02-01", "2024-02-29", 2));
  });

  it("uses version 1 paths (no /v2) and version 1 records under --api-version 1", async () => {
    const result = await env.run(["--api-version", "1", "reports", "teams-result", ...Q1, "-o", "json"], { env: FAST });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(generateReport("teams-result", "2025-01-01", "2025-03-31", 1));
    const paths = reportRequests(env).map((r) => r.path);
    expect(paths).toEqual(["/report/teams-result", "/report/teams-result", "/report/teams-result"]);
  });

  // issue 21 item 2: no list of a kind's columns in src/ — --fields is checked against the
  // columns the service sent, on the first window that holds records, before any output.
  it.each(["csv", "json", "ndjson", "table"])(
    "checks --fields against the columns the service sent, after one request and before any output, the same for -o %s",
    async (format) => {
      const result = await env.run(["reports", "users", ...Q1, "-o", format, "--fields", "recordId,nope"], { env: FAST });
      expect(result.exitCode).toBe(2);
      const sent = Object.keys(flattenRecord(generateReport("users", "2025-01-01", "2025-01-30", 2)[0]!));
      expect(result.stderr).toContain(
        `unknown field for --fields of \`users\`: nope; the service sent these columns: ${sent.join(", ")}`,
      );
      expect(result.stdout).toBe("");
      // One request at most: the window is kept for the next run (the tests share a cache).
      expect(reportRequests(env).length).toBeLessThanOrEqual(1);
    },
  );

  it.each(["csv", "json"])("refuses a group name (`--fields date,group`) for -o %s, naming its columns", async (format) => {
    const result = await env.run(["reports", "users", ...Q1, "-o", format, "--fields", "date,group"], { env: FAST });
    if (format === "json") {
      // json can pick a whole nested object by its top-level key.
      expect(result.exitCode, result.stderr).toBe(0);
      expect(Object.keys((JSON.parse(result.stdout) as Record<string, unknown>[])[0] ?? {})).toEqual(["date", "group"]);
      return;
    }
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/'group' is a group of columns: name them, e\.g\. --fields group\.id,group\.name/);
    expect(reportRequests(env).length).toBeLessThanOrEqual(1);
  });

  it("with --query, --fields names the columns of the query's answer, not the service's", async () => {
    const result = await env.run(
      [
        "reports",
        "users",
        "--from",
        "2025-02-01",
        "--to",
        "2025-02-02",
        "-o",
        "csv",
        "--query",
        "[].{day: date}",
        "--fields",
        "day",
      ],
      { env: FAST },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe("day");
  });

  it("refuses a column named twice", async () => {
    const result = await env.run(["reports", "users", ...Q1, "-o", "csv", "--fields", "date,recordId,date"], { env: FAST });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--fields names date more than once/);
    expect(reportRequests(env)).toHaveLength(0);
  });

  it("accepts a column the service sends only in some versions when it sends it", async () => {
    const v1 = await env.run(["--api-version", "1", "reports", "teams-result", ...Q1, "-o", "csv", "--fields", "date,rank"], {
      env: FAST,
    });
    expect(v1.exitCode).toBe(2);
    expect(v1.stderr).toMatch(/unknown field for --fields of `teams-result`: rank; the service sent these columns: /);
    const v2 = await env.run(["reports", "teams-result", ...Q1, "-o", "csv", "--fields", "date,rank"], { env: FAST });
    expect(v2.exitCode, v2.stderr).toBe(0);
    expect(v2.stdout.split("\n")[0]).toBe("date,rank");
  });

  it("`reports all --fields` is checked per kind before any file is written", async () => {
    const out = await tempDir();
    try {
      const result = await env.run(["reports", "all", ...Q1, "-o", "csv", "--out-dir", out.path, "--fields", "date,team.name"], {
        env: FAST,
      });
      expect(result.exitCode).toBe(2);
      // The first kind (syms-result) has no team.name: one request, no file.
      expect(result.stderr).toMatch(/for --fields of `syms-result`: team\.name; the service sent these columns: /);
      expect(reportRequests(env)).toHaveLength(1);
      expect(await readdir(out.path)).toEqual([]);
    } finally {
      await out.remove();
    }
  });

  it("`reports all --fields` that fits one kind only stops before writing the kinds it fits", async () => {
    const out = await tempDir();
    try {
      const result = await env.run(
        [
          "reports",
          "all",
          "--from",
          "2025-01-01",
          "--to",
          "2025-01-02",
          "--out-dir",
          out.path,
          "-o",
          "csv",
          "--fields",
          "date,recordId,team.name",
        ],
        { env: FAST },
      );
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/for --fields of `syms-result`: team\.name/);
      expect(await readdir(out.path)).toEqual([]);
    } finally {
      await out.remove();
    }
  });
});

// Usage errors run side by side (each is one start of the binary); the sandbox must see no
// request from any of them.
describe("reports: bad input", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ rateLimits: SANDBOX_LIMITS });
  });
  afterAll(async () => {
    expect(env.sandbox.requests).toEqual([]);
    await env.close();
  });

  it.concurrent.for<[string, string[], RegExp]>([
    ["an unknown kind", ["reports", "nope", ...Q1], /unknown report kind "nope"; known kinds: syms-result, .*, all/],
    [
      "an unreal date",
      ["reports", "users", "--from", "2025-02-29", "--to", "2025-03-31"],
      /--from "2025-02-29": not a real calendar date/,
    ],
    ["a malformed date", ["reports", "users", "--from", "2025/01/01", "--to", "2025-03-31"], /expected YYYY-MM-DD/],
    ["a reversed range", ["reports", "users", "--from", "2025-03-31", "--to", "2025-01-01"], /is after --to 2025-01-01/],
    ["a missing range", ["reports", "users"], /a date range is required/],
    ["--from without --to", ["reports", "users", "--from", "2025-01-01"], /--from needs --to/],
    ["two ranges", ["reports", "users", "--month", "2025-01", "--last", "7d"], /give one date range/],
    ["a future --to", ["reports", "users", "--from", "2025-01-01", "--to", "2999-01-01"], /is in the future/],
    ["a bad --last", ["reports", "users", "--last", "7"], /--last "7"/],
    ["--out with all", ["reports", "all", ...Q1, "--out", "x.json"], /use --out-dir <dir> instead of --out/],
    ["all -o csv without --out-dir", ["reports", "all", ...Q1, "-o", "csv"], /add --out-dir <dir>/],
    ["--raw with csv", ["reports", "users", ...Q1, "--raw", "-o", "csv"], /--raw .* use -o json or -o ndjson/],
    ["-o text", ["reports", "users", ...Q1, "-o", "text"], /`reports` has no single value to print as text \(-o text\)/],
    [
      "--out x.txt",
      ["reports", "users", ...Q1, "--out", "x.txt"],
      /`reports` has no single value to print as text \(--out x\.txt\)/,
    ],
  ])("refuses %s with exit 2 and sends nothing", async ([_name, args, message], { expect }) => {
    const result = await env.run(args, { env: FAST });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });
});

describe("reports all", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ rateLimits: SANDBOX_LIMITS });
  });
  afterAll(async () => {
    await env.close();
  });

  it("writes one csv file per kind, <kind>_<from>_<to>.csv, into --out-dir (created when missing)", async () => {
    const dir = await tempDir();
    try {
      const outDir = join(dir.path, "exports", "2025-q1");
      const result = await env.run(["reports", "all", ...Q1, "-o", "csv", "--out-dir", outDir, "-q"], { env: FAST });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(""); // -q: cron mail stays empty
      const names = (await readdir(outDir)).sort();
      expect(names).toEqual(REPORT_KINDS.map((kind) => `${kind}_2025-01-01_2025-03-31.csv`).sort());
      for (const kind of REPORT_KINDS) {
        expect(await readFile(join(outDir, `${kind}_2025-01-01_2025-03-31.csv`), "utf8")).toBe(
          await csvOf(generateReport(kind, "2025-01-01", "2025-03-31", 2)),
        );
      }
      expect(env.sandbox.requests.filter((r) => r.path.includes("/report/"))).toHaveLength(21);
    } finally {
      await dir.remove();
    }
  });

  it("prints one JSON object keyed by kind on stdout without --out-dir", async () => {
    const result = await env.run(["reports", "all", "--from", "2025-06-01", "--to", "2025-06-02", "-o", "json"], { env: FAST });
    expect(result.exitCode, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([...REPORT_KINDS]);
    for (const kind of REPORT_KINDS) expect(body[kind]).toEqual(generateReport(kind, "2025-06-01", "2025-06-02", 2));
  });
});

// Issue 15 item 3: a kind that fails does not stop the others (docs/cli-contract.md, Report kinds).
describe("reports all with failing kinds", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ rateLimits: SANDBOX_LIMITS });
  });
  afterAll(async () => {
    await env.close();
  });
  // A failed run keeps every kind's windows for the rerun: each test starts without them.
  beforeEach(async () => {
    await rm(join(env.configDir, "report-cache"), { recursive: true, force: true });
  });

  it("writes every kind that succeeds, names each failure on stderr, exits with the most severe code and names the missing kinds", async () => {
    const dir = await tempDir();
    try {
      env.sandbox.faults.failNext("/v2/report/syms", 10, 404);
      env.sandbox.faults.failNext("/v2/report/users", 10, 503);
      const result = await env.run(
        [
          "reports",
          "all",
          "--from",
          "2025-06-01",
          "--to",
          "2025-06-02",
          "-o",
          "csv",
          "--out-dir",
          dir.path,
          "--retries",
          "0",
          "-q",
        ],
        { env: FAST },
      );
      expect(result.exitCode).toBe(8); // the service unavailable (8) outranks a not found (5)
      const names = (await readdir(dir.path)).sort();
      expect(names).toEqual(
        REPORT_KINDS.filter((k) => k !== "syms" && k !== "users")
          .map((kind) => `${kind}_2025-06-01_2025-06-02.csv`)
          .sort(),
      );
      const lines = result.stderr.trim().split("\n");
      expect(lines[0]).toMatch(/^error: report syms: .*404/);
      expect(lines[1]).toMatch(/^error: report users: .*503/);
      expect(lines.at(-1)).toMatch(
        /^error: reports all: 2 of 7 kinds failed \(syms, users\); 5 kinds were written; run the same command again/,
      );
    } finally {
      env.sandbox.faults.clear();
      await dir.remove();
    }
  });

  it("a rerun after one kind failed fetches only that kind's windows, and writes all seven files", async () => {
    const dir = await tempDir();
    try {
      const argv = ["reports", "all", ...Q1, "-o", "csv", "--out-dir", dir.path, "--retries", "0"];
      // users fails at its first window; the six other kinds are fetched and written.
      env.sandbox.faults.failNext("/v2/report/users", 1, 404);
      const first = await env.run(argv, { env: FAST });
      env.sandbox.faults.clear();
      expect(first.exitCode).toBe(5);
      expect(first.stderr).toMatch(/1 of 7 kinds failed \(users\)/);

      const second = await env.run(argv, { env: FAST });
      expect(second.exitCode, second.stderr).toBe(0);
      // Only users' three windows are asked for again (7 kinds × 3 windows = 21).
      const asked = second.sent.filter((r) => r.path.includes("/report/"));
      expect(asked.map((r) => ({ path: r.path, body: r.body }))).toEqual(
        Q1_WINDOWS.map((body) => ({ path: "/v2/report/users", body })),
      );
      expect(second.stderr).toContain("resuming: 18 of 21 windows from cache");
      for (const kind of REPORT_KINDS) {
        expect(await readFile(join(dir.path, `${kind}_2025-01-01_2025-03-31.csv`), "utf8")).toBe(
          await csvOf(generateReport(kind, "2025-01-01", "2025-03-31", 2)),
        );
      }
    } finally {
      env.sandbox.faults.clear();
      await dir.remove();
    }
  });

  it("keeps stdout JSON valid: the object holds the kinds that succeeded", async () => {
    env.sandbox.faults.failNext("/v2/report/teams-result", 10, 404);
    const result = await env.run(
      ["reports", "all", "--from", "2025-06-01", "--to", "2025-06-02", "-o", "json", "--retries", "0"],
      {
        env: FAST,
      },
    );
    env.sandbox.faults.clear();
    expect(result.exitCode).toBe(5);
    const body = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(REPORT_KINDS.filter((k) => k !== "teams-result"));
    expect(result.stderr).toMatch(/1 of 7 kinds failed \(teams-result\); 6 kinds were written/);
  });

  it("stops at once when the key is refused (every kind would fail the same way)", async () => {
    const result = await env.run(["reports", "all", "--from", "2025-06-01", "--to", "2025-06-02", "-o", "json"], {
      env: { ...FAST, SIMADMIN_API_KEY: "sk_wrong" },
    });
    expect(result.exitCode).toBe(3);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("an empty report", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ rateLimits: SANDBOX_LIMITS, reportRecordsPerDay: 0 });
  });
  afterAll(async () => {
    await env.close();
  });

  it("is a CSV with its header when --fields names the columns", async () => {
    const result = await env.run(
      ["reports", "users", "--from", "2025-06-01", "--to", "2025-06-02", "-o", "csv", "--fields", "date,group.name"],
      {
        env: FAST,
      },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("date,group.name\n");
    expect(result.stderr).toMatch(/no records in users for 2025-06-01\.\.2025-06-02/);
  });

  it("without --fields says so on stderr instead of leaving an unexplained empty file", async () => {
    const result = await env.run(["reports", "users", "--from", "2025-06-01", "--to", "2025-06-02", "-o", "csv"], { env: FAST });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /no records in users for 2025-06-01\.\.2025-06-02; the CSV is empty \(--fields <columns> gives it a header\)/,
    );
  });
});

describe("reports: failure, resume and interruption", () => {
  let env: TestEnv;
  /** Armed by a test: fail the `users` windows after the first one has been answered. */
  const failure = usersWindowFailure();
  beforeAll(async () => {
    env = await startTestEnv({ rateLimits: SANDBOX_LIMITS, log: failure.log });
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(() => {
    env.sandbox.requests.length = 0;
    env.sandbox.faults.clear();
  });

  it("fails midway with exit 8 and no output file, then the same command resumes from the cache and succeeds", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "users.csv");
      const args = ["reports", "users", ...Q1, "--out", out, "--retries", "0"];
      failure.arm(env.sandbox);
      const failed = await env.run(args, { env: FAST });
      expect(failed.exitCode, failed.stderr).toBe(8);
      expect(failed.stderr).toMatch(/500/);
      expect(await readdir(dir.path)).toEqual([]); // neither the file nor a temp file
      expect(reportRequests(env).map((r) => r.status)).toEqual([200, 500]);

      const cacheDir = join(env.configDir, "report-cache");
      expect((await stat(cacheDir)).mode & 0o777).toBe(0o700);
      const cached = await readdir(cacheDir);
      expect(cached).toHaveLength(1);
      const cachedText = await readFile(join(cacheDir, cached[0] ?? ""), "utf8");
      expect(cachedText).not.toContain(env.env.SIMADMIN_API_KEY);

      env.sandbox.faults.clear();
      env.sandbox.requests.length = 0;
      const resumed = await env.run(args, { env: FAST });
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain("resuming: 1 of 3 windows from cache");
      // Only the two missing windows were requested.
      expect(reportRequests(env).map((r) => r.body)).toEqual(Q1_WINDOWS.slice(1));
      expect(await readFile(out, "utf8")).toBe(await csvOf(generateReport("users", "2025-01-01", "2025-03-31", 2)));
      // Removed on success.
      expect(existsSync(cacheDir)).toBe(false);
    } finally {
      await dir.remove();
    }
  });

  it("retries a window the service failed (500) and still merges every record exactly once", async () => {
    env.sandbox.faults.failNext("/v2/report/syms-result", 1, 503);
    const result = await env.run(["reports", "syms-result", ...Q1, "-o", "ndjson"], { env: FAST });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual(generateReport("syms-result", "2025-01-01", "2025-03-31", 2));
    expect(reportRequests(env).map((r) => r.status)).toEqual([503, 200, 200, 200]);
  });

  it("answers exit 8 for a window that is not JSON, keeping no copy of it", async () => {
    env.sandbox.faults.respondNext("/v2/report/syms", 1, { status: 200, body: "<html>proxy error</html>" });
    const result = await env.run(["reports", "syms", ...Q1, "-o", "json", "--retries", "0"], { env: FAST });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/report syms 2025-01-01\.\.2025-01-30: the service answered something unexpected \(not JSON/);
    expect(existsSync(join(env.configDir, "report-cache")) ? await readdir(join(env.configDir, "report-cache")) : []).toEqual([]);
  });
});
