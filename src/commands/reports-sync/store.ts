import { parseIsoDate } from "../../domain/date-windows.js";
import type { SyncedWindow } from "../../domain/sync-windows.js";
import { ColumnAllocator, fieldKey, legacyColumnName, SYSTEM_COLUMNS } from "../../domain/warehouse-names.js";
import { widenType, type WarehouseType } from "../../domain/warehouse-values.js";
import { UsageError } from "../../errors.js";
import { columnTypeOf, q, type SqlConnection, type SqlValue, type Statement } from "./connection.js";
import { holdsAsSent } from "./as-sent.js";
import { FieldRegistry, WindowLoadWriter, type WindowLoadResult } from "./load-file.js";

// The tables of `reports sync` (docs/cli-contract.md, Sync and Warehouse rules; docs/reports-
// sync.md), written the same way in DuckDB and PostgreSQL:
//
// - one table per kind (`user_results`, …): window_start, window_end, fetched_at, row_number
//   (the primary key is window_start, row_number), raw (the record as JSON), then a
//   snake-case column per field;
// - simadmin_sync_windows: one row per table and window — what was fetched when, how many
//   records, and whose data it is (base URL, organization, key fingerprint, API version);
// - simadmin_sync_columns: which column holds which field, decided once (a field keeps its
//   column for ever).
//
// A window is replaced in one transaction — delete its rows, load the new ones, upsert its
// meta row — under a lock no other run into the database holds, so its rows always equal
// its meta count. In DuckDB, windows that arrive back to back share a transaction up to
// BATCH_ROWS rows (docs/reports-sync.md, "Windows, and why a killed run is harmless"): a
// commit of fewer rows than a row group goes through the write-ahead log and its checkpoints
// (each window's rows written twice, each commit an fsync); a larger one is written straight
// into the file. The caller commits whenever it would wait (commitPending).

export const META_TABLE = "simadmin_sync_windows";
/**
 * DuckDB: a transaction holding this many rows is committed after its window. Past a row
 * group (30,720 rows as duckdb.ts attaches the file) a commit writes its rows straight into
 * the file.
 */
const BATCH_ROWS = 250_000;
export const COLUMNS_TABLE = "simadmin_sync_columns";

export interface Tenant {
  baseUrl: string;
  organization: string;
  keyFingerprint: string;
  apiVersion: number;
}

export interface WindowWrite {
  table: string;
  startDate: string;
  endDate: string;
  fetchedAt: Date;
  complete: boolean;
  toolVersion: string;
}

interface TableState {
  registry: FieldRegistry;
  /** field key → column, as stored */
  columnOf: Map<string, string>;
  /** column → its type as the database has it */
  types: Map<string, WarehouseType | "system">;
  allocator: ColumnAllocator;
  exists: boolean;
}

export class SyncStore {
  private readonly tables = new Map<string, TableState>();
  /** DuckDB: the rows of the windows loaded in the open transaction (undefined: none open). */
  private pending: number | undefined;

  constructor(
    readonly db: SqlConnection,
    private readonly warn: (text: string) => void,
  ) {}

