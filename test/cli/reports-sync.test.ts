import { existsSync, readdirSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemClock, type Clock } from "../../src/clock.js";
import { generateReport } from "../../src/sandbox/reports.js";
import { queryDuckDb } from "../helpers/duckdb.js";
import { startScriptedService, type ScriptedService } from "../helpers/scripted-service.js";
import { FAST, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// `reports sync` into a DuckDB file in a temp dir (issue 24; docs/cli-contract.md, Sync),
// against the sandbox with generous budgets. "Today" is the injected clock: 2026-11-24, so
// the fixed 30-day windows (counted from 1970-01-01) of the default 90 days are
// 08-05..09-03, 09-04..10-03, 10-04..11-02 and the open 11-03..(12-02), asked up to today.

const DAY = 86_400_000;
const TODAY = Date.UTC(2026, 10, 24, 10);
const FIRST_RUN = [
  ["2026-08-05", "2026-09-03"],
  ["2026-09-04", "2026-10-03"],
  ["2026-10-04", "2026-11-02"],
  ["2026-11-03", "2026-11-24"],
];

function clockAt(ms: number): Clock {
  return { ...systemClock, now: () => ms };
}

let env: TestEnv;
let dir: { path: string; remove(): Promise<void> };
let db: string;
/** Set by a test: called as the sandbox answers a report request. */
let onReport: ((line: string) => void) | undefined;

beforeAll(async () => {
  env = await startTestEnv({
    rateLimits: { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } },
    reportRecordsPerDay: 3,
    log: (line) => {
      if (line.startsWith("POST /v2/report/")) onReport?.(line);
    },
  });
});
afterAll(() => env.close());
beforeEach(async () => {
  dir = await tempDir("simadmin-sync-");
  db = join(dir.path, "reports.duckdb");
  onReport = undefined;
  // Runs here move the clock by days: a ledger of "later" requests would make the next wait.
  for (const name of await readdir(env.configDir).catch(() => [])) {
    if (name.startsWith("rate-ledger-")) await rm(join(env.configDir, name), { force: true });
  }
});
afterEach(() => dir.remove());

function sync(args: string[], clock: Clock, signal?: AbortSignal) {
  return env.run(["reports", "sync", "--db", db, ...args, "-o", "json"], { env: FAST, clock, ...(signal ? { signal } : {}) });
}

function windowsSent(sent: { path: string; body: unknown }[]): string[][] {
  return sent
    .filter((r) => r.path.startsWith("/v2/report/"))
    .map((r) => {
      const body = r.body as { startDate: string; endDate: string };
      return [r.path.slice("/v2/report/".length), body.startDate, body.endDate];
    });
}

async function countsByWindow(table: string): Promise<Map<string, number>> {
  const rows = await queryDuckDb(
    db,
    `SELECT CAST(window_start AS VARCHAR) AS s, CAST(window_end AS VARCHAR) AS e, count(*) AS n FROM ${table} GROUP BY ALL`,
  );
  return new Map(rows.map((r) => [`${String(r.s)}..${String(r.e)}`, Number(r.n)]));
}

