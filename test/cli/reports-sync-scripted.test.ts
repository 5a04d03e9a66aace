import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../../src/errors.js";
import { tempDir } from "../helpers/in-process.js";
import { DAY, rows, SERVICE, syncWorld, TODAY } from "../helpers/scripted-reports.js";

// reports sync in this process with no sandbox and no network: a client that answers each
// report window from the test's script (test/helpers/scripted-reports.ts) and a DuckDB file in
// a temp dir, read back with SQL. What is checked is what a user sees — the lines on stderr,
// the summary on stdout, the exit code, the windows asked for in order, the tables and the
// meta rows — in runs that take milliseconds, so that mutation testing
// (docs/mutation-testing.md) can run them per mutant. The options and targets refused before
// anything is asked: reports-sync-scripted-options.test.ts; PostgreSQL: -postgres.test.ts.
//
// "Today" is 2026-11-24 10:00 UTC. The fixed 30-day windows are counted from 1970-01-01:
// 2026-08-05..09-03, 09-04..10-03, 10-04..11-02, 11-03..12-02 (the open one, asked up to today).

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir("simadmin-sync-scripted-");
});
afterAll(() => dir.remove());
const world = (options: { env?: Record<string, string>; db?: string } = {}) => syncWorld(dir.path, options);

const META =
  "SELECT kind, CAST(window_start AS VARCHAR) AS s, CAST(window_end AS VARCHAR) AS e, CAST(fetched_at AS VARCHAR) AS f, CAST(records AS INTEGER) AS records, complete FROM simadmin_sync_windows ORDER BY kind, s";

