import type { WarehouseType } from "../../domain/warehouse-values.js";
import type { LoadFormat, WindowLoadResult } from "./load-file.js";

// What `reports sync` needs of a database, whichever it is: statements with positional
// parameters ($1, $2, … in both DuckDB and PostgreSQL), rows back as plain values, the names
// of the types that differ, a bulk load of a window's load file (DuckDB's JSON reader,
// PostgreSQL's COPY) and the lock that keeps two runs apart. duckdb.ts and postgres.ts
// provide it; store.ts writes the SQL once for both.

export type SqlValue = string | number | boolean | null;

export interface SqlConnection {
  /** Shown in messages: a file path, or the URL without its password. */
  readonly label: string;
  readonly types: Record<WarehouseType, string> & { json: string };
  /** The load file this target reads (load-file.ts). */
  readonly format: LoadFormat;
  /**
   * PostgreSQL changes tables inside the window's transaction; DuckDB cannot commit a
   * transaction that both altered a table and changed its rows, so there each change
   * commits on its own, before.
   */
  readonly ddlInTransaction: boolean;
  run(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /** Statements run in this order: in one round trip where the database allows it (DuckDB). */
  runAll(statements: readonly Statement[]): Promise<void>;
  all(sql: string, params?: readonly SqlValue[]): Promise<Record<string, unknown>[]>;
  /** Inside the open transaction: the window's rows from its load file into `table`. */
  load(
    table: string,
    columns: readonly string[],
    window: WindowRow,
    result: WindowLoadResult,
    types: readonly string[],
  ): Promise<void>;
  /** Runs into one database never interleave: waits for another run's lock (a line says so), then exit 2. */
  lock(options: LockWait): Promise<void>;
  close(): Promise<void>;
}

export interface Statement {
  sql: string;
  params: readonly SqlValue[];
}

export interface WindowRow {
  start: string;
  end: string;
  fetchedAt: string;
}

export interface LockWait {
  timeoutMs: number;
  onWait: (holder: string) => void;
  signal: AbortSignal;
}

/** information_schema's data_type (either database's spelling) → the column type it holds. */
export function columnTypeOf(dataType: string): WarehouseType {
  const type = dataType.toLowerCase();
  if (type === "boolean") return "boolean";
  if (type === "bigint" || type === "integer") return "bigint";
  if (type === "double" || type === "double precision") return "double";
  if (type === "date") return "date";
  if (type.startsWith("timestamp")) return "timestamp";
  return "text";
}

/** A SQL identifier, quoted: any name is safe in DuckDB and PostgreSQL. */
export function q(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