describe("reports sync into DuckDB", () => {
  it("fetches the 90 days' fixed windows on the first run and one open window per kind the next day", async () => {
    const first = await sync(["--kinds", "users,syms"], clockAt(TODAY));
    expect(first.exitCode, first.stderr).toBe(0);
    expect(windowsSent(first.sent)).toEqual([
      ...FIRST_RUN.map(([s, e]) => ["users", s, e]),
      ...FIRST_RUN.map(([s, e]) => ["syms", s, e]),
    ]);
    // Every window holds exactly the service's records for its dates.
    for (const kind of ["users", "syms"]) {
      const counts = await countsByWindow(kind);
      expect(counts).toEqual(
        new Map(FIRST_RUN.map(([s, e]) => [`${s}..${e}`, generateReport(kind as "users", s!, e!, 2, 3).length])),
      );
    }
    const meta = await queryDuckDb(
      db,
      "SELECT kind, CAST(window_start AS VARCHAR) AS s, records, complete, tool_version FROM simadmin_sync_windows ORDER BY kind, s",
    );
    expect(meta).toHaveLength(8);
    expect(meta.filter((m) => m.complete === false).map((m) => [m.kind, m.s])).toEqual([
      ["syms", "2026-11-03"],
      ["users", "2026-11-03"],
    ]);

    const second = await sync(["--kinds", "users,syms"], clockAt(TODAY + DAY));
    expect(second.exitCode, second.stderr).toBe(0);
    expect(windowsSent(second.sent)).toEqual([
      ["users", "2026-11-03", "2026-11-25"],
      ["syms", "2026-11-03", "2026-11-25"],
    ]);
    // The open window was replaced, not added to.
    expect((await countsByWindow("users")).get("2026-11-03..2026-11-25")).toBe(23 * 3);
    expect((await countsByWindow("users")).has("2026-11-03..2026-11-24")).toBe(false);

    // A kind added later starts where the database's history does, not 90 days back.
    const added = await sync(["--kinds", "teams-result"], clockAt(TODAY + 10 * DAY));
    expect(windowsSent(added.sent).map((w) => w[1])).toEqual([
      "2026-08-05",
      "2026-09-04",
      "2026-10-04",
      "2026-11-03",
      "2026-12-03",
    ]);
  });

  it("--dry-run lists the windows and the least time, sends nothing and creates no file", async () => {
    const result = await env.run(["reports", "sync", "--db", db, "--dry-run", "-o", "json"], {
      env: { SIMADMIN_RATE_LIMITS: "reports=10/60s" },
      clock: clockAt(TODAY),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const planned = JSON.parse(result.stdout) as { kind: string; startDate: string; reason: string }[];
    expect(planned).toHaveLength(28);
    expect(planned[3]).toMatchObject({ kind: "syms-result", startDate: "2026-11-03", reason: "missing" });
    // 28 requests at 10 a minute: the first 10 at once, then two more windows of 60 s plus the
    // scheduler's 900 ms margin each (121.8 s) — the words `reports --dry-run` uses too.
    expect(result.stderr).toContain("28 report requests, at least 2m 2s at the reports budget");
    expect(windowsSent(result.sent)).toEqual([]);
    expect(existsSync(db)).toBe(false);
  });

  it("an interrupted run leaves every window whole, and the next run completes it", async () => {
    const controller = new AbortController();
    let answered = 0;
    onReport = () => {
      if (++answered === 3) controller.abort();
    };
    const killed = await sync(["--kinds", "user-results"], clockAt(TODAY), controller.signal);
    expect(killed.exitCode).toBe(130);
    onReport = undefined;
    const meta = await queryDuckDb(db, "SELECT CAST(window_start AS VARCHAR) AS s, records FROM simadmin_sync_windows");
    const counts = await countsByWindow("user_results");
    // Only windows with a meta row have rows, and exactly the records the meta row counts.
    expect(meta.length).toBeGreaterThanOrEqual(1);
    expect(meta.length).toBeLessThan(4);
    expect([...counts.keys()].map((k) => k.slice(0, 10)).sort()).toEqual(meta.map((m) => String(m.s)).sort());
    for (const m of meta) expect([...counts].find(([k]) => k.startsWith(String(m.s)))?.[1]).toBe(Number(m.records));

    const again = await sync(["--kinds", "user-results"], clockAt(TODAY));
    expect(again.exitCode, again.stderr).toBe(0);
    expect(windowsSent(again.sent)).toHaveLength(4 - meta.length + (meta.some((m) => m.s === "2026-11-03") ? 1 : 0));
    expect(await countsByWindow("user_results")).toEqual(
      new Map(FIRST_RUN.map(([s, e]) => [`${s}..${e}`, generateReport("user-results", s!, e!, 2, 3).length])),
    );
  });

  it("spools windows under the settings dir and removes the spool a killed run left there", async () => {
    const root = join(env.configDir, "report-spool");
    // pid_max is at most 2^22: this pid never runs, as after a `kill -9`.
    const left = join(root, `${hostname()}-4194305`);
    await mkdir(left, { recursive: true });
    await writeFile(join(left, "0123.json.tmp"), "[");
    const during: string[] = [];
    onReport = () => during.push(...readdirSync(root));
    const result = await sync(["--kinds", "users"], clockAt(TODAY));
    expect(result.exitCode, result.stderr).toBe(0);
    // While it ran, this run's own spool was there (the dead run's already gone); after, neither.
    expect(new Set(during)).toEqual(new Set([`${hostname()}-${process.pid}`]));
    expect(await readdir(root)).toEqual([]);
  });

  it("without an API key stops with exit 3 before creating the database", async () => {
    const result = await env.run(["reports", "sync", "--db", db], { env: { SIMADMIN_API_KEY: undefined } });
    expect(result.exitCode, result.stderr).toBe(3);
    expect(existsSync(db)).toBe(false);
  });

  it.each([
    ["--from", "2026-01-01"],
    ["--to", "2026-01-31"],
    ["--month", "2026-10"],
    ["--last", "7d"],
    ["--raw"],
    ["--out-dir", "exports"],
  ])("refuses reports' own %s (sync starts at --since) before anything is sent", async (...flag) => {
    const result = await env.run(["reports", "sync", "--db", db, ...flag]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`\`reports sync\` does not take ${flag[0]}`);
    expect(result.stderr).toContain("--since");
    expect(result.sent).toEqual([]);
    expect(existsSync(db)).toBe(false);
  });
});

describe("reports sync into a DuckDB file made by the earlier version", () => {
  it("keeps the column names of a database made by the earlier version, and names new fields in snake case", async () => {
    // The earlier version's layout: dotted columns, no row numbers, windows named by kind.
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const instance = await DuckDBInstance.create(db);
    const connection = await instance.connect();
    await connection.run(
      'CREATE TABLE syms_result (window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at TIMESTAMP NOT NULL, raw JSON, "sym.id" VARCHAR, "date" VARCHAR)',
    );
    await connection.run(
      "CREATE TABLE simadmin_sync_windows (kind VARCHAR NOT NULL, window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at TIMESTAMP NOT NULL, records BIGINT NOT NULL, complete BOOLEAN NOT NULL, tool_version VARCHAR NOT NULL, PRIMARY KEY (kind, window_start))",
    );
    await connection.run(
      "INSERT INTO simadmin_sync_windows VALUES ('syms-result', DATE '2026-08-05', DATE '2026-09-03', TIMESTAMP '2026-09-10 00:00:00', 0, true, '0.1.0')",
    );
    connection.closeSync();
    instance.closeSync();
    const result = await sync(["--kinds", "syms-result", "--since", "2026-11-20"], clockAt(TODAY));
    expect(result.exitCode, result.stderr).toBe(0);
    const columns = (
      await queryDuckDb(db, "SELECT column_name AS n FROM information_schema.columns WHERE table_name = 'syms_result'")
    ).map((c) => c.n);
    expect(columns.slice(0, 6)).toEqual(["window_start", "window_end", "fetched_at", "raw", "sym.id", "date"]);
    expect(columns).toContain("row_number");
    expect(columns.filter((c) => String(c).includes(".") && c !== "sym.id")).toEqual([]);
    const [filled] = await queryDuckDb(db, 'SELECT count("sym.id") AS ids, count(*) AS n FROM syms_result');
    expect(Number(filled!.ids)).toBe(Number(filled!.n));
    expect(Number(filled!.n)).toBeGreaterThan(0);
    // The old window is still there, now named by its table.
    const meta = await queryDuckDb(db, "SELECT DISTINCT kind FROM simadmin_sync_windows");
    expect(meta).toEqual([{ kind: "syms_result" }]);
  });
});

describe("reports sync columns follow the service", () => {
  let service: ScriptedService;
  let answer: unknown;
  beforeAll(async () => {
    service = await startScriptedService((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  afterAll(() => service.close());

  it("never writes the API key the service echoes in report data, in a column or in raw", async () => {
    const key = "sk-sync-secret-4f9e2a";
    answer = { rows: [{ who: "u-1", requestedWith: `Bearer ${key}`, [key]: 1, nested: { list: [key] } }] };
    const result = await runCli(["reports", "sync", "--db", db, "--kinds", "users", "--since", "2026-11-20", "-o", "json"], {
      env: { ...FAST, SIMADMIN_BASE_URL: service.baseUrl, SIMADMIN_API_KEY: key, SIMADMIN_CONFIG_DIR: dir.path },
      clock: clockAt(TODAY),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const columns = await queryDuckDb(db, "SELECT column_name AS n FROM information_schema.columns WHERE table_name = 'users'");
    const rows = await queryDuckDb(db, "SELECT * FROM users");
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify([columns, rows]);
    expect(stored).not.toContain(key);
    expect(rows[0]).toMatchObject({ requested_with: "Bearer [REDACTED]", nested_list: "[REDACTED]", redacted: "1" });
    expect(JSON.parse(String(rows[0]!.raw))).toEqual({
      who: "u-1",
      requestedWith: "Bearer [REDACTED]",
      "[REDACTED]": 1,
      nested: { list: ["[REDACTED]"] },
    });
  });

  it("adds a column for a field that appears later and widens a column whose type changes", async () => {
    const run = (day: number) =>
      runCli(["reports", "sync", "--db", db, "--kinds", "users", "--since", "2026-11-20", "-o", "json"], {
        env: { ...FAST, SIMADMIN_BASE_URL: service.baseUrl, SIMADMIN_API_KEY: "k-test", SIMADMIN_CONFIG_DIR: dir.path },
        clock: clockAt(TODAY + day * DAY),
      });
    answer = { rows: [{ who: { id: 1 }, score: 5, done: true }] };
    expect((await run(0)).exitCode).toBe(0);
    answer = { rows: [{ who: { id: "u-2", team: "red" }, score: 5.5, done: true, raw: "x" }] };
    const second = await run(1);
    expect(second.exitCode, second.stderr).toBe(0);
    const columns = await queryDuckDb(
      db,
      "SELECT column_name AS n, data_type AS t FROM information_schema.columns WHERE table_name = 'users' ORDER BY ordinal_position",
    );
    expect(columns.map((c) => [c.n, c.t])).toEqual([
      ["window_start", "DATE"],
      ["window_end", "DATE"],
      ["fetched_at", "TIMESTAMP"],
      ["row_number", "BIGINT"],
      ["raw", "JSON"],
      ["who_id", "VARCHAR"],
      ["score", "DOUBLE"],
      ["done", "BOOLEAN"],
      ["who_team", "VARCHAR"],
      ["record_raw", "VARCHAR"],
    ]);
    const rows = await queryDuckDb(db, "SELECT who_id AS id, score, who_team AS team, raw FROM users");
    expect(rows).toEqual([{ id: "u-2", score: 5.5, team: "red", raw: JSON.stringify((answer as { rows: unknown[] }).rows[0]) }]);
  });
});
