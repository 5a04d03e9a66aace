import type { ColumnType } from "../../domain/sync-columns.js";

// What `reports sync` needs of a database, whichever it is: statements with positional
// parameters ($1, $2, … in both DuckDB and PostgreSQL), rows back as plain values, and the
// names of the few types that differ. duckdb.ts and postgres.ts provide it; store.ts writes
// the SQL once for both.

export type SqlValue = string | number | boolean | null;

export interface SqlConnection {
  /** Shown in messages: a file path, or host/database for PostgreSQL (never a password). */
  readonly label: string;
  readonly types: SqlTypes;
  /** PostgreSQL takes at most 65,535 parameters in one statement. */
  readonly maxParameters: number;
  run(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /**
   * DuckDB only: its appender, far faster than INSERT statements (a million records in
   * seconds instead of minutes), inside the connection's open transaction.
   */
  openAppender?(table: string, columns: readonly AppendType[]): Promise<RowAppender>;
  all(sql: string, params?: readonly SqlValue[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface SqlTypes {
  column: Record<ColumnType, string>;
  json: string;
  timestamp: string;
}

/** information_schema's data_type (either database's spelling) → the column type it holds. */
export function columnTypeOf(dataType: string): ColumnType {
  const type = dataType.toLowerCase();
  if (type === "boolean") return "boolean";
  if (type === "bigint") return "bigint";
  if (type === "double" || type === "double precision") return "double";
  return "text";
}

/** The type of each of a table's columns, in table order, for an appender. */
export type AppendType = ColumnType | "date" | "timestamp" | "json";

export interface RowAppender {
  /** One row, a value per column in table order (dates as YYYY-MM-DD, timestamps as ISO text). */
  append(values: readonly SqlValue[]): void;
  /** Writes what is pending into the transaction. */
  close(): void;
}
