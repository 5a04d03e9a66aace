import { flattenRecord, type Cell, type JsonRecord } from "../../domain/records.js";
import { cellType, ColumnNames, kindTable, quoteIdentifier as q, widen, type ColumnType } from "../../domain/sync-columns.js";
import { parseIsoDate } from "../../domain/date-windows.js";
import type { SyncedWindow } from "../../domain/sync-windows.js";
import { throwIfAborted } from "../../errors.js";
import { columnTypeOf, type AppendType, type SqlConnection, type SqlValue } from "./connection.js";

// The tables of `reports sync` (docs/cli-contract.md, Sync), written the same way in DuckDB
// and PostgreSQL:
//
// - one table per kind (`syms_result`, …): window_start, window_end, fetched_at, the
//   record's flattened columns, raw (the record as JSON). Columns are added as fields
//   appear and widened (bigint → double → text) when values no longer fit — never a load
//   that fails because the service changed;
// - simadmin_sync_windows: one row per kind and window, what was fetched when.
//
// A window is replaced in one transaction — delete its rows, insert the new ones in
// batches, upsert its meta row — so a failed or killed run leaves it as it was, and a
// second run never doubles it.

export const META_TABLE = "simadmin_sync_windows";

export interface WindowWrite {
  kind: string;
  startDate: string;
  endDate: string;
  fetchedAt: Date;
  complete: boolean;
  toolVersion: string;
}

export class SyncStore {
  /** Per table: its columns and their types, as the database has them. */
  private readonly tables = new Map<string, Map<string, ColumnType | "system">>();

  constructor(
    readonly db: SqlConnection,
    private readonly signal: AbortSignal,
  ) {}

  async ensureMeta(): Promise<void> {
    await this.db.run(
      `CREATE TABLE IF NOT EXISTS ${META_TABLE} (kind VARCHAR NOT NULL, window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at ${this.db.types.timestamp} NOT NULL, records BIGINT NOT NULL, complete BOOLEAN NOT NULL, tool_version VARCHAR NOT NULL, PRIMARY KEY (kind, window_start))`,
    );
  }

  /** What the meta table says of a kind's windows (nothing when the table does not exist yet). */
  async syncedWindows(kind: string): Promise<Map<string, SyncedWindow>> {
    const held = new Map<string, SyncedWindow>();
    if (!(await this.tableExists(META_TABLE))) return held;
    const rows = await this.db.all(
      `SELECT CAST(window_start AS VARCHAR) AS s, CAST(window_end AS VARCHAR) AS e, CAST(fetched_at AS VARCHAR) AS f, complete AS c FROM ${META_TABLE} WHERE kind = $1`,
      [kind],
    );
    for (const row of rows) {
      const start = String(row.s);
      const fetched = parseIsoDate(String(row.f).slice(0, 10));
      held.set(start, {
        start,
        end: String(row.e),
        fetchedDay: fetched ?? 0,
        complete: row.c === true || row.c === "true",
      });
    }
    return held;
  }

  /** The first day the database holds for any kind: where later runs start by default. */
  async earliestStart(): Promise<string | undefined> {
    if (!(await this.tableExists(META_TABLE))) return undefined;
    const [row] = await this.db.all(`SELECT CAST(min(window_start) AS VARCHAR) AS s FROM ${META_TABLE}`);
    return row?.s === null || row?.s === undefined ? undefined : String(row.s);
  }

  private async tableExists(table: string): Promise<boolean> {
    const rows = await this.db.all(
      "SELECT 1 AS x FROM information_schema.tables WHERE table_name = $1 AND table_schema = current_schema()",
      [table],
    );
    return rows.length > 0;
  }

  private async columnsOf(table: string): Promise<Map<string, ColumnType | "system">> {
    let columns = this.tables.get(table);
    if (columns) return columns;
    await this.db.run(
      `CREATE TABLE IF NOT EXISTS ${q(table)} (window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at ${this.db.types.timestamp} NOT NULL, raw ${this.db.types.json})`,
    );
    const rows = await this.db.all(
      "SELECT column_name AS n, data_type AS t FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position",
      [table],
    );
    columns = new Map();
    for (const row of rows) {
      const name = String(row.n);
      columns.set(
        name,
        ["window_start", "window_end", "fetched_at", "raw"].includes(name) ? "system" : columnTypeOf(String(row.t)),
      );
    }
    this.tables.set(table, columns);
    return columns;
  }

