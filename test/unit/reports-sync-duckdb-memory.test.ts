import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDuckDb } from "../../src/commands/reports-sync/duckdb.js";
import { LocalFileError } from "../../src/errors.js";
import { tempDir } from "../helpers/in-process.js";

// DuckDB running out of the memory `reports sync` gives it (docs/reports-sync.md: a full disk
// and DuckDB out of memory are exit 11 naming the file, never exit 1 "this is a bug"): a real
// DuckDB file and a statement that needs more than its memory limit, through the same
// connection the sync loads windows with.

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir("simadmin-duckdb-memory-");
});
afterEach(() => dir.remove());

describe("reports sync's DuckDB connection", () => {
  it("turns DuckDB's out-of-memory error into exit 11 naming the file", async () => {
    const path = `${dir.path}/reports.duckdb`;
    const db = await openDuckDb(path, {
      readOnly: false,
      lock: { timeoutMs: 1000, onWait: () => undefined, signal: new AbortController().signal },
    });
    try {
      // A list of 60 million integers (480 MB) cannot spill to disk.
      const failure = await db.all("SELECT len(list(i)) AS n FROM range(60000000) t(i)").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(LocalFileError);
      expect((failure as LocalFileError).exitCode).toBe(11);
      expect((failure as LocalFileError).message).toContain(path);
      expect((failure as LocalFileError).message).toMatch(/out of memory/i);
      expect(
        (failure as LocalFileError).message.startsWith(`DuckDB ran out of memory writing ${path} (it may use 128MB): `),
      ).toBe(true);
      expect((failure as LocalFileError).hint).toBe(
        "the windows written so far are kept: free memory and run again; if a window fails again, its records may be too large for DuckDB: sync into PostgreSQL instead",
      );
    } finally {
      await db.close();
    }
  });
});
