import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SqlConnection } from "../../src/commands/reports-sync/connection.js";
import { openDuckDb } from "../../src/commands/reports-sync/duckdb.js";
import { WindowLoadWriter } from "../../src/commands/reports-sync/load-file.js";
import { SyncStore, type Tenant } from "../../src/commands/reports-sync/store.js";
import { UsageError } from "../../src/errors.js";

// The tables of `reports sync` (docs/reports-sync.md; docs/cli-contract.md, Sync and Warehouse
// rules) written through the store as a library into a DuckDB file: the meta and column
// tables, whose data a database holds, windows replaced whole, a field's column kept, widened
// or moved. Every expected row is written out by hand.

const TENANT: Tenant = {
  baseUrl: "https://sim.example.com",
  organization: "org-1",
  keyFingerprint: "abcdef0123456789",
  apiVersion: 2,
};

let dir: string;
let n = 0;
let db: SqlConnection | undefined;
let warnings: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-store-"));
});
afterEach(async () => {
  await db?.close();
  db = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open(file = join(dir, `w${++n}.duckdb`)): Promise<SyncStore> {
  db = await openDuckDb(file, {
    readOnly: false,
    lock: { timeoutMs: 1000, onWait: () => undefined, signal: new AbortController().signal },
  });
  warnings = [];
  return new SyncStore(db, (text) => warnings.push(text));
}

/** The window's records written to a load file with the store's fields, then the window replaced. */
async function write(
  store: SyncStore,
  table: string,
  start: string,
  records: unknown[],
  extra: { end?: string; complete?: boolean; fetchedAt?: string; tenant?: Tenant; commit?: boolean } = {},
): Promise<number> {
  const end = extra.end ?? "2026-01-30";
  const fetchedAt = extra.fetchedAt ?? "2026-02-03T10:00:00.000Z";
  const state = await store.table(table);
  const writer = new WindowLoadWriter(
    join(dir, `load-${++n}.ndjson`),
    store.db.format,
    state.registry,
    { maxFieldsPerRecord: 100, maxFields: 100 },
    { mayHold: () => false, redact: (v) => v },
    { start, end, fetchedAt },
  );
  for (const record of records) writer.add(JSON.stringify(record));
  const count = await store.replaceWindow(
    {
      table,
      startDate: start,
      endDate: end,
      fetchedAt: new Date(fetchedAt),
      complete: extra.complete ?? true,
      toolVersion: "9.9.9",
    },
    writer.finish(),
    extra.tenant ?? TENANT,
  );
  // In DuckDB windows may share a transaction; the command commits before it waits.
  if (extra.commit !== false) await store.commitPending();
  return count;
}

const rows = (sql: string) => db!.all(sql);

describe("the meta tables", () => {
  it("are made once, and the earlier version's kind names become table names", async () => {
    const store = await open();
    // A database of the earlier version: no tenant columns, windows named by kind.
    await db!.run(
      "CREATE TABLE simadmin_sync_windows (kind VARCHAR NOT NULL, window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at TIMESTAMP NOT NULL, records BIGINT NOT NULL, complete BOOLEAN NOT NULL, tool_version VARCHAR NOT NULL, PRIMARY KEY (kind, window_start))",
    );
    await db!.run(
      "INSERT INTO simadmin_sync_windows VALUES ('user-results', DATE '2026-01-01', DATE '2026-01-30', TIMESTAMP '2026-02-01 00:00:00', 3, true, '1.0.0'), ('logins', DATE '2026-01-01', DATE '2026-01-30', TIMESTAMP '2026-02-01 00:00:00', 1, true, '1.0.0')",
    );
    await store.ensureMeta();
    await store.ensureMeta();
    expect(
      await rows("SELECT kind, base_url, organization, key_fingerprint, api_version FROM simadmin_sync_windows ORDER BY kind"),
    ).toEqual([
      { kind: "logins", base_url: null, organization: null, key_fingerprint: null, api_version: null },
      { kind: "user_results", base_url: null, organization: null, key_fingerprint: null, api_version: null },
    ]);
    expect(await rows("SELECT table_name, field, column_name FROM simadmin_sync_columns")).toEqual([]);
    // Windows of the earlier version belong to no tenant: any sync may go on.
    await store.checkTenant(TENANT, false);
  });

  it("earliestStart: nothing before the meta table exists or holds a window; then the first day of any table", async () => {
    const store = await open();
    expect(await store.earliestStart()).toBeUndefined();
    await store.ensureMeta();
    expect(await store.earliestStart()).toBeUndefined();
    await write(store, "logins", "2026-03-01", [{ a: 1 }], { end: "2026-03-30" });
    await write(store, "user_results", "2026-01-31", [{ a: 1 }], { end: "2026-03-01" });
    expect(await store.earliestStart()).toBe("2026-01-31");
  });
});

describe("whose data the database holds", () => {
  const refused = async (tenant: Tenant): Promise<UsageError> => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ a: 1 }]);
    const error = await store.checkTenant(tenant, false).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    // --force lets the sync replace the other tenant's windows.
    await store.checkTenant(tenant, true);
    return error as UsageError;
  };

  it("the same tenant goes on", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ a: 1 }]);
    await store.checkTenant({ ...TENANT, apiVersion: 3 }, false);
  });

  it("another service is refused, naming it", async () => {
    const e = await refused({ ...TENANT, baseUrl: "https://other.example.com" });
    expect(e.message).toBe(
      `${db!.label} holds reports of the service https://sim.example.com; this sync is for https://other.example.com, organization org-1`,
    );
    expect(e.hint).toBe(
      "sync into another database, or add --force to replace its windows with this tenant's (e.g. after the API key was rotated)",
    );
  });

  it("another organization is refused, naming it", async () => {
    const e = await refused({ ...TENANT, organization: "org-2" });
    expect(e.message).toBe(
      `${db!.label} holds reports of organization org-1; this sync is for https://sim.example.com, organization org-2`,
    );
  });

  // DuckDB gets a window's meta statements in one call, their values written as literals
  // (duckdb.ts runAll); a value that cannot be one (a NUL) goes as a parameter.
  it.each([
    ["quotes, a $1 and a semicolon", "O'Brien & Co; $1 $2 '' --"],
    ["a NUL", "org\u0000two"],
  ])("a tenant whose organization holds %s is stored as it is", async (_, organization) => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ a: 1 }], { tenant: { ...TENANT, organization } });
    expect(await rows("SELECT organization AS o, records AS r FROM simadmin_sync_windows")).toEqual([
      { o: organization, r: "1" },
    ]);
    await store.checkTenant({ ...TENANT, organization }, false);
  });

  it("another API key is refused, naming 12 characters of its fingerprint", async () => {
    const e = await refused({ ...TENANT, keyFingerprint: "ffff" });
    expect(e.message).toBe(
      `${db!.label} holds reports of another API key (fingerprint abcdef012345…); this sync is for https://sim.example.com, organization org-1`,
    );
  });
});