  async ensureMeta(): Promise<void> {
    const ts = this.db.types.timestamp;
    // One transaction: in DuckDB each statement on its own is a commit (a write-ahead log
    // record and an fsync), and a first run's start-up was mostly those (docs/reports-sync.md,
    // Figures).
    await this.db.run("BEGIN");
    try {
      await this.db.run(
        `CREATE TABLE IF NOT EXISTS ${META_TABLE} (kind VARCHAR NOT NULL, window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at ${ts} NOT NULL, records BIGINT NOT NULL, complete BOOLEAN NOT NULL, tool_version VARCHAR NOT NULL, base_url VARCHAR, organization VARCHAR, key_fingerprint VARCHAR, api_version INTEGER, PRIMARY KEY (kind, window_start))`,
      );
      // A meta table of an earlier version gets the columns it lacks.
      const have = new Set(
        (
          await this.db.all(
            "SELECT column_name AS n FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()",
            [META_TABLE],
          )
        ).map((row) => String(row.n)),
      );
      for (const [column, type] of [
        ["base_url", "VARCHAR"],
        ["organization", "VARCHAR"],
        ["key_fingerprint", "VARCHAR"],
        ["api_version", "INTEGER"],
      ])
        if (!have.has(column!)) await this.db.run(`ALTER TABLE ${META_TABLE} ADD COLUMN IF NOT EXISTS ${column} ${type}`);
      // The earlier version named windows by kind (`user-results`); the table is `user_results`.
      await this.db.run(`UPDATE ${META_TABLE} SET kind = replace(kind, '-', '_') WHERE kind LIKE '%-%'`);
      await this.db.run(
        `CREATE TABLE IF NOT EXISTS ${COLUMNS_TABLE} (table_name VARCHAR NOT NULL, field VARCHAR NOT NULL, column_name VARCHAR NOT NULL, PRIMARY KEY (table_name, field))`,
      );
      await this.db.run("COMMIT");
    } catch (error) {
      await this.db.run("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }

  /**
   * Whose data the database holds: a sync for another service, organization or key is
   * refused (exit 2) unless `force` (docs/cli-contract.md, Warehouse rules).
   */
  async checkTenant(tenant: Tenant, force: boolean): Promise<void> {
    const rows = await this.db.all(
      `SELECT DISTINCT base_url AS b, organization AS o, key_fingerprint AS k FROM ${META_TABLE} WHERE base_url IS NOT NULL`,
    );
    const others = rows.filter((r) => r.b !== tenant.baseUrl || r.o !== tenant.organization || r.k !== tenant.keyFingerprint);
    if (others.length === 0 || force) return;
    const other = others[0]!;
    const what =
      other.b !== tenant.baseUrl
        ? `the service ${String(other.b)}`
        : other.o !== tenant.organization
          ? `organization ${String(other.o)}`
          : `another API key (fingerprint ${String(other.k).slice(0, 12)}…)`;
    throw new UsageError(
      `${this.db.label} holds reports of ${what}; this sync is for ${tenant.baseUrl}, organization ${tenant.organization}`,
      {
        hint: "sync into another database, or add --force to replace its windows with this tenant's (e.g. after the API key was rotated)",
      },
    );
  }

  /** What the meta table says of a table's windows. */
  async syncedWindows(table: string): Promise<Map<string, SyncedWindow>> {
    const held = new Map<string, SyncedWindow>();
    const rows = await this.db.all(
      `SELECT CAST(window_start AS VARCHAR) AS s, CAST(window_end AS VARCHAR) AS e, CAST(fetched_at AS VARCHAR) AS f, complete AS c FROM ${META_TABLE} WHERE kind = $1`,
      [table],
    );
    for (const row of rows) {
      const start = String(row.s);
      held.set(start, {
        start,
        end: String(row.e),
        fetchedDay: parseIsoDate(String(row.f).slice(0, 10)) ?? 0,
        // Both drivers read BOOLEAN as a JavaScript boolean.
        complete: row.c === true,
      });
    }
    return held;
  }

  /** The first day the database holds for any table: where later runs start by default. */
  async earliestStart(): Promise<string | undefined> {
    if (!(await this.tableExists(META_TABLE))) return undefined;
    // An aggregate answers one row, its value null when the table holds no window.
    const [row] = await this.db.all(`SELECT CAST(min(window_start) AS VARCHAR) AS s FROM ${META_TABLE}`);
    const start = row!.s;
    return typeof start === "string" ? start : undefined;
  }

  private async tableExists(table: string): Promise<boolean> {
    const rows = await this.db.all(
      "SELECT 1 AS x FROM information_schema.tables WHERE table_name = $1 AND table_schema = current_schema()",
      [table],
    );
    return rows.length > 0;
  }

  /** The fields a table knows (for the load writer) and how they map to columns. */
  async table(table: string): Promise<TableState> {
    let state = this.tables.get(table);
    if (state) return state;
    const columns = await this.db.all(
      "SELECT column_name AS n, data_type AS t FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position",
      [table],
    );
    const mapping = await this.db.all(`SELECT field AS f, column_name AS c FROM ${COLUMNS_TABLE} WHERE table_name = $1`, [table]);
    const types = new Map<string, WarehouseType | "system">();
    for (const row of columns) {
      const name = String(row.n);
      types.set(name, (SYSTEM_COLUMNS as readonly string[]).includes(name) ? "system" : columnTypeOf(String(row.t)));
    }
    const columnOf = new Map(mapping.map((row) => [String(row.f), String(row.c)]));
    const paths = mapping.map((row) => JSON.parse(String(row.f)) as string[]);
    // What a field's column holds, as the table has it now: a window loaded straight from
    // `raw` must fit it (load-file.ts).
    const columnType = (key: string): WarehouseType | "system" | undefined => {
      const column = columnOf.get(key);
      return column === undefined ? undefined : types.get(column);
    };
    state = {
      registry: new FieldRegistry(paths, columnType),
      columnOf,
      types,
      allocator: new ColumnAllocator(types.keys()),
      exists: columns.length > 0,
    };
    this.tables.set(table, state);
    return state;
  }

  /**
   * Replaces one window of a table with the rows of its load file, in one transaction;
   * returns the count. In DuckDB the transaction may stay open for the next windows (see
   * above): the window is in the database once commitPending() or a later window commits.
   */
  async replaceWindow(write: WindowWrite, result: WindowLoadResult, tenant: Tenant): Promise<number> {
    const state = await this.table(write.table);
    const { table } = write;
    const inTransaction = this.db.ddlInTransaction;
    // DuckDB changes tables outside the window's transaction: an open one commits first.
    if (!inTransaction && this.pending !== undefined && needsTableChange(state, result)) await this.commitPending();
    if (inTransaction) await this.db.run("BEGIN");
    try {
      const columns = await this.fitTable(table, state, result);
      // The window's old rows and meta row out and its new meta row in, before its rows: one
      // transaction either way, and in DuckDB one round trip (runAll).
      const statements: Statement[] = [];
      if (!inTransaction && this.pending === undefined) {
        statements.push({ sql: "BEGIN", params: [] });
        this.pending = 0;
      }
      statements.push(
        { sql: `DELETE FROM ${q(table)} WHERE window_start = CAST($1 AS DATE)`, params: [write.startDate] },
        {
          sql: `DELETE FROM ${META_TABLE} WHERE kind = $1 AND window_start = CAST($2 AS DATE)`,
          params: [table, write.startDate],
        },
        {
          sql: `INSERT INTO ${META_TABLE} (kind, window_start, window_end, fetched_at, records, complete, tool_version, base_url, organization, key_fingerprint, api_version) VALUES ($1, CAST($2 AS DATE), CAST($3 AS DATE), CAST($4 AS ${this.db.types.timestamp}), $5, $6, $7, $8, $9, $10, $11)`,
          params: [
            table,
            write.startDate,
            write.endDate,
            write.fetchedAt.toISOString(),
            result.rows,
            write.complete,
            write.toolVersion,
            tenant.baseUrl,
            tenant.organization,
            tenant.keyFingerprint,
            tenant.apiVersion,
          ],
        },
      );
      await this.db.runAll(statements);
      const window = { start: write.startDate, end: write.endDate, fetchedAt: write.fetchedAt.toISOString() };
      // A window prepared straight from `raw` while another widened one of its columns (a
      // text column now getting numbers): its columns file after all (load-file.ts).
      const load =
        result.direct && !result.fields.every((_, i) => holdsAsSent(state.types.get(columns[i]!), result.kinds[i]!))
          ? WindowLoadWriter.rebuildColumns(result, state.registry)
          : result;
      await this.db.load(
        table,
        columns,
        window,
        load,
        columns.map((c) => this.db.types[state.types.get(c) as WarehouseType]),
      );
      if (inTransaction) await this.db.run("COMMIT");
      else {
        this.pending = (this.pending ?? 0) + result.rows;
        if (this.pending >= BATCH_ROWS) await this.commitPending();
      }
    } catch (error) {
      this.pending = undefined;
      await this.db.run("ROLLBACK").catch(() => undefined);
      // What the state says of columns and mapping may be what the rollback took away
      // (in DuckDB, the columns of every table are committed before: forgetting all is safe).
      this.tables.delete(table);
      throw error;
    }
    return result.rows;
  }

  /** Commits the windows loaded so far, if a transaction holds any (DuckDB). */
  async commitPending(): Promise<void> {
    if (this.pending === undefined) return;
    this.pending = undefined;
    try {
      await this.db.run("COMMIT");
    } catch (error) {
      await this.db.run("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }

  /**
   * The table made or completed for the window's fields: a new table is made with all its
   * columns in one statement, new fields of a table get their columns, and every new field
   * its mapping row, all in one transaction (DuckDB: one commit, not one per column); then
   * columns whose values no longer fit are widened (widen). Returns the column of each field
   * of the load file, in its order.
   */
  private async fitTable(table: string, state: TableState, result: WindowLoadResult): Promise<string[]> {
    const own = !this.db.ddlInTransaction && needsTableChange(state, result);
    // A failure is rolled back by replaceWindow, this transaction or the window's.
    if (own) await this.db.run("BEGIN");
    await this.addColumns(table, state, result);
    if (own) await this.db.run("COMMIT");
    const columns: string[] = [];
    for (const { field, type } of result.fields) {
      let column = state.columnOf.get(field.key)!;
      const current = state.types.get(column) as WarehouseType;
      const wider = widenType(current, type) ?? current;
      if (wider !== current) column = await this.widen(table, state, field.key, column, current, wider);
      columns.push(column);
    }
    return columns;
  }

  /**
   * New fields get their column (the table's own statement when it is new) and a mapping
   * row; a column the earlier version made for a field (dotted, mapped to nothing) keeps its
   * name. A table of the earlier version gets row numbers from now on (its rows keep none;
   * no primary key).
   */
  private async addColumns(table: string, state: TableState, result: WindowLoadResult): Promise<void> {
    const t = this.db.types;
    if (state.exists && !state.types.has("row_number")) {
      await this.db.run(`ALTER TABLE ${q(table)} ADD COLUMN IF NOT EXISTS row_number BIGINT`);
      state.types.set("row_number", "system");
    }
    const added: { column: string; type: WarehouseType }[] = [];
    const mapped: string[] = [];
    const mappedColumns = new Set(state.columnOf.values());
    for (const { field, type } of result.fields) {
      if (state.columnOf.has(field.key)) continue;
      let column: string;
      const legacy = legacyColumnName(field.path);
      if (!mappedColumns.has(legacy) && state.types.has(legacy) && state.types.get(legacy) !== "system") {
        column = legacy;
        state.allocator.claim(legacy);
      } else {
        column = state.allocator.allocate(field.path);
        added.push({ column, type: type ?? "text" });
      }
      mappedColumns.add(column);
      mapped.push(fieldKey(field.path), column);
      state.columnOf.set(field.key, column);
    }
    if (!state.exists) {
      await this.db.run(
        `CREATE TABLE IF NOT EXISTS ${q(table)} (window_start DATE NOT NULL, window_end DATE NOT NULL, fetched_at ${t.timestamp} NOT NULL, row_number BIGINT NOT NULL, raw ${t.json}${added.map(({ column, type }) => `, ${q(column)} ${t[type]}`).join("")}, PRIMARY KEY (window_start, row_number))`,
      );
      for (const column of SYSTEM_COLUMNS) state.types.set(column, "system");
      state.exists = true;
    } else for (const { column, type } of added) await this.db.run(`ALTER TABLE ${q(table)} ADD COLUMN ${q(column)} ${t[type]}`);
    for (const { column, type } of added) state.types.set(column, type);
    if (mapped.length > 0) {
      const rows = Array.from({ length: mapped.length / 2 }, (_, i) => `($1, $${2 * i + 2}, $${2 * i + 3})`);
      await this.db.run(`INSERT INTO ${COLUMNS_TABLE} (table_name, field, column_name) VALUES ${rows.join(", ")}`, [
        table,
        ...mapped,
      ]);
    }
  }

  private async widen(
    table: string,
    state: TableState,
    key: string,
    column: string,
    from: WarehouseType,
    to: WarehouseType,
  ): Promise<string> {
    const sqlType = this.db.types[to];
    const inTransaction = this.db.ddlInTransaction;
    try {
      if (inTransaction) await this.db.run("SAVEPOINT widen");
      await this.db.run(
        `ALTER TABLE ${q(table)} ALTER COLUMN ${q(column)} TYPE ${sqlType} USING CAST(${q(column)} AS ${sqlType})`,
      );
      if (inTransaction) await this.db.run("RELEASE SAVEPOINT widen");
      state.types.set(column, to);
      return column;
    } catch (error) {
      if (inTransaction) await this.db.run("ROLLBACK TO SAVEPOINT widen");
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      const wider = state.allocator.allocate([], `${column}_${to}`);
      await this.db.run(`ALTER TABLE ${q(table)} ADD COLUMN ${q(wider)} ${sqlType}`);
      await this.db.run(`UPDATE ${q(table)} SET ${q(wider)} = CAST(${q(column)} AS ${sqlType})`);
      await this.db.run(`UPDATE ${COLUMNS_TABLE} SET column_name = $1 WHERE table_name = $2 AND field = $3`, [wider, table, key]);
      state.types.set(wider, to);
      state.columnOf.set(key, wider);
      this.warn(
        `${table}.${column} cannot become ${sqlType} (${reason}): it keeps its ${this.db.types[from]} values, and the field continues in the new column ${table}.${wider}, which holds all of them`,
      );
      return wider;
    }
  }
}

/** Whether loading the window changes the table first: a new table or column, a wider type (DuckDB does that outside the window's transaction). */
function needsTableChange(state: TableState, result: WindowLoadResult): boolean {
  if (!state.exists || !state.types.has("row_number")) return true;
  for (const { field, type } of result.fields) {
    const column = state.columnOf.get(field.key);
    if (column === undefined) return true;
    const current = state.types.get(column) as WarehouseType;
    if ((widenType(current, type) ?? current) !== current) return true;
  }
  return false;
}

export type { SqlValue };
