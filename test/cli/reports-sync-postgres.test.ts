import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock, type Clock } from "../../src/clock.js";
import { generateReport } from "../../src/sandbox/reports.js";
import { FAST, startTestEnv, type TestEnv } from "../helpers/in-process.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// `reports sync --db postgres://…` against a real, private PostgreSQL server (issue 24):
// the same windows, tables and meta rows as DuckDB, read back with pg.

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
});