describe("a window replaced", () => {
  it("reads a table's columns from the database once per run, however many windows it writes", async () => {
    const store = await open();
    await store.ensureMeta();
    let reads = 0;
    const all = db!.all.bind(db);
    db!.all = (sql, params) => {
      if (sql.includes("information_schema.columns")) reads++;
      return all(sql, params);
    };
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    await write(store, "logins", "2026-01-31", [{ who: "b" }], { end: "2026-03-01" });
    await write(store, "logins", "2026-03-02", [{ who: "c", device: "d" }], { end: "2026-03-31" });
    expect(reads).toBe(1);
  });

  it("holds its records with their fields in columns, a meta row, and the columns' mapping", async () => {
    const store = await open();
    await store.ensureMeta();
    const count = await write(
      store,
      "user_results",
      "2026-01-01",
      [
        { userName: "Ann", score: 7, passed: true, row_number: 41, note: null },
        { userName: "Bob", score: 9, passed: false, team: { name: "Sales" }, row_number: 42, note: null },
      ],
      { complete: false },
    );
    expect(count).toBe(2);
    expect(
      await rows(
        "SELECT CAST(window_start AS VARCHAR) AS s, CAST(window_end AS VARCHAR) AS e, CAST(fetched_at AS VARCHAR) AS f, row_number, user_name, score, passed, team_name, record_row_number, note FROM user_results ORDER BY row_number",
      ),
    ).toEqual([
      {
        s: "2026-01-01",
        e: "2026-01-30",
        f: "2026-02-03 10:00:00",
        row_number: "1",
        user_name: "Ann",
        score: "7",
        passed: true,
        team_name: null,
        record_row_number: "41",
        note: null,
      },
      {
        s: "2026-01-01",
        e: "2026-01-30",
        f: "2026-02-03 10:00:00",
        row_number: "2",
        user_name: "Bob",
        score: "9",
        passed: false,
        team_name: "Sales",
        record_row_number: "42",
        note: null,
      },
    ]);
    expect(
      await rows(
        "SELECT kind, CAST(window_start AS VARCHAR) AS s, CAST(window_end AS VARCHAR) AS e, records, complete, tool_version, base_url, organization, key_fingerprint, api_version FROM simadmin_sync_windows",
      ),
    ).toEqual([
      {
        kind: "user_results",
        s: "2026-01-01",
        e: "2026-01-30",
        records: "2",
        complete: false,
        tool_version: "9.9.9",
        base_url: "https://sim.example.com",
        organization: "org-1",
        key_fingerprint: "abcdef0123456789",
        api_version: 2,
      },
    ]);
    expect(await rows("SELECT table_name, field, column_name FROM simadmin_sync_columns ORDER BY column_name")).toEqual([
      { table_name: "user_results", field: '["note"]', column_name: "note" },
      { table_name: "user_results", field: '["passed"]', column_name: "passed" },
      { table_name: "user_results", field: '["row_number"]', column_name: "record_row_number" },
      { table_name: "user_results", field: '["score"]', column_name: "score" },
      { table_name: "user_results", field: '["team","name"]', column_name: "team_name" },
      { table_name: "user_results", field: '["userName"]', column_name: "user_name" },
    ]);
    expect(await store.syncedWindows("user_results")).toEqual(
      new Map([
        [
          "2026-01-01",
          { start: "2026-01-01", end: "2026-01-30", fetchedDay: Date.UTC(2026, 1, 3) / 86_400_000, complete: false },
        ],
      ]),
    );
    expect(await store.syncedWindows("logins")).toEqual(new Map());
    // A field whose values are all null is text.
    expect(
      await rows("SELECT data_type FROM information_schema.columns WHERE table_name = 'user_results' AND column_name = 'note'"),
    ).toEqual([{ data_type: "VARCHAR" }]);
    expect(warnings).toEqual([]);
  });

  it("again: its old rows and meta row go, other windows stay, a field keeps its column, a new field gets one", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }, { who: "b" }, { who: "c" }], { complete: false });
    await write(store, "logins", "2026-01-31", [{ who: "x" }], { end: "2026-03-01" });
    expect(await write(store, "logins", "2026-01-01", [{ who: "d", device: "phone" }], { complete: true })).toBe(1);
    expect(await rows("SELECT CAST(window_start AS VARCHAR) AS s, who, device FROM logins ORDER BY s, row_number")).toEqual([
      { s: "2026-01-01", who: "d", device: "phone" },
      { s: "2026-01-31", who: "x", device: null },
    ]);
    expect(
      await rows("SELECT CAST(window_start AS VARCHAR) AS s, records, complete FROM simadmin_sync_windows ORDER BY s"),
    ).toEqual([
      { s: "2026-01-01", records: "1", complete: true },
      { s: "2026-01-31", records: "1", complete: true },
    ]);
    expect([...(await store.syncedWindows("logins")).values()].map((w) => `${w.start}..${w.end} ${w.complete}`).sort()).toEqual([
      "2026-01-01..2026-01-30 true",
      "2026-01-31..2026-03-01 true",
    ]);
    expect(await rows("SELECT field, column_name FROM simadmin_sync_columns ORDER BY column_name")).toEqual([
      { field: '["device"]', column_name: "device" },
      { field: '["who"]', column_name: "who" },
    ]);
    // A store opened later (the next run) reads the same mapping back; a field named like a
    // system column gets a column of its own.
    const next = new SyncStore(db!, (text) => warnings.push(text));
    await write(next, "logins", "2026-03-02", [{ who: "y", device: "desk", row_number: 9 }], { end: "2026-03-31" });
    expect(await rows("SELECT field, column_name FROM simadmin_sync_columns ORDER BY column_name")).toEqual([
      { field: '["device"]', column_name: "device" },
      { field: '["row_number"]', column_name: "record_row_number" },
      { field: '["who"]', column_name: "who" },
    ]);
    expect(await rows("SELECT who, row_number, record_row_number FROM logins WHERE window_start = DATE '2026-03-02'")).toEqual([
      { who: "y", row_number: "1", record_row_number: "9" },
    ]);
    expect(
      (
        await rows("SELECT column_name FROM information_schema.columns WHERE table_name = 'logins' ORDER BY ordinal_position")
      ).map((r) => r.column_name),
    ).toEqual(["window_start", "window_end", "fetched_at", "row_number", "raw", "who", "device", "record_row_number"]);
  });

  it("a field named like a system column gets a column of its own in the run that made the table too", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    await write(store, "logins", "2026-01-31", [{ who: "b", row_number: 9 }], { end: "2026-03-01" });
    expect(await rows("SELECT who, row_number, record_row_number FROM logins ORDER BY window_start")).toEqual([
      { who: "a", row_number: "1", record_row_number: null },
      { who: "b", row_number: "1", record_row_number: "9" },
    ]);
  });

  it("a column whose values no longer fit is widened in place (whole numbers, then fractions)", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "scores", "2026-01-01", [{ score: 7 }]);
    await write(store, "scores", "2026-01-31", [{ score: 7.5 }], { end: "2026-03-01" });
    expect(await rows("SELECT CAST(score AS VARCHAR) AS v FROM scores ORDER BY window_start")).toEqual([
      { v: "7.0" },
      { v: "7.5" },
    ]);
    expect(
      await rows("SELECT data_type FROM information_schema.columns WHERE table_name = 'scores' AND column_name = 'score'"),
    ).toEqual([{ data_type: "DOUBLE" }]);
    expect(warnings).toEqual([]);
  });

  it("a column the database will not widen (an index depends on it): the field moves to a new column holding the old values too, and a warning says so", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "scores", "2026-01-01", [{ score: 7 }]);
    await db!.run("CREATE INDEX score_index ON scores (score)");
    await write(store, "scores", "2026-01-31", [{ score: "high" }], { end: "2026-03-01" });
    expect(
      await rows("SELECT CAST(window_start AS VARCHAR) AS s, CAST(score AS VARCHAR) AS old, score_text FROM scores ORDER BY s"),
    ).toEqual([
      { s: "2026-01-01", old: "7", score_text: "7" },
      { s: "2026-01-31", old: null, score_text: "high" },
    ]);
    expect(await rows("SELECT field, column_name FROM simadmin_sync_columns")).toEqual([
      { field: '["score"]', column_name: "score_text" },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings).toEqual([
      "scores.score cannot become VARCHAR (Catalog Error: Cannot change the type of this column: an index depends on it!): it keeps its BIGINT values, and the field continues in the new column scores.score_text, which holds all of them",
    ]);
    // The next window writes into the new column without another warning.
    await write(store, "scores", "2026-03-02", [{ score: "low" }], { end: "2026-03-31" });
    expect(await rows("SELECT score_text FROM scores WHERE window_start = DATE '2026-03-02'")).toEqual([{ score_text: "low" }]);
    expect(warnings).toHaveLength(1);
  });

  it("a table of the earlier version: row numbers added, a dotted column it made keeps its field, a system name is not taken", async () => {
    const store = await open();
    await store.ensureMeta();
    await db!.run(
      'CREATE TABLE user_results (window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at TIMESTAMP NOT NULL, raw JSON, "team.name" VARCHAR)',
    );
    await db!.run(
      `INSERT INTO user_results VALUES (DATE '2025-12-01', DATE '2025-12-30', TIMESTAMP '2026-01-01 00:00:00', '{}', 'Old')`,
    );
    // The dotted column is the nested field's; a field whose own name has the dot (the
    // earlier version wrote both into one column) and one named like a system column get
    // columns of their own.
    await write(store, "user_results", "2026-01-01", [
      { team: { name: "Sales" }, raw: "r", row_number: 5 },
      { "team.name": "literal" },
    ]);
    expect(
      await rows(
        'SELECT CAST(window_start AS VARCHAR) AS s, row_number, "team.name" AS team, record_raw AS r, record_row_number AS n, team_name AS literal FROM user_results ORDER BY s, row_number',
      ),
    ).toEqual([
      { s: "2025-12-01", row_number: null, team: "Old", r: null, n: null, literal: null },
      { s: "2026-01-01", row_number: "1", team: "Sales", r: "r", n: "5", literal: null },
      { s: "2026-01-01", row_number: "2", team: null, r: null, n: null, literal: "literal" },
    ]);
    expect(await rows("SELECT field, column_name FROM simadmin_sync_columns ORDER BY field")).toEqual([
      { field: '["raw"]', column_name: "record_raw" },
      { field: '["row_number"]', column_name: "record_row_number" },
      { field: '["team","name"]', column_name: "team.name" },
      { field: '["team.name"]', column_name: "team_name" },
    ]);
  });

  it("a window that fails to load leaves the table as it was, and the next window reads the columns afresh", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    const state = await store.table("logins");
    const writer = new WindowLoadWriter(
      join(dir, `load-${++n}.ndjson`),
      "ndjson",
      state.registry,
      { maxFieldsPerRecord: 100, maxFields: 100 },
      { mayHold: () => false, redact: (v) => v },
      { start: "2026-01-01", end: "2026-01-30", fetchedAt: "2026-02-04T00:00:00.000Z" },
    );
    writer.add(JSON.stringify({ who: "b", extra: 1 }));
    const load = { ...writer.finish(), file: join(dir, "gone.ndjson") };
    const write2 = {
      table: "logins",
      startDate: "2026-01-01",
      endDate: "2026-01-30",
      fetchedAt: new Date(0),
      complete: true,
      toolVersion: "x",
    };
    await expect(store.replaceWindow(write2, load, TENANT)).rejects.toThrow(/gone\.ndjson/);
    expect(await rows("SELECT who FROM logins")).toEqual([{ who: "a" }]);
    expect(await rows("SELECT records, tool_version FROM simadmin_sync_windows")).toEqual([
      { records: "1", tool_version: "9.9.9" },
    ]);
    // DuckDB commits a new column before the window's transaction: the store reads it back.
    await write(store, "logins", "2026-01-01", [{ who: "c", extra: 2 }]);
    expect(await rows("SELECT who, extra FROM logins")).toEqual([{ who: "c", extra: "2" }]);
  });
});