  /**
   * Pass 1 over a window's records: adds and widens the kind's columns for them, each change
   * committed on its own before the window's transaction. DuckDB refuses to commit a
   * transaction that both altered a table and changed its rows; a column added for a window
   * that then fails stays, empty, which is harmless.
   */
  async fitWindow(kind: string, batches: AsyncIterable<JsonRecord[]>): Promise<void> {
    const table = kindTable(kind);
    const columns = await this.columnsOf(table);
    const names = new ColumnNames(columns.keys());
    const needed = new Map<string, ColumnType | undefined>();
    for await (const batch of batches) {
      throwIfAborted(this.signal);
      for (const record of batch) {
        for (const [field, value] of Object.entries(flattenRecord(record))) {
          const column = names.columnFor(field);
          needed.set(column, widen(needed.get(column), cellType(value)));
        }
      }
    }
    await this.fitColumns(table, columns, needed);
  }

  /**
   * Replaces one window of a kind with `batches` of records, in one transaction.
   * Returns the number of records written.
   */
  async replaceWindow(write: WindowWrite, batches: AsyncIterable<JsonRecord[]>): Promise<number> {
    const table = kindTable(write.kind);
    await this.db.run("BEGIN");
    let count = 0;
    try {
      const columns = await this.columnsOf(table);
      const names = new ColumnNames(columns.keys());
      await this.db.run(`DELETE FROM ${q(table)} WHERE window_start = CAST($1 AS DATE)`, [write.startDate]);
      const fixed: SqlValue[] = [write.startDate, write.endDate, write.fetchedAt.toISOString()];
      if (this.db.openAppender) count = await this.appendWindow(table, columns, names, fixed, batches);
      else
        for await (const batch of batches) {
          throwIfAborted(this.signal);
          count += await this.insertBatch(table, columns, names, fixed, batch);
        }
      throwIfAborted(this.signal);
      await this.db.run(`DELETE FROM ${META_TABLE} WHERE kind = $1 AND window_start = CAST($2 AS DATE)`, [
        write.kind,
        write.startDate,
      ]);
      await this.db.run(
        `INSERT INTO ${META_TABLE} (kind, window_start, window_end, fetched_at, records, complete, tool_version) VALUES ($1, CAST($2 AS DATE), CAST($3 AS DATE), CAST($4 AS ${this.db.types.timestamp}), $5, $6, $7)`,
        [write.kind, write.startDate, write.endDate, write.fetchedAt.toISOString(), count, write.complete, write.toolVersion],
      );
      await this.db.run("COMMIT");
    } catch (error) {
      await this.db.run("ROLLBACK").catch(() => undefined);
      // The column cache may describe columns the rollback took away: read them again.
      this.tables.delete(table);
      throw error;
    }
    return count;
  }

  /**
   * DuckDB: every row through its appender, in table order. fitWindow has made a column of
   * every field of the window already.
   */
  private async appendWindow(
    table: string,
    columns: Map<string, ColumnType | "system">,
    names: ColumnNames,
    fixed: SqlValue[],
    batches: AsyncIterable<JsonRecord[]>,
  ): Promise<number> {
    const order = [...columns.keys()];
    const types: AppendType[] = order.map((column) => {
      const type = columns.get(column)!;
      if (type !== "system") return type;
      return column === "fetched_at" ? "timestamp" : column === "raw" ? "json" : "date";
    });
    const position = new Map(order.map((column, i) => [column, i]));
    const appender = await this.db.openAppender!(table, types);
    let count = 0;
    try {
      for await (const batch of batches) {
        throwIfAborted(this.signal);
        for (const record of batch) {
          const values: SqlValue[] = new Array<SqlValue>(order.length).fill(null);
          values[position.get("window_start")!] = fixed[0]!;
          values[position.get("window_end")!] = fixed[1]!;
          values[position.get("fetched_at")!] = fixed[2]!;
          values[position.get("raw")!] = JSON.stringify(record);
          for (const [field, value] of Object.entries(flattenRecord(record))) {
            const at = position.get(names.columnFor(field));
            if (at !== undefined) values[at] = toColumn(value, types[at] === "text" ? "text" : undefined);
          }
          appender.append(values);
          count++;
        }
      }
    } finally {
      appender.close();
    }
    return count;
  }

