import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDuckDb } from "../../src/commands/reports-sync/duckdb.js";
import { LocalFileError } from "../../src/errors.js";
import { tempDir } from "../helpers/in-process.js";

// What reports sync's DuckDB connection makes of DuckDB's errors (docs/reports-sync.md): a
// file it may not write is exit 11 naming the file and what to check; a statement refused for
// any other reason stays DuckDB's own error (a bug of ours, exit 1). The out-of-memory case
// is reports-sync-duckdb-memory.test.ts, a file that is no database the command tests.

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir("simadmin-duckdb-errors-");
});
afterEach(() => dir.remove());

const lock = { timeoutMs: 1000, onWait: () => undefined, signal: new AbortController().signal };

describe("reports sync's DuckDB errors", () => {
  it("a write into a file opened read-only: exit 11, 'cannot write' naming the file, DuckDB's first line, what to check", async () => {
    const path = `${dir.path}/reports.duckdb`;
    const writer = await openDuckDb(path, { readOnly: false, lock });
    await writer.run("CREATE TABLE t (a INTEGER)");
    await writer.close();
    const db = await openDuckDb(path, { readOnly: true, lock });
    try {
      const failure = await db.run("INSERT INTO t VALUES (1)").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(LocalFileError);
      const error = failure as LocalFileError;
      expect(error.exitCode).toBe(11);
      expect(error.message).toBe(
        `cannot write the DuckDB database ${path}: Invalid Input Error: Cannot execute statement of type "INSERT" on database "reports" which is attached in read-only mode!`,
      );
      expect(error.hint).toBe("check the file and its directory");
      expect(error.code).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it("a statement DuckDB refuses for another reason is its own error, whole", async () => {
    const db = await openDuckDb(`${dir.path}/reports.duckdb`, { readOnly: false, lock });
    try {
      const failure = await db.all("SELECT * FROM nowhere").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(LocalFileError);
      expect((failure as Error).message).toMatch(/^Catalog Error: Table with name nowhere does not exist!\n/);
    } finally {
      await db.close();
    }
  });
});