describe("a statement that fails", () => {
  /** Makes the next statement matching `pattern` fail, once. */
  const failOnce = (pattern: RegExp) => {
    const run = db!.run.bind(db);
    db!.run = async (sql, params) => {
      if (!pattern.test(sql)) return run(sql, params);
      db!.run = run;
      throw new Error("disk gone");
    };
  };

  it("while the meta tables are made: the error, nothing made, and they are made the next time", async () => {
    const store = await open();
    failOnce(/^CREATE TABLE IF NOT EXISTS simadmin_sync_columns/);
    await expect(store.ensureMeta()).rejects.toThrow("disk gone");
    expect(await rows("SELECT table_name FROM information_schema.tables")).toEqual([]);
    await store.ensureMeta();
    expect(await rows("SELECT table_name FROM information_schema.tables ORDER BY table_name")).toEqual([
      { table_name: "simadmin_sync_columns" },
      { table_name: "simadmin_sync_windows" },
    ]);
  });

  it("adding a column: the error, no mapping row for it, and the next window adds it", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    failOnce(/^ALTER TABLE "?logins"? ADD COLUMN/);
    await expect(write(store, "logins", "2026-01-31", [{ who: "b", device: "d" }], { end: "2026-03-01" })).rejects.toThrow(
      "disk gone",
    );
    expect(await rows("SELECT field FROM simadmin_sync_columns")).toEqual([{ field: '["who"]' }]);
    await write(store, "logins", "2026-01-31", [{ who: "b", device: "d" }], { end: "2026-03-01" });
    expect(await rows("SELECT who, device FROM logins ORDER BY window_start")).toEqual([
      { who: "a", device: null },
      { who: "b", device: "d" },
    ]);
  });

  it("the commit of the pending windows: the error, none of them kept, and the next window starts afresh", async () => {
    const store = await open();
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    await write(store, "logins", "2026-01-31", [{ who: "b" }], { end: "2026-03-01", commit: false });
    failOnce(/^COMMIT/);
    await expect(store.commitPending()).rejects.toThrow("disk gone");
    await write(store, "logins", "2026-03-02", [{ who: "c" }], { end: "2026-03-31" });
    expect(await rows("SELECT who FROM logins ORDER BY window_start")).toEqual([{ who: "a" }, { who: "c" }]);
  });
});