describe("reports sync with a scripted service, into DuckDB", () => {
  it("records whose data it is and the API version of each window; another key is refused (exit 2), --force goes on", async () => {
    const w = world();
    expect((await w.run(["--kinds", "users", "--since", "2026-11-20"])).exitCode).toBe(0);
    expect(
      await w.query(
        "SELECT base_url AS b, organization AS o, length(key_fingerprint) AS k, api_version AS v, tool_version AS t FROM simadmin_sync_windows",
      ),
    ).toEqual([{ b: SERVICE, o: "org-1", k: "32", v: 2, t: VERSION }]);
    const other = await w.run(["--kinds", "users"], undefined, { env: { ...w.env, SIMADMIN_API_KEY: "sk-other" } });
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain(`${w.db} holds reports of another API key (fingerprint `);
    expect(other.asked).toEqual([]);
    const forced = await w.run(["--kinds", "users", "--force"], undefined, { env: { ...w.env, SIMADMIN_API_KEY: "sk-other" } });
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.asked).toEqual(["users 2026-11-03..2026-11-24"]);
  });

  it("a first run: 90 days of windows per kind, in order, each window's records in its table, the summary on stdout", async () => {
    const w = world();
    const r = await w.run(["--kinds", "users,syms", "-o", "json"], (kind, start) =>
      kind === "users" ? rows({ id: `${start}-a`, score: "1" }, { id: `${start}-b`, score: "2" }) : rows({ sym: start }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.asked).toEqual([
      "users 2026-08-05..2026-09-03",
      "users 2026-09-04..2026-10-03",
      "users 2026-10-04..2026-11-02",
      "users 2026-11-03..2026-11-24",
      "syms 2026-08-05..2026-09-03",
      "syms 2026-09-04..2026-10-03",
      "syms 2026-10-04..2026-11-02",
      "syms 2026-11-03..2026-11-24",
    ]);
    expect(JSON.parse(r.stdout)).toEqual([
      { kind: "users", table: "users", windows: 4, records: 8 },
      { kind: "syms", table: "syms", windows: 4, records: 4 },
    ]);
    expect(r.stderr).not.toContain("kept whole in raw only");
    expect(r.stderr).toContain(`reports sync into ${w.db}: 8 report requests, at least`);
    expect(await w.query("SELECT CAST(window_start AS VARCHAR) AS s, id, score FROM users ORDER BY id")).toEqual([
      { s: "2026-08-05", id: "2026-08-05-a", score: "1" },
      { s: "2026-08-05", id: "2026-08-05-b", score: "2" },
      { s: "2026-09-04", id: "2026-09-04-a", score: "1" },
      { s: "2026-09-04", id: "2026-09-04-b", score: "2" },
      { s: "2026-10-04", id: "2026-10-04-a", score: "1" },
      { s: "2026-10-04", id: "2026-10-04-b", score: "2" },
      { s: "2026-11-03", id: "2026-11-03-a", score: "1" },
      { s: "2026-11-03", id: "2026-11-03-b", score: "2" },
    ]);
    // The open window is not complete; the ended ones were fetched long after their end.
    expect(await w.query(META)).toEqual([
      { kind: "syms", s: "2026-08-05", e: "2026-09-03", f: "2026-11-24 10:00:00", records: 1, complete: true },
      { kind: "syms", s: "2026-09-04", e: "2026-10-03", f: "2026-11-24 10:00:00", records: 1, complete: true },
      { kind: "syms", s: "2026-10-04", e: "2026-11-02", f: "2026-11-24 10:00:00", records: 1, complete: true },
      { kind: "syms", s: "2026-11-03", e: "2026-11-24", f: "2026-11-24 10:00:00", records: 1, complete: false },
      { kind: "users", s: "2026-08-05", e: "2026-09-03", f: "2026-11-24 10:00:00", records: 2, complete: true },
      { kind: "users", s: "2026-09-04", e: "2026-10-03", f: "2026-11-24 10:00:00", records: 2, complete: true },
      { kind: "users", s: "2026-10-04", e: "2026-11-02", f: "2026-11-24 10:00:00", records: 2, complete: true },
      { kind: "users", s: "2026-11-03", e: "2026-11-24", f: "2026-11-24 10:00:00", records: 2, complete: false },
    ]);
  });

  it("the next days: the open window again, a window ended less than --open-days ago again, then never; a kind added later starts where the history does", async () => {
    const w = world();
    expect((await w.run(["--kinds", "users", "--since", "2026-10-20"], () => rows({ n: 1 }))).exitCode).toBe(0);
    // 2026-12-03 01:00: the block 11-03..12-02 has ended, asked only to 11-24 before; a new one opens.
    w.clock.advance(Date.UTC(2026, 11, 3, 1) - TODAY);
    const third = await w.run(["--kinds", "users", "-o", "json"], () => rows({ n: 1 }, { n: 2 }));
    expect(third.exitCode, third.stderr).toBe(0);
    expect(third.asked).toEqual(["users 2026-11-03..2026-12-02", "users 2026-12-03..2026-12-03"]);
    expect(JSON.parse(third.stdout)).toEqual([{ kind: "users", table: "users", windows: 2, records: 4 }]);
    // Fetched whole one day after its end: not complete with --open-days 2, so asked once more.
    w.clock.advance(DAY);
    expect((await w.run(["--kinds", "users"])).asked).toEqual(["users 2026-11-03..2026-12-02", "users 2026-12-03..2026-12-04"]);
    w.clock.advance(DAY);
    expect((await w.run(["--kinds", "users"])).asked).toEqual(["users 2026-12-03..2026-12-05"]);
    const meta = await w.query(
      "SELECT CAST(window_start AS VARCHAR) AS s, CAST(window_end AS VARCHAR) AS e, CAST(fetched_at AS VARCHAR) AS f, complete FROM simadmin_sync_windows ORDER BY s",
    );
    expect(meta).toEqual([
      { s: "2026-10-04", e: "2026-11-02", f: "2026-11-24 10:00:00", complete: true },
      { s: "2026-11-03", e: "2026-12-02", f: "2026-12-04 01:00:00", complete: true },
      { s: "2026-12-03", e: "2026-12-05", f: "2026-12-05 01:00:00", complete: false },
    ]);
    // Another kind, first seen now: from the database's first day, not 90 days back.
    const added = await w.run(["--kinds", "syms"]);
    expect(added.asked).toEqual(["syms 2026-10-04..2026-11-02", "syms 2026-11-03..2026-12-02", "syms 2026-12-03..2026-12-05"]);
  });

  it("--open-days 0: a window fetched the day after its end is complete", async () => {
    const w = world();
    w.clock.advance(Date.UTC(2026, 11, 3, 1) - TODAY);
    expect((await w.run(["--kinds", "users", "--since", "2026-11-10", "--open-days", "0"])).exitCode).toBe(0);
    expect(await w.query("SELECT CAST(window_start AS VARCHAR) AS s, complete FROM simadmin_sync_windows ORDER BY s")).toEqual([
      { s: "2026-11-03", complete: true },
      { s: "2026-12-03", complete: false },
    ]);
  });

  it("--dry-run lists the windows with their reasons and the least time, asks nothing and opens the file read-only", async () => {
    const w = world({ env: { SIMADMIN_RATE_LIMITS: "reports=2/60s" } });
    const fresh = await w.run(["--kinds", "users,syms", "--dry-run", "-o", "json"]);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(fresh.asked).toEqual([]);
    expect(existsSync(w.db)).toBe(false);
    expect(JSON.parse(fresh.stdout)).toHaveLength(8);
    // 8 requests at 2 a minute: 2 at once, then 3 more windows of 60 s and the scheduler's 900 ms margin: 182.7 s.
    expect(fresh.stderr).toContain("dry run: 8 report requests, at least 3m 3s at the reports budget (2/60s); nothing was sent");

    expect((await w.run(["--kinds", "users", "--since", "2026-11-05"], () => rows({ n: 1 }))).exitCode).toBe(0);
    w.clock.advance(DAY);
    const later = await w.run(["--kinds", "users", "--dry-run", "-o", "json"]);
    expect(later.exitCode, later.stderr).toBe(0);
    expect(later.asked).toEqual([]);
    expect(JSON.parse(later.stdout)).toEqual([
      { kind: "users", table: "users", startDate: "2026-11-03", endDate: "2026-11-25", reason: "open" },
    ]);
    expect(later.stderr).toContain("dry run: 1 report request, at least 0s at the reports budget (2/60s); nothing was sent");
    expect(await w.query("SELECT CAST(window_end AS VARCHAR) AS e FROM simadmin_sync_windows")).toEqual([{ e: "2026-11-24" }]);
  });

  it("--dry-run needs no API key; a run without one stops before the database is made (exit 3)", async () => {
    // No fake client: the real one is built if asked for, and it needs a key.
    const w = world({ env: { SIMADMIN_API_KEY: "" } });
    const noKey = { env: { ...w.env, SIMADMIN_API_KEY: undefined }, fakes: {} };
    const r = await w.run(["--kinds", "users", "--dry-run"], undefined, noKey);
    expect(r.exitCode, r.stderr).toBe(0);
    const sync = await w.run(["--kinds", "users"], undefined, noKey);
    expect(sync.exitCode, sync.stderr).toBe(3);
    expect(sync.stderr).toContain("API key");
    expect(existsSync(w.db)).toBe(false);
  });

  it("--dry-run of every kind (no --kinds) on a DuckDB file no sync has written yet: the first run's windows", async () => {
    const w = world();
    const { DuckDBInstance } = await import("@duckdb/node-api");
    (await DuckDBInstance.create(w.db)).closeSync();
    const r = await w.run(["--dry-run", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const windows = JSON.parse(r.stdout) as { kind: string; startDate: string; endDate: string; reason: string }[];
    // The seven kinds of docs/service-spec.md §4.1, in its order, each from 90 days back.
    expect([...new Set(windows.map((x) => x.kind))]).toEqual([
      "syms-result",
      "user-results",
      "training-plan-result",
      "modules-results",
      "syms",
      "users",
      "teams-result",
    ]);
    expect(windows.filter((x) => x.kind === "users").map((x) => `${x.startDate}..${x.endDate} ${x.reason}`)).toEqual([
      "2026-08-05..2026-09-03 missing",
      "2026-09-04..2026-10-03 missing",
      "2026-10-04..2026-11-02 missing",
      "2026-11-03..2026-11-24 missing",
    ]);
    expect(windows).toHaveLength(28);
  });

  it("a request that fails: the windows loaded before it are kept with their meta rows, the spool is gone, the service's exit code", async () => {
    const w = world();
    const r = await w.run(["--kinds", "users"], (_kind, start) =>
      start === "2026-10-04" ? new ServiceError("report users: the service answered 503") : rows({ day: start }),
    );
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain("the service answered 503");
    expect(r.stdout).toBe("");
    expect(await w.query(META)).toEqual([
      { kind: "users", s: "2026-08-05", e: "2026-09-03", f: "2026-11-24 10:00:00", records: 1, complete: true },
      { kind: "users", s: "2026-09-04", e: "2026-10-03", f: "2026-11-24 10:00:00", records: 1, complete: true },
    ]);
    expect(await w.query("SELECT day FROM users ORDER BY day")).toEqual([{ day: "2026-08-05" }, { day: "2026-09-04" }]);
    expect(await readdir(join(w.configDir, "report-spool"))).toEqual([]);
  });

  it("the only window fails: its request's error and exit code; an answer that is not a report names the window", async () => {
    const w = world();
    const failed = await w.run(
      ["--kinds", "users", "--since", "2026-11-20"],
      () => new ServiceError("report users: the service answered 503"),
    );
    expect(failed.exitCode).toBe(8);
    expect(failed.stderr).toContain("the service answered 503");
    const garbled = await w.run(["--kinds", "users", "--since", "2026-11-20"], () => '{"rows": [{"id": 1}, nonsense');
    expect(garbled.exitCode).toBe(8);
    expect(garbled.stderr).toContain(
      "error: report users 2026-11-03..2026-11-24: the service answered something unexpected (not JSON: the document ends too early",
    );
  });

  it("interrupted while the third window is asked: exit 130, the first window (loaded) kept, the second (fetched, not loaded) not", async () => {
    const w = world();
    const controller = new AbortController();
    const r = await w.run(["--kinds", "users"], () => rows({ n: 1 }), {
      signal: controller.signal,
      onAsk: (window) => {
        if (window.startsWith("users 2026-10-04")) controller.abort();
      },
    });
    expect(r.exitCode).toBe(130);
    expect(
      (await w.query("SELECT CAST(window_start AS VARCHAR) AS s FROM simadmin_sync_windows ORDER BY s")).map((m) => m.s),
    ).toEqual(["2026-08-05"]);
  });

  it("--dbt-sources writes a sources.yml naming each table synced and its columns, freshness on fetched_at", async () => {
    const w = world();
    const file = join(dir.path, "sources.yml");
    const r = await w.run(["--kinds", "users,syms", "--since", "2026-11-20", "--dbt-sources", file], (kind) =>
      kind === "users" ? rows({ id: "u-1", stats: { avgScore: 2.5 } }) : rows(),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`wrote ${file}`);
    // `syms` had no records: its table is there all the same, with the system columns.
    expect(await readFile(file, "utf8")).toBe(
      [
        "# Written by `simadmin reports sync --dbt-sources`; written anew by every run.",
        "version: 2",
        "",
        "sources:",
        "  - name: simadmin_reports",
        '    schema: "main"',
        "    description: Reports of the Simulation Access and Reporting Service, kept by simadmin reports sync.",
        "    loaded_at_field: fetched_at",
        "    freshness:",
        "      warn_after: { count: 36, period: hour }",
        "      error_after: { count: 72, period: hour }",
        "    tables:",
        '      - name: "users"',
        "        columns:",
        '          - name: "window_start"',
        '          - name: "window_end"',
        '          - name: "fetched_at"',
        '          - name: "row_number"',
        '          - name: "raw"',
        '          - name: "id"',
        '          - name: "stats_avg_score"',
        '      - name: "syms"',
        "        columns:",
        '          - name: "window_start"',
        '          - name: "window_end"',
        '          - name: "fetched_at"',
        '          - name: "row_number"',
        '          - name: "raw"',
        "      - name: simadmin_sync_windows",
        "        description: One row per table and window synced (kind is the table name).",
        "        freshness: null",
        "",
      ].join("\n"),
    );
  });

  it("--dbt-sources into a directory that is not there: exit 11 naming the file, the windows kept", async () => {
    const w = world();
    const file = join(dir.path, "no-such-dir", "sources.yml");
    const r = await w.run(["--kinds", "users", "--since", "2026-11-20", "--dbt-sources", file], () => rows({ n: 1 }));
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain(`cannot write ${file}: `);
    expect(await w.query("SELECT CAST(n AS INTEGER) AS n FROM users")).toEqual([{ n: 1 }]);
  });

  it("a record with more fields than DuckDB takes as columns is kept whole in raw, with a warning naming the window and its first fields; the run goes on", async () => {
    const w = world();
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, i]));
    const r = await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ id: "narrow" }, wide, wide));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "users 2026-11-03..2026-11-24: 2 records kept whole in raw only, too many fields for columns (f0, f1, f2, f3, f4, … 500 fields in all)",
    );
    expect(await w.query("SELECT id, json_extract(raw, '$.f499') AS last FROM users ORDER BY row_number")).toEqual([
      { id: "narrow", last: null },
      { id: null, last: "499" },
      { id: null, last: "499" },
    ]);
    w.clock.advance(DAY);
    const one = await w.run(["--kinds", "users"], () => rows(wide));
    expect(one.stderr).toContain(
      "users 2026-11-03..2026-11-25: 1 record kept whole in raw only, too many fields for columns (f0,",
    );
  });

  it("a column the database will not widen (an index of the user's on it): a warning naming the new column; the run goes on", async () => {
    // docs/reports-sync.md: a field whose values change type widens its column, or continues in a new one.
    const w = world();
    expect((await w.run(["--kinds", "users", "--since", "2026-11-05"], () => rows({ id: "a", score: 7 }))).exitCode).toBe(0);
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const instance = await DuckDBInstance.create(w.db);
    const connection = await instance.connect();
    await connection.run("CREATE INDEX by_score ON users (score)");
    connection.closeSync();
    instance.closeSync();
    w.clock.advance(DAY);
    const r = await w.run(["--kinds", "users"], () => rows({ id: "b", score: "high" }));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: users\.score cannot become VARCHAR \(.*index.*\): it keeps its BIGINT values, and the field continues in the new column users\.score_text, which holds all of them$/m,
    );
  });

  it("records without fields: a row each, with the record in raw", async () => {
    const w = world();
    const r = await w.run(["--kinds", "users", "--since", "2026-11-20", "-o", "json"], () => rows({}, {}));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ kind: "users", table: "users", windows: 1, records: 2 }]);
    expect(await w.query("SELECT CAST(row_number AS INTEGER) AS r, raw FROM users ORDER BY r")).toEqual([
      { r: 1, raw: "{}" },
      { r: 2, raw: "{}" },
    ]);
  });

  it("the API key the service echoes in report data is never stored, in a column or in raw", async () => {
    const w = world({ env: { SIMADMIN_API_KEY: "sk-sync-secret-4f9e2a" } });
    const r = await w.run(["--kinds", "users", "--since", "2026-11-20"], () =>
      rows({ who: "u-1", note: "Bearer sk-sync-secret-4f9e2a" }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await w.query("SELECT who, note, raw FROM users")).toEqual([
      { who: "u-1", note: "Bearer [REDACTED]", raw: '{"who":"u-1","note":"Bearer [REDACTED]"}' },
    ]);
  });

  it("a settings directory whose spool cannot be made: a warning, and the run goes on in the temp directory", async () => {
    const w = world();
    await mkdir(w.configDir, { recursive: true });
    await writeFile(join(w.configDir, "report-spool"), "not a directory");
    const r = await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ n: 1 }));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`cannot use ${w.configDir} for the report spool \\(.+\\): using the temp directory`));
    expect(await w.query("SELECT n FROM users")).toEqual([{ n: "1" }]);
  });

  it("each window's spool and load files go once it is loaded; nothing is left after the run", async () => {
    const w = world();
    const seen: string[][] = [];
    const spool = join(w.configDir, "report-spool", `${hostname()}-${process.pid}`);
    const r = await w.run(
      ["--kinds", "users"],
      (_, start) => (start === "2026-08-05" ? rows({ n: 1 }, { n: { deep: 2 } }) : rows({ n: 1 })),
      {
        onAsk: () => seen.push(existsSync(spool) ? readdirSync(spool).sort() : []),
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    // Asked for window n + 2 while window n loads: by the fourth request, the first window's files are gone.
    expect(seen[3]).not.toContain("users-2026-08-05.load");
    expect(seen[3]).not.toContain("users-2026-08-05.load.raw");
    // Its answer's spool file went once the load file was written: only the third window's is there.
    expect(seen[3]!.filter((name) => name.endsWith(".json"))).toHaveLength(1);
    expect(await readdir(join(w.configDir, "report-spool"))).toEqual([]);
  });

  it("without a terminal, a line at least every 30 s names the window, its number and the time left", async () => {
    const w = world({ env: { SIMADMIN_RATE_LIMITS: "reports=1/60s" } });
    const r = await w.run(["--kinds", "users"], () => rows({ n: 1 }), { onAsk: () => w.clock.advance(60_000) });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stderr.split("\n").filter((line) => line.endsWith(" so far)"));
    // 4 requests at 1 a minute, none finished yet: 3 more windows of 60 s and the 900 ms margin.
    expect(lines[0]).toBe("users 2026-08-05..2026-09-03: window 1 of 4, about 3m 3s left (1m so far)");
    // Which later windows get a line depends on when the heartbeat's real-time tick meets the
    // injected clock's jumps (one per request); that the clock moved on at least once before a
    // later window began is certain. Every line names its window, its place and the time left
    // (which follows the pace of the loads, running beside the fetches).
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const windows = ["2026-08-05..2026-09-03", "2026-09-04..2026-10-03", "2026-10-04..2026-11-02", "2026-11-03..2026-11-24"];
    const places = lines.map((line) => {
      const [, range, place] = /^users (\S+): window (\d) of 4, about \S+( \S+)? left \(\d+m( \d+s)? so far\)$/.exec(line) ?? [];
      expect(windows.indexOf(range!), line).toBe(Number(place) - 1);
      return Number(place);
    });
    // In order; a window may get two lines — the timer's tick can meet the clock's jump for the
    // next request while the window is still prepared, which a loaded machine makes likely.
    expect(places).toEqual([...places].sort());
  });

  it("a line of a run the budget does not slow down names no time left", async () => {
    // 4 requests within the default 10 a minute: nothing to wait for, so no "about … left".
    const w = world();
    const r = await w.run(["--kinds", "users"], () => rows({ n: 1 }), { onAsk: () => w.clock.advance(30_000) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.split("\n").filter((line) => line.endsWith(" so far)"))[0]).toBe(
      "users 2026-08-05..2026-09-03: window 1 of 4 (30s so far)",
    );
  });

  it("on a terminal, the spinner ends with the number of windows synced", async () => {
    const w = world();
    const r = await w.run(["--kinds", "users,syms", "--since", "2026-11-20"], () => rows({ n: 1 }), {
      stderrIsTTY: true,
      columns: 100,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/✔\S* 2 report windows synced/);
  });
});
