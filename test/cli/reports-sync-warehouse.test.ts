import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { systemClock, type Clock } from "../../src/clock.js";
import { queryDuckDb } from "../helpers/duckdb.js";
import { FAST, runCli, tempDir } from "../helpers/in-process.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { startScriptedService, type ScriptedService } from "../helpers/scripted-service.js";

// docs/cli-contract.md, Warehouse rules, against both targets: a hostile report server
// (NUL in values and names, empty names, lone surrogates, SQL keywords and names differing
// by case or order, nested `a.b` beside a literal "a.b", 2^53 + 1, 1e400, a 1 MB value,
// a record of 3,000 fields, a field changing type between runs), read back by SQL.

const DAY = 86_400_000;
const TODAY = Date.UTC(2026, 10, 24, 10);
const clockAt = (ms: number): Clock => ({ ...systemClock, now: () => ms });
const WIDE = `{${Array.from({ length: 3000 }, (_, i) => `"f${i}":${i}`).join(",")}}`;
const LONG = "y".repeat(1 << 20);

/** The first night's answer, as raw text: JSON.stringify could not write 2^53 + 1 or 1e400. */
const FIRST =
  `{"rows":[{"id":1,"name\\u0000x":"a\\u0000b","":"empty","select":"kw","X":"upper","x":"lower","a":{"b":"nested"},` +
  `"a.b":"literal","sur":"\\ud800z","big":9007199254740993,"huge":1e400,"when":"2026-11-01","at":"2026-11-01T10:00:00Z",` +
  `"statsAvgScore":2.5,"long":"${LONG}"},${WIDE}]}`;
/** The next night: fields in another order and case first, `id` now text. */
const SECOND = `{"rows":[{"x":"lower2","X":"upper2","id":"u-7","a.b":"literal2","a":{"b":"nested2"}}]}`;

let service: ScriptedService;
let answer = FIRST;
let pg: TestPostgres | undefined;
const hasPostgres = postgresAvailable() || Boolean(process.env.CI);

beforeAll(async () => {
  service = await startScriptedService((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(answer);
  });
  if (hasPostgres) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all([service?.close(), pg?.stop()]);
});

async function pgQuery(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const { default: postgres } = await import("pg");
  const client = new postgres.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql)).rows;
  } finally {
    await client.end();
  }
}

interface Target {
  name: string;
  db: string;
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** A SQL type name as information_schema spells it on this target. */
  text: string;
}

let dbCounter = 0;
async function freshTarget(kind: "duckdb" | "postgres", dir: string): Promise<Target> {
  if (kind === "duckdb") {
    const db = join(dir, `w${++dbCounter}.duckdb`);
    return { name: kind, db, query: (sql) => queryDuckDb(db, sql), text: "VARCHAR" };
  }
  const url = await pg!.createDatabase("w");
  return { name: kind, db: url, query: (sql) => pgQuery(url, sql), text: "text" };
}

const TARGETS: ("duckdb" | "postgres")[] = hasPostgres ? ["duckdb", "postgres"] : ["duckdb"];

