import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { SqlConnection } from "../../src/commands/reports-sync/connection.js";
import { openDuckDb } from "../../src/commands/reports-sync/duckdb.js";
import { WindowLoadWriter, type LoadLimits, type WindowLoadResult } from "../../src/commands/reports-sync/load-file.js";
import { SyncStore, type Tenant } from "../../src/commands/reports-sync/store.js";

// Windows written by the load writer and loaded by the store into a DuckDB file of the
// test's own, for the unit tests of how a window reaches DuckDB (docs/reports-sync.md,
// "How a window is loaded"). Registers its own hooks: call it at the top of a test file.

const TENANT: Tenant = { baseUrl: "https://sim.example.com", organization: "o", keyFingerprint: "f", apiVersion: 2 };
const WINDOW = { start: "2026-01-01", end: "2026-01-30", fetchedAt: "2026-02-03T10:00:00.000Z" };

interface DuckDbWindows {
  /** The test directory (its name holds a quote: DuckDB reads the load files by name, inside SQL text). */
  readonly dir: string;
  /** A number not used before in this file, for file names. */
  next(): number;
  /** A new DuckDB file with its meta tables; closed after each test. */
  open(): Promise<SyncStore>;
  /** The window's records (JSON texts as the service sent them) through the load writer into table `t`. */
  prepare(store: SyncStore, texts: string[], start?: string): Promise<WindowLoadResult>;
  /** The prepared window loaded into table `t` and committed. */
  load(store: SyncStore, result: WindowLoadResult, start?: string): Promise<void>;
  /** Rows of the open database. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

export function duckDbWindows(prefix: string, limits: Partial<LoadLimits> = {}): DuckDbWindows {
  let dir = "";
  let n = 0;
  let db: SqlConnection | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `${prefix}-'q-`));
  });
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    next: () => ++n,
    async open() {
      db = await openDuckDb(join(dir, `d${++n}.duckdb`), {
        readOnly: false,
        lock: { timeoutMs: 1000, onWait: () => undefined, signal: new AbortController().signal },
      });
      const store = new SyncStore(db, () => undefined);
      await store.ensureMeta();
      return store;
    },
    async prepare(store, texts, start = WINDOW.start) {
      const state = await store.table("t");
      const writer = new WindowLoadWriter(
        join(dir, `load-${++n}.ndjson`),
        "ndjson",
        state.registry,
        { maxFieldsPerRecord: 100, maxFields: 100, ...limits },
        { mayHold: () => false, redact: (v) => v },
        { ...WINDOW, start },
      );
      for (const text of texts) writer.add(text);
      return writer.finish();
    },
    async load(store, result, start = WINDOW.start) {
      const write = {
        table: "t",
        startDate: start,
        endDate: WINDOW.end,
        fetchedAt: new Date(WINDOW.fetchedAt),
        complete: true,
        toolVersion: "x",
      };
      await store.replaceWindow(write, result, TENANT);
      await store.commitPending();
    },
    rows: (sql) => db!.all(sql),
  };
}
