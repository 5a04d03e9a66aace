import { access, constants } from "node:fs/promises";
import { dirname } from "node:path";
import { LocalFileError } from "../../errors.js";
import { parseIsoDate } from "../../domain/date-windows.js";
import type { AppendType, RowAppender, SqlConnection, SqlValue } from "./connection.js";

// The embedded target (docs/cli-contract.md, Sync: "a DuckDB file, the embedded default").
// @duckdb/node-api carries a native binary: loaded with import() by this command only, and
// left out of the bundle (scripts/bundle.mjs), so no other command pays for it.

type DuckDB = typeof import("@duckdb/node-api");

/** One DuckDB vector (STANDARD_VECTOR_SIZE). */
const APPENDER_FLUSH_ROWS = 2048;

export async function openDuckDb(path: string, options: { readOnly: boolean }): Promise<SqlConnection> {
  // DuckDB's own message for a missing directory is an "IO Error"; say it as for any file.
  try {
    await access(dirname(path), constants.W_OK);
  } catch (error) {
    throw LocalFileError.fromSystem(error, dirname(path), "write the database into");
  }
  const duckdb: DuckDB = await import("@duckdb/node-api");
  let instance: import("@duckdb/node-api").DuckDBInstance;
  try {
    instance = await duckdb.DuckDBInstance.create(path, {
      ...(options.readOnly ? { access_mode: "READ_ONLY" } : {}),
      // A CLI beside other work: DuckDB would take 80 % of the memory and every core for
      // its buffers and threads; a sync appends rows and needs little of either.
      // (bench/reports-sync.mjs, 1M records: 32MB of buffers cost about 8 % more time than
      // 128MB and peak RSS 324 instead of ~410 MiB.)
      memory_limit: "32MB",
      threads: "2",
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const locked = /lock/i.test(message);
    throw new LocalFileError(`cannot open the DuckDB database ${path}: ${message.split("\n")[0]}`, {
      path,
      hint: locked
        ? "another process has it open (another `reports sync`, or a DuckDB session): close it and run again"
        : "check that the path is a DuckDB file this version can read",
      cause: error,
    });
  }
  const connection = await instance.connect();
  return {
    label: path,
    types: {
      column: { boolean: "BOOLEAN", bigint: "BIGINT", double: "DOUBLE", text: "VARCHAR" },
      json: "JSON",
      timestamp: "TIMESTAMP",
    },
    maxParameters: 60_000,
    async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
      await connection.run(sql, [...params]);
    },
    async openAppender(table: string, columns: readonly AppendType[]): Promise<RowAppender> {
      const appender = await connection.createAppender(table);
      let pending = 0;
      return {
        append(values: readonly SqlValue[]): void {
          columns.forEach((type, i) => appendCell(duckdb, appender, type, values[i] ?? null));
          appender.endRow();
          // The appender keeps its rows until 204,800 of them (100 vectors), then copies them
          // into the transaction: a whole 30-day window held twice. Handing them over a vector
          // at a time still commits the window as one (bench/reports-sync.mjs, 1M records:
          // peak RSS about 40 MiB lower; docs/reports-sync.md, Figures).
          if (++pending === APPENDER_FLUSH_ROWS) {
            appender.flushSync();
            pending = 0;
          }
        },
        close(): void {
          appender.flushSync();
          appender.closeSync();
        },
      };
    },
    async all(sql: string, params: readonly SqlValue[] = []): Promise<Record<string, unknown>[]> {
      const reader = await connection.runAndReadAll(sql, [...params]);
      return reader.getRowObjectsJson();
    },
    close(): Promise<void> {
      connection.closeSync();
      instance.closeSync();
      return Promise.resolve();
    },
  };
}

function appendCell(
  duckdb: DuckDB,
  appender: import("@duckdb/node-api").DuckDBAppender,
  type: AppendType,
  value: SqlValue,
): void {
  if (value === null) return appender.appendNull();
  switch (type) {
    case "date":
      return appender.appendDate(new duckdb.DuckDBDateValue(parseIsoDate(String(value)) ?? 0));
    case "timestamp":
      return appender.appendTimestamp(new duckdb.DuckDBTimestampValue(BigInt(Date.parse(String(value))) * 1000n));
    case "boolean":
      return appender.appendBoolean(value === true);
    case "bigint":
      return appender.appendBigInt(BigInt(value));
    case "double":
      return appender.appendDouble(Number(value));
    default:
      return appender.appendVarchar(String(value));
  }
}
