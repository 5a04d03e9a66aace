import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock, type Clock } from "../../src/clock.js";
import { generateReport } from "../../src/sandbox/reports.js";
import { FAST, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { startScriptedService } from "../helpers/scripted-service.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// `reports sync --db postgres://…` against a real PostgreSQL server (a database of this file's
// on the run's shared server): the same windows, tables and meta rows as DuckDB, read back with pg.

const DAY = 86_400_000;
const TODAY = Date.UTC(2026, 10, 24, 10);
const clockAt = (ms: number): Clock => ({ ...systemClock, now: () => ms });

let env: TestEnv;
let pg: TestPostgres;

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const { default: postgres } = await import("pg");
  const client = new postgres.Client({ connectionString: pg.url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.runIf(postgresAvailable() || process.env.CI)("reports sync into PostgreSQL", () => {
  beforeAll(async () => {
    [env, pg] = await Promise.all([
      startTestEnv({
        rateLimits: { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } },
        reportRecordsPerDay: 2,
      }),
      startPostgres(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([env?.close(), pg?.stop()]);
  });

  it("fills a table per kind on the first run and re-fetches only the open window the next day", async () => {
    const first = await env.run(["reports", "sync", "--db", pg.url, "--kinds", "syms-result", "-o", "json"], {
      env: FAST,
      clock: clockAt(TODAY),
    });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.sent.filter((r) => r.path.startsWith("/v2/report/"))).toHaveLength(4);
    const second = await env.run(["reports", "sync", "--db", pg.url, "--kinds", "syms-result", "-o", "json"], {
      env: FAST,
      clock: clockAt(TODAY + DAY),
    });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.sent.map((r) => r.body)).toEqual([{ startDate: "2026-11-03", endDate: "2026-11-25" }]);

    const counts = await query(
      "SELECT window_start::text AS s, window_end::text AS e, count(*)::int AS n FROM syms_result GROUP BY 1, 2 ORDER BY 1",
    );
    expect(counts).toEqual(
      [
        ["2026-08-05", "2026-09-03"],
        ["2026-09-04", "2026-10-03"],
        ["2026-10-04", "2026-11-02"],
        ["2026-11-03", "2026-11-25"],
      ].map(([s, e]) => ({ s, e, n: generateReport("syms-result", s!, e!, 2, 2).length })),
    );
    const meta = await query("SELECT kind, window_start::text AS s, complete FROM simadmin_sync_windows ORDER BY 2");
    expect(meta.map((m) => m.complete)).toEqual([true, true, true, false]);
    // The raw record is JSON the database can query.
    const raw = await query("SELECT jsonb_typeof(raw) AS t FROM syms_result LIMIT 1");
    expect(raw).toEqual([{ t: "object" }]);
  });

  it("names the server, never the password, when it cannot connect", async () => {
    const url = pg.url
      .replace("simadmin@", "simadmin:s3cret-pw@")
      .replace(/:(\d+)\//, (_m, port: string) => `:${Number(port) + 1}/`);
    const result = await env.run(["reports", "sync", "--db", url, "--kinds", "users"], { env: FAST, clock: clockAt(TODAY) });
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toContain("cannot connect to PostgreSQL at postgres://simadmin:***@127.0.0.1:");
    expect(result.stderr).not.toContain("s3cret-pw");
    expect(result.sent).toEqual([]);
  });

  it("two syncs at once into one database never double a window: rows equal the meta count, 20 rounds", async () => {
    // Earlier tests moved the clock a day on: their ledger of "later" requests would make these wait.
    for (const name of await readdir(env.configDir)) if (name.startsWith("rate-ledger-")) await rm(join(env.configDir, name));
    // Each run re-fetches the open window: both replace it, one after the other.
    const run = () =>
      env.run(["reports", "sync", "--db", pg.url, "--kinds", "teams-result", "--since", "2026-11-20", "-o", "json"], {
        env: FAST,
        clock: clockAt(TODAY),
      });
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all([run(), run()]);
      for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
      const mismatched = await query(
        "SELECT m.window_start::text AS s, m.records, (SELECT count(*) FROM teams_result t WHERE t.window_start = m.window_start) AS n FROM simadmin_sync_windows m WHERE m.kind = 'teams_result' AND m.records <> (SELECT count(*) FROM teams_result t WHERE t.window_start = m.window_start)",
      );
      expect(mismatched, `round ${round}`).toEqual([]);
    }
  }, 120_000);

  it("a view on a column that must widen does not stop the load: the field moves to a wider column, with a warning", async () => {
    const url = await pg.createDatabase("viewed");
    let answer = '{"rows":[{"score":5},{"score":7}]}';
    const service = await startScriptedService((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(answer);
    });
    const dir = await tempDir("simadmin-view-");
    try {
      const sync = (day: number) =>
        runCli(["reports", "sync", "--db", url, "--kinds", "users", "--since", "2026-11-20", "-o", "json"], {
          env: {
            ...FAST,
            SIMADMIN_BASE_URL: service.baseUrl,
            SIMADMIN_API_KEY: "k-view",
            SIMADMIN_ORG: "o",
            SIMADMIN_CONFIG_DIR: dir.path,
          },
          clock: clockAt(TODAY + day * DAY),
        });
      expect((await sync(0)).exitCode).toBe(0);
      const viewed = async (sql: string) => {
        const { default: postgres } = await import("pg");
        const client = new postgres.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query<Record<string, unknown>>(sql)).rows;
        } finally {
          await client.end();
        }
      };
      await viewed("CREATE VIEW score_view AS SELECT score FROM users");
      answer = '{"rows":[{"score":"n/a"}]}';
      const second = await sync(1);
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/users\.score cannot become TEXT .*view.*new column users\.score_text/);
      expect(await viewed("SELECT score, score_text FROM users ORDER BY window_start, row_number")).toEqual([
        { score: null, score_text: "n/a" },
      ]);
      const [mapping] = await viewed("SELECT column_name FROM simadmin_sync_columns WHERE field = '[\"score\"]'");
      expect(mapping).toEqual({ column_name: "score_text" });
    } finally {
      await service.close();
      await dir.remove();
    }
  });

  it("names the schema and the missing right when the role may not create tables (exit 11, not 8)", async () => {
    // Roles belong to the server, which other files share: a name of this process's.
    const role = `sync_reader_${process.pid}`;
    await query(`CREATE ROLE ${role} LOGIN`);
    const url = pg.url.replace("simadmin@", `${role}@`);
    const result = await env.run(["reports", "sync", "--db", url, "--kinds", "users"], { env: FAST, clock: clockAt(TODAY) });
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toMatch(/permission denied for schema public \(the role lacks the CREATE right\)/);
  });
});
