import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SqlConnection } from "../../src/commands/reports-sync/connection.js";
import { WindowLoadWriter } from "../../src/commands/reports-sync/load-file.js";
import { openPostgres } from "../../src/commands/reports-sync/postgres.js";
import { SyncStore, type Tenant } from "../../src/commands/reports-sync/store.js";
import { LocalFileError } from "../../src/errors.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// The reports sync store as a library in PostgreSQL (docs/reports-sync.md), where a window's
// column changes are part of its transaction: what differs from DuckDB
// (test/unit/reports-sync-store.test.ts has the rest).

const TENANT: Tenant = { baseUrl: "https://sim.example.com", organization: "org-1", keyFingerprint: "abc", apiVersion: 2 };

describe.runIf(postgresAvailable() || process.env.CI)("the reports sync store in PostgreSQL", () => {
  let pg: TestPostgres;
  let db: SqlConnection;
  let dir: string;
  let n = 0;
  const warnings: string[] = [];

  beforeAll(async () => {
    [pg, dir] = await Promise.all([startPostgres(), mkdtemp(join(tmpdir(), "simadmin-store-pg-"))]);
  }, 60_000);
  // A connection per test: what openPostgres decides is then part of each test (under
  // mutation, code run in beforeAll is not counted as covered by the tests).
  beforeEach(async () => {
    db = await openPostgres(pg.url, { timeoutMs: 10_000 });
  });
  afterEach(() => db?.close());
  afterAll(async () => {
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const load = async (store: SyncStore, table: string, start: string, records: unknown[], file?: string) => {
    const state = await store.table(table);
    const writer = new WindowLoadWriter(
      join(dir, `load-${++n}.copy`),
      db.format,
      state.registry,
      { maxFieldsPerRecord: 100, maxFields: 100 },
      { mayHold: () => false, redact: (v) => v },
      { start, end: start, fetchedAt: "2026-02-03T10:00:00.000Z" },
    );
    for (const record of records) writer.add(JSON.stringify(record));
    const result = writer.finish();
    return store.replaceWindow(
      {
        table,
        startDate: start,
        endDate: start,
        fetchedAt: new Date("2026-02-03T10:00:00.000Z"),
        complete: true,
        toolVersion: "9.9.9",
      },
      file === undefined ? result : { ...result, file },
      TENANT,
    );
  };

  it("a window's new columns, their mapping and its rows commit together: a load that fails leaves none of them", async () => {
    const store = new SyncStore(db, (text) => warnings.push(text));
    await store.ensureMeta();
    await load(store, "logins", "2026-01-01", [{ who: "a" }]);
    await expect(load(store, "logins", "2026-01-02", [{ who: "b", extra: 1 }], join(dir, "gone.copy"))).rejects.toThrow(
      /ENOENT: no such file or directory, open .*gone\.copy/,
    );
    // A load file the server refuses (a number column given a word): exit 11, the server's words.
    const broken = join(dir, "broken.copy");
    await writeFile(broken, "2026-01-02\t2026-01-02\t2026-02-03T10:00:00.000Z\t1\t{}\tb\tnot-a-number\n");
    const failed = load(store, "logins", "2026-01-02", [{ who: "b", extra: 1 }], broken);
    await expect(failed).rejects.toThrow(LocalFileError);
    await expect(failed).rejects.toThrow(
      `PostgreSQL at ${db.label}: invalid input syntax for type bigint: "not-a-number" (SQLSTATE 22P02)`,
    );
    const columns = await db.all(
      "SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'logins' ORDER BY ordinal_position",
    );
    expect(columns.map((r) => r.c)).toEqual(["window_start", "window_end", "fetched_at", "row_number", "raw", "who"]);
    expect(await db.all("SELECT field, column_name FROM simadmin_sync_columns WHERE table_name = 'logins'")).toEqual([
      { field: '["who"]', column_name: "who" },
    ]);
    expect(await db.all("SELECT CAST(window_start AS TEXT) AS s FROM simadmin_sync_windows WHERE kind = 'logins'")).toEqual([
      { s: "2026-01-01" },
    ]);
    // The next window adds the column again (the store read the table afresh).
    await load(store, "logins", "2026-01-02", [{ who: "c", extra: 2 }]);
    expect(await db.all("SELECT who, extra FROM logins ORDER BY window_start")).toEqual([
      { who: "a", extra: null },
      { who: "c", extra: "2" },
    ]);
  });

  it("a column a view depends on: the field moves to a new column inside the window's transaction, and a warning names the database's reason", async () => {
    const store = new SyncStore(db, (text) => warnings.push(text));
    await store.ensureMeta();
    await load(store, "scores", "2026-01-01", [{ score: 7 }]);
    await db.run("CREATE VIEW score_view AS SELECT score FROM scores");
    warnings.length = 0;
    await load(store, "scores", "2026-01-02", [{ score: "high" }]);
    expect(await db.all("SELECT CAST(window_start AS TEXT) AS s, score, score_text FROM scores ORDER BY s")).toEqual([
      { s: "2026-01-01", score: "7", score_text: "7" },
      { s: "2026-01-02", score: null, score_text: "high" },
    ]);
    expect(warnings).toEqual([
      `scores.score cannot become TEXT (PostgreSQL at ${db.label}: cannot alter type of a column used by a view or rule (SQLSTATE 0A000)): it keeps its BIGINT values, and the field continues in the new column scores.score_text, which holds all of them`,
    ]);
    // Widening that the database allows happens in place, in the transaction too.
    await load(store, "scores", "2026-01-03", [{ score: "low", ratio: 1 }]);
    await load(store, "scores", "2026-01-04", [{ ratio: 1.5 }]);
    expect(await db.all("SELECT ratio FROM scores WHERE ratio IS NOT NULL ORDER BY window_start")).toEqual([
      { ratio: 1 },
      { ratio: 1.5 },
    ]);
  });
});
