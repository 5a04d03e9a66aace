import { existsSync, statSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDuckDb } from "../../src/commands/reports-sync/duckdb.js";
import { tempDir } from "../helpers/in-process.js";

// How reports sync opens a DuckDB file (docs/reports-sync.md, "How a window is loaded"): the
// file is attached with row groups of 30,720 rows, and stays an ordinary DuckDB file — a
// plain DuckDB instance reads it after the sync's close, with nothing left in a write-ahead log.

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir("simadmin-duckdb-attach-");
});
afterEach(() => dir.remove());

const lock = { timeoutMs: 1000, onWait: () => undefined, signal: new AbortController().signal };

describe("reports sync's DuckDB file", () => {
  it("writes row groups of 30,720 rows into a file any DuckDB opens", async () => {
    const path = `${dir.path}/reports.duckdb`;
    const db = await openDuckDb(path, { readOnly: false, lock });
    try {
      await db.run("CREATE TABLE t AS SELECT range AS n FROM range(61441)");
      const [groups] = await db.all("SELECT count(DISTINCT row_group_id) AS g FROM pragma_storage_info('t')");
      // 30,720 + 30,720 + 1 rows (n = 0 … 61,440: their sum is 61,440 × 61,441 / 2 below).
      expect(Number(groups!.g)).toBe(3);
    } finally {
      await db.close();
    }
    expect(existsSync(`${path}.wal`)).toBe(false);
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const plain = await DuckDBInstance.create(path);
    try {
      const reader = await (await plain.connect()).runAndReadAll("SELECT count(*)::INTEGER AS c, sum(n)::BIGINT AS s FROM t");
      expect(reader.getRowObjectsJson()).toEqual([{ c: 61441, s: "1887467520" }]);
    } finally {
      plain.closeSync();
    }
  });

  it("writes a transaction's row groups into the file as each fills, before the commit", async () => {
    // Windows share a transaction of up to 250,000 rows (store.ts): DuckDB's default holds
    // five full row groups in memory before writing them, which filled its 128 MB near
    // 90,000 rows and made that window's load write two groups and spill.
    const path = `${dir.path}/reports.duckdb`;
    const db = await openDuckDb(path, { readOnly: false, lock });
    try {
      await db.run("CREATE TABLE t (n BIGINT PRIMARY KEY, s VARCHAR)");
      await db.run("CHECKPOINT");
      const empty = statSync(path).size;
      await db.run("BEGIN");
      // 80,000 rows in four statements, as windows come: two full groups of 30,720 and a part.
      for (let i = 0; i < 4; i++)
        await db.run(`INSERT INTO t SELECT range, repeat('x', 40) || range FROM range(${i * 20_000}, ${(i + 1) * 20_000})`);
      // Two groups of 30,720 rows of ~45 bytes, compressed: more than 100 KB in the file.
      expect(statSync(path).size - empty).toBeGreaterThan(100_000);
      await db.run("COMMIT");
      expect(await db.all("SELECT count(*)::INTEGER AS c FROM t")).toEqual([{ c: 80_000 }]);
    } finally {
      await db.close();
    }
  });

  it("opens a file named as DuckDB's own in-memory database (memory.duckdb)", async () => {
    const path = `${dir.path}/memory.duckdb`;
    const db = await openDuckDb(path, { readOnly: false, lock });
    try {
      await db.run("CREATE TABLE t (a INTEGER)");
      await db.run("INSERT INTO t VALUES (7)");
    } finally {
      await db.close();
    }
    const again = await openDuckDb(path, { readOnly: true, lock });
    try {
      expect(await again.all("SELECT a FROM t")).toEqual([{ a: 7 }]);
    } finally {
      await again.close();
    }
  });
});