describe.each(TARGETS)("reports sync into %s keeps every value", (kind) => {
  let dir: { path: string; remove(): Promise<void> };
  let target: Target;
  beforeAll(async () => {
    dir = await tempDir("simadmin-wh-");
  });
  afterAll(() => dir.remove());
  beforeEach(async () => {
    target = await freshTarget(kind, dir.path);
    answer = FIRST;
    // Runs here move the clock by days: a ledger of "later" requests would make the next wait.
    for (const name of await readdir(dir.path))
      if (name.startsWith("rate-ledger-")) await rm(join(dir.path, name), { force: true });
  });

  const sync = (day: number, extra: string[] = [], env: Record<string, string> = {}) =>
    runCli(["reports", "sync", "--db", target.db, "--kinds", "users", "--since", "2026-11-20", "-o", "json", ...extra], {
      env: {
        ...FAST,
        SIMADMIN_BASE_URL: service.baseUrl,
        SIMADMIN_API_KEY: "k-test-1",
        SIMADMIN_ORG: "org-1",
        SIMADMIN_CONFIG_DIR: dir.path,
        ...env,
      },
      clock: clockAt(TODAY + day * DAY),
    });

  it("stores hostile records in snake_case columns, exactly, and keeps a 3,000-field record whole in raw with a warning", async () => {
    const result = await sync(0);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/users 2026-11-03\.\.2026-11-24: 1 record kept whole in raw only.*3,000 fields/);
    const columns = await target.query(
      "SELECT column_name AS n, data_type AS t FROM information_schema.columns WHERE table_name = 'users' ORDER BY ordinal_position",
    );
    const names = columns.map((c) => String(c.n));
    expect(names.slice(0, 5)).toEqual(["window_start", "window_end", "fetched_at", "row_number", "raw"]);
    expect(names.slice(5)).toEqual([
      "id",
      "name_x",
      "field",
      "select_",
      "x",
      "x_2",
      "a_b",
      "a_b_2",
      "sur",
      "big",
      "huge",
      "when_",
      "at",
      "stats_avg_score",
      "long",
    ]);
    const typeOf = (name: string) => String(columns.find((c) => c.n === name)?.t).toLowerCase();
    expect(typeOf("id")).toBe("bigint");
    expect(typeOf("when_")).toBe("date");
    expect(typeOf("at")).toMatch(/^timestamp/);
    expect(typeOf("big")).toBe(target.text.toLowerCase());
    const [row] = await target.query(
      "SELECT row_number, name_x, field, select_, x, x_2, a_b, a_b_2, sur, big, huge, length(long) AS long_length, CAST(raw AS VARCHAR) AS raw FROM users WHERE row_number = 1",
    );
    expect(row).toMatchObject({
      name_x: "a\ufffdb",
      field: "empty",
      select_: "kw",
      x: "upper",
      x_2: "lower",
      a_b: "nested",
      a_b_2: "literal",
      sur: "\ufffdz",
      big: "9007199254740993",
      huge: "1e400",
    });
    expect(Number(row!.long_length)).toBe(1 << 20);
    const raw = String(row!.raw);
    expect(raw).toMatch(/"big": ?9007199254740993[,}]/);
    // 10^400 whole (PostgreSQL's JSONB writes numbers out in full), never null or Infinity.
    expect(raw).toMatch(new RegExp(`"huge": ?(1e400|1${"0".repeat(400)})[,}]`));
    // NUL and the lone surrogate are written as visible escapes: JSON text any database holds.
    expect(raw).toContain("a\\\\u0000b");
    expect(raw).toContain("\\\\ud800z");
    const [wide] = await target.query("SELECT CAST(raw AS VARCHAR) AS raw, id FROM users WHERE row_number = 2");
    expect(wide!.id).toBeNull();
    expect(Object.keys(JSON.parse(String(wide!.raw)) as object)).toHaveLength(3000);
    const [meta] = await target.query(
      "SELECT kind, records, base_url, organization, key_fingerprint, api_version FROM simadmin_sync_windows",
    );
    expect(meta).toMatchObject({ kind: "users", base_url: service.baseUrl, organization: "org-1", api_version: 2 });
    expect(Number(meta!.records)).toBe(2);
    expect(String(meta!.key_fingerprint)).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(await target.query("SELECT * FROM simadmin_sync_windows"))).not.toContain("k-test-1");
  });

  it("keeps each field's column the next night, whatever the order or case, and widens a column whose type changes", async () => {
    expect((await sync(0)).exitCode).toBe(0);
    answer = SECOND;
    const second = await sync(1);
    expect(second.exitCode, second.stderr).toBe(0);
    const [row] = await target.query("SELECT x, x_2, a_b, a_b_2, CAST(id AS VARCHAR) AS id FROM users");
    expect(row).toEqual({ x: "upper2", x_2: "lower2", a_b: "nested2", a_b_2: "literal2", id: "u-7" });
    const [id] = await target.query(
      "SELECT data_type AS t FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'id'",
    );
    expect(String(id!.t).toLowerCase()).toBe(target.text.toLowerCase());
  });

  it("refuses another organization's sync into the same database (exit 2) unless --force", async () => {
    expect((await sync(0)).exitCode).toBe(0);
    const other = await sync(1, [], { SIMADMIN_ORG: "org-2" });
    expect(other.exitCode, other.stderr).toBe(2);
    expect(other.stderr).toContain("organization org-1");
    const forced = await sync(1, ["--force"], { SIMADMIN_ORG: "org-2" });
    expect(forced.exitCode, forced.stderr).toBe(0);
    const [meta] = await target.query("SELECT organization FROM simadmin_sync_windows");
    expect(meta!.organization).toBe("org-2");
  });

  it("writes a dbt sources.yml naming the tables and their columns, with freshness on fetched_at", async () => {
    const file = join(dir.path, `${kind}-sources.yml`);
    const result = await sync(0, ["--dbt-sources", file]);
    expect(result.exitCode, result.stderr).toBe(0);
    const { readFile } = await import("node:fs/promises");
    const yaml = await readFile(file, "utf8");
    expect(yaml).toContain("loaded_at_field: fetched_at");
    expect(yaml).toMatch(/- name: "users"\n {8}columns:\n {10}- name: "window_start"/);
    expect(yaml).toContain('- name: "stats_avg_score"');
  });
});
