import { createServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/in-process.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { rows, syncWorld, TODAY } from "../helpers/scripted-reports.js";

// reports sync into a real PostgreSQL server (a database of this file's: test/helpers/postgres.ts),
// with the scripted client of test/helpers/scripted-reports.ts: COPY of awkward values, the
// types, times read in UTC, and two runs into one database.

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir("simadmin-sync-scripted-");
});
afterAll(() => dir.remove());
const world = (options: { env?: Record<string, string>; db?: string } = {}) => syncWorld(dir.path, options);

describe.runIf(postgresAvailable() || process.env.CI)("reports sync with a scripted service, into PostgreSQL", () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(() => pg?.stop());

  async function sql(url: string, text: string): Promise<Record<string, unknown>[]> {
    const { default: postgres } = await import("pg");
    const client = new postgres.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<Record<string, unknown>>(text)).rows;
    } finally {
      await client.end();
    }
  }
  /** A database of its own on the server. */
  const database = (): Promise<string> => pg.createDatabase("s");

  it("COPY takes tabs, line breaks and backslashes as they are, and a field that appears after the first record; PostgreSQL's types", async () => {
    const url = await database();
    const w = world({ db: url });
    const r = await w.run(["--kinds", "users", "--since", "2026-10-20"], (_kind, start) =>
      start === "2026-10-04"
        ? rows(
            { id: "a\tb", note: "line 1\nline 2\r" },
            { id: "back\\slash", n: 5, x: 1.5, ok: true, d: "2026-11-01", t: "2026-11-01T10:00:00Z" },
          )
        : rows({ id: "u-1", n: 6 }, { id: "u-2", n: 7 }),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("reports sync into postgres://simadmin@127.0.0.1:");
    expect(
      await sql(
        url,
        "SELECT window_start::text AS s, row_number::int AS r, id, note, n::int AS n, x, ok, d::text AS d, t::text AS t, raw::text AS raw FROM users ORDER BY 1, 2",
      ),
    ).toEqual([
      {
        s: "2026-10-04",
        r: 1,
        id: "a\tb",
        note: "line 1\nline 2\r",
        n: null,
        x: null,
        ok: null,
        d: null,
        t: null,
        raw: '{"id": "a\\tb", "note": "line 1\\nline 2\\r"}',
      },
      {
        s: "2026-10-04",
        r: 2,
        id: "back\\slash",
        note: null,
        n: 5,
        x: 1.5,
        ok: true,
        d: "2026-11-01",
        t: "2026-11-01 10:00:00+00",
        raw: '{"d": "2026-11-01", "n": 5, "t": "2026-11-01T10:00:00Z", "x": 1.5, "id": "back\\\\slash", "ok": true}',
      },
      { s: "2026-11-03", r: 1, id: "u-1", note: null, n: 6, x: null, ok: null, d: null, t: null, raw: '{"n": 6, "id": "u-1"}' },
      { s: "2026-11-03", r: 2, id: "u-2", note: null, n: 7, x: null, ok: null, d: null, t: null, raw: '{"n": 7, "id": "u-2"}' },
    ]);
    expect(
      await sql(
        url,
        "SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_name = 'users' ORDER BY ordinal_position",
      ),
    ).toEqual([
      { c: "window_start", t: "date" },
      { c: "window_end", t: "date" },
      { c: "fetched_at", t: "timestamp with time zone" },
      { c: "row_number", t: "bigint" },
      { c: "raw", t: "jsonb" },
      { c: "id", t: "text" },
      { c: "note", t: "text" },
      { c: "n", t: "bigint" },
      { c: "x", t: "double precision" },
      { c: "ok", t: "boolean" },
      { c: "d", t: "date" },
      { c: "t", t: "timestamp with time zone" },
    ]);
  });

  it("a window of several MiB, read in chunks of 1 MiB: lines and characters cut between chunks arrive whole, short lines padded", async () => {
    const url = await database();
    const w = world({ db: url });
    // "€" is 3 bytes: a run of them over the 1, 2 and 3 MiB marks has a character cut at two of them.
    const big = "€".repeat(1_200_000);
    const r = await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ id: "a" }, { id: "b", big }, { id: "c" }));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(
      await sql(url, "SELECT id, length(big) AS n, big = repeat('€', 1200000) AS same FROM users ORDER BY row_number"),
    ).toEqual([
      { id: "a", n: null, same: null },
      { id: "b", n: 1_200_000, same: true },
      { id: "c", n: null, same: null },
    ]);
  });

  it("reads its windows' times in UTC whatever the server's time zone: a window fetched the day after its end is asked again", async () => {
    const url = await database();
    await sql(url, `ALTER DATABASE ${url.slice(url.lastIndexOf("/") + 1)} SET timezone = 'Pacific/Kiritimati'`);
    const w = world({ db: url });
    // 2026-12-03 13:00 UTC is 2026-12-04 03:00 in Kiritimati (UTC+14).
    w.clock.advance(Date.UTC(2026, 11, 3, 13) - TODAY);
    expect((await w.run(["--kinds", "users", "--since", "2026-11-10"])).exitCode).toBe(0);
    w.clock.advance(12 * 3_600_000);
    const next = await w.run(["--kinds", "users"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.asked).toEqual(["users 2026-11-03..2026-12-02", "users 2026-12-03..2026-12-04"]);
  });

  it("a second run into the same database waits for the first, saying who holds it, then exit 2 after --lock-timeout; or goes on once it ends", async () => {
    const url = await database();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const inside = new Promise<void>((resolve) => (asked = resolve));
    // The first run holds its lock while its one window is asked: the answer waits for `held`.
    const first = world({ db: url }).run(["--kinds", "users", "--since", "2026-11-20"], async () => {
      asked();
      await held;
      return rows({ n: 1 });
    });
    await inside;
    const second = world({ db: url });
    const refused = await second.run(["--kinds", "users", "--lock-timeout", "1"]);
    expect(refused.exitCode).toBe(2);
    const holder = String.raw`\(server process \d+ from 127\.0\.0\.1\)`;
    const where = String.raw`postgres://simadmin@127\.0\.0\.1:\d+/s_\d+_\d+`;
    expect(refused.stderr).toMatch(
      new RegExp(`another reports sync into ${where} runs ${holder}: waiting up to 1 s \\(--lock-timeout\\)`),
    );
    expect(refused.stderr).toMatch(
      new RegExp(`another reports sync into ${where} ${holder} still runs after 1 s \\(--lock-timeout\\)`),
    );
    expect(refused.stderr).toContain("let it finish, or raise --lock-timeout");
    // Said once, not at every poll of the lock.
    expect(refused.stderr.match(/waiting up to/g)).toHaveLength(1);
    expect(refused.asked).toEqual([]);

    /** Until a run started after `since` has asked who holds the lock (it says so right after). */
    const untilWaiting = async (since: string): Promise<void> => {
      const asking = `SELECT 1 FROM pg_stat_activity WHERE query LIKE 'SELECT a.pid, a.application_name%' AND backend_start >= '${since}'`;
      while ((await sql(url, asking)).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const now = async (): Promise<string> => String((await sql(url, "SELECT now()::text AS t"))[0]!.t);

    // Ctrl-C while it waits: exit 130, nothing asked.
    const controller = new AbortController();
    let since = await now();
    const stopping = second.run(["--kinds", "users"], undefined, { signal: controller.signal });
    await untilWaiting(since);
    controller.abort();
    const stopped = await stopping;
    expect(stopped.exitCode).toBe(130);
    expect(stopped.asked).toEqual([]);

    // Again with time to wait: once it has said so, the first run ends and this one goes on.
    since = await now();
    const waiting = second.run(["--kinds", "users"], () => rows({ n: 2 }));
    await untilWaiting(since);
    release();
    expect((await first).exitCode).toBe(0);
    const after = await waiting;
    expect(after.exitCode, after.stderr).toBe(0);
    expect(after.stderr).toContain("runs (server process ");
    expect(after.stderr).toContain(": waiting up to 60 s (--lock-timeout)");
    expect(after.asked).toEqual(["users 2026-11-03..2026-11-24"]);
    expect(await sql(url, "SELECT n::int AS n FROM users")).toEqual([{ n: 2 }]);
  });

  it("PGSSLMODE from the run's environment: require against a server without TLS is exit 11 saying so", async () => {
    const w = world({ db: await database(), env: { PGSSLMODE: "require" } });
    const r = await w.run(["--kinds", "users"]);
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain("(sslmode=require)");
    expect(r.asked).toEqual([]);
  });

  it("a server that accepts connections and never answers: exit 11 after --timeout", async () => {
    const held: Socket[] = [];
    const hole = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => hole.listen(0, "127.0.0.1", resolve));
    const { port } = hole.address() as AddressInfo;
    try {
      const w = world({ db: `postgres://u:pw@127.0.0.1:${port}/db` });
      const r = await w.run(["--kinds", "users", "--timeout", "1"]);
      expect(r.exitCode).toBe(11);
      expect(r.stderr).toContain(`cannot connect to PostgreSQL at postgres://u:***@127.0.0.1:${port}/db: no answer within 1 s`);
    } finally {
      for (const socket of held) socket.destroy();
      hole.close();
    }
  });
});