  private async insertBatch(
    table: string,
    columns: Map<string, ColumnType | "system">,
    names: ColumnNames,
    fixed: SqlValue[],
    records: JsonRecord[],
  ): Promise<number> {
    if (records.length === 0) return 0;
    const rows: { cells: Map<string, Cell>; raw: string }[] = [];
    const needed = new Map<string, ColumnType | undefined>();
    for (const record of records) {
      const cells = new Map<string, Cell>();
      for (const [field, value] of Object.entries(flattenRecord(record))) {
        const column = names.columnFor(field);
        cells.set(column, value);
        needed.set(column, widen(needed.get(column), cellType(value)));
      }
      rows.push({ cells, raw: JSON.stringify(record) });
    }
    const used = await this.fitColumns(table, columns, needed);
    const perRow = used.length + 1;
    const rowsPerStatement = Math.max(1, Math.floor((this.db.maxParameters - fixed.length) / perRow));
    const head = `INSERT INTO ${q(table)} (window_start, window_end, fetched_at, raw${used.map((c) => `, ${q(c)}`).join("")}) VALUES `;
    const ts = this.db.types.timestamp;
    for (let from = 0; from < rows.length; from += rowsPerStatement) {
      const slice = rows.slice(from, from + rowsPerStatement);
      const params: SqlValue[] = [...fixed];
      const tuples: string[] = [];
      for (const row of slice) {
        const base = params.length;
        params.push(row.raw);
        for (const column of used) params.push(toColumn(row.cells.get(column) ?? null, columns.get(column)));
        const placeholders = used.map((_, i) => `$${base + 2 + i}`);
        tuples.push(
          `(CAST($1 AS DATE), CAST($2 AS DATE), CAST($3 AS ${ts}), CAST($${base + 1} AS ${this.db.types.json})${placeholders.map((p) => `, ${p}`).join("")})`,
        );
      }
      await this.db.run(head + tuples.join(", "), params);
    }
    return rows.length;
  }

  /**
   * New fields become columns; a column whose values no longer fit is widened. Returns the
   * columns the batch fills: a new field that is null throughout waits for a value to give
   * it a type (its nulls are in `raw`).
   */
  private async fitColumns(
    table: string,
    columns: Map<string, ColumnType | "system">,
    needed: Map<string, ColumnType | undefined>,
  ): Promise<string[]> {
    const used: string[] = [];
    for (const [column, type] of needed) {
      const current = columns.get(column);
      if (current === "system") continue;
      if (current === undefined && type === undefined) continue;
      used.push(column);
      if (current === undefined) {
        const initial = type ?? "text";
        await this.db.run(`ALTER TABLE ${q(table)} ADD COLUMN ${q(column)} ${this.db.types.column[initial]}`);
        columns.set(column, initial);
        continue;
      }
      const wider = widen(current, type) ?? current;
      if (wider !== current) {
        const sqlType = this.db.types.column[wider];
        await this.db.run(
          `ALTER TABLE ${q(table)} ALTER COLUMN ${q(column)} TYPE ${sqlType} USING CAST(${q(column)} AS ${sqlType})`,
        );
        columns.set(column, wider);
      }
    }
    return used;
  }
}

/** A cell as its column stores it: text columns get text, so 42 is "42", not "42.0". */
function toColumn(cell: Cell, type: ColumnType | "system" | undefined): SqlValue {
  if (cell === null) return null;
  if (type === "text" && typeof cell !== "string") return String(cell);
  return cell;
}