describe("windows back to back in one DuckDB transaction", () => {
  const windowsIn = async (file: string) => {
    await db?.close();
    await open(file);
    return (
      await rows("SELECT kind, CAST(window_start AS VARCHAR) AS s, records FROM simadmin_sync_windows ORDER BY kind, s")
    ).map((r) => `${String(r.kind)} ${String(r.s)} ${String(r.records)}`);
  };

  it("a run stopped before the commit leaves none of the pending windows, and nothing its meta rows claim", async () => {
    const file = join(dir, `w${++n}.duckdb`);
    const store = await open(file);
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    await write(store, "logins", "2026-01-31", [{ who: "b" }], { end: "2026-03-01", commit: false });
    await write(store, "logins", "2026-03-02", [{ who: "c" }, { who: "d" }], { end: "2026-03-31", commit: false });
    // Closed without commitPending, as a killed run.
    expect(await windowsIn(file)).toEqual(["logins 2026-01-01 1"]);
    expect(await rows("SELECT who FROM logins")).toEqual([{ who: "a" }]);
  });

  it("commitPending puts them all in; called again with nothing pending, it does nothing", async () => {
    const file = join(dir, `w${++n}.duckdb`);
    const store = await open(file);
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }], { commit: false });
    await write(store, "logins", "2026-01-31", [{ who: "b" }], { end: "2026-03-01", commit: false });
    await store.commitPending();
    await store.commitPending();
    expect(await windowsIn(file)).toEqual(["logins 2026-01-01 1", "logins 2026-01-31 1"]);
  });

  it("a window that adds a column or a table commits the pending ones first", async () => {
    const file = join(dir, `w${++n}.duckdb`);
    const store = await open(file);
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    await write(store, "logins", "2026-01-31", [{ who: "b" }], { end: "2026-03-01", commit: false });
    // A new field: its column is added outside the window's transaction, after a commit.
    await write(store, "logins", "2026-03-02", [{ who: "c", device: "d" }], { end: "2026-03-31", commit: false });
    await write(store, "logins", "2026-04-01", [{ who: "e", device: "f" }], { end: "2026-04-30", commit: false });
    // A new table likewise.
    await write(store, "user_results", "2026-04-01", [{ score: 1 }], { end: "2026-04-30", commit: false });
    expect(await windowsIn(file)).toEqual([
      "logins 2026-01-01 1",
      "logins 2026-01-31 1",
      "logins 2026-03-02 1",
      "logins 2026-04-01 1",
    ]);
  });

  it.each([
    ["a new column (of nulls only)", "logins", [{ who: "c", n: 3, device: null }]],
    ["a wider type", "logins", [{ who: "c", n: 3.5 }]],
    ["a new table of records without fields", "empty_records", [{}]],
    ["a table of the earlier version (no row numbers yet)", "earlier", [{}]],
  ])("%s: the pending windows are committed before it", async (_name, table, records) => {
    const file = join(dir, `w${++n}.duckdb`);
    const store = await open(file);
    await store.ensureMeta();
    await db!.run(
      "CREATE TABLE earlier (window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at TIMESTAMP NOT NULL, raw JSON)",
    );
    await write(store, "logins", "2026-01-01", [{ who: "a", n: 1 }]);
    await write(store, "logins", "2026-01-31", [{ who: "b", n: 2 }], { end: "2026-03-01", commit: false });
    await write(store, table, "2026-03-02", records, { end: "2026-03-31", commit: false });
    // Closed without commitPending, as a killed run: the window that changed the table is lost, the one before is in.
    expect(await windowsIn(file)).toEqual(["logins 2026-01-01 1", "logins 2026-01-31 1"]);
  });

  it("a window that fails takes the pending ones with it, and the next window starts a transaction of its own", async () => {
    const file = join(dir, `w${++n}.duckdb`);
    const store = await open(file);
    await store.ensureMeta();
    await write(store, "logins", "2026-01-01", [{ who: "a" }]);
    await write(store, "logins", "2026-01-31", [{ who: "b" }], { end: "2026-03-01", commit: false });
    const load = db!.load.bind(db);
    db!.load = async () => {
      throw new Error("disk gone");
    };
    await expect(write(store, "logins", "2026-03-02", [{ who: "c" }], { end: "2026-03-31", commit: false })).rejects.toThrow(
      "disk gone",
    );
    db!.load = load;
    await write(store, "logins", "2026-04-01", [{ who: "e" }], { end: "2026-04-30", commit: false });
    await store.commitPending();
    expect(await windowsIn(file)).toEqual(["logins 2026-01-01 1", "logins 2026-04-01 1"]);
  });
});
