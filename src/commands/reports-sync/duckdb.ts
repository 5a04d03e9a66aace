import { readFileSync } from "node:fs";
import { access, constants, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { InterruptedError, LocalFileError, UsageError } from "../../errors.js";
import { q, type LockWait, type SqlConnection, type SqlValue, type Statement, type WindowRow } from "./connection.js";
import type { WindowLoadResult } from "./load-file.js";
import { piecePaths } from "./line-file.js";
import { showPath } from "../../messages.js";

// The embedded target (docs/cli-contract.md, Sync: "a DuckDB file, the embedded default").
// @duckdb/node-api is loaded with import() by this command only, so no other command pays for
// it: its JavaScript is one vendor file of the bundle, its native binding (@duckdb/node-bindings,
// pinned to the same version) stays in node_modules (scripts/bundle.mjs; docs/architecture.md,
// Dependencies: 124 modules cost 85–90 ms of CPU at each start, the one file ~40). A window's
// rows are read by DuckDB's own JSON reader from the load file (load-file.ts), inside the
// window's transaction: the database does the bulk work (docs/reports-sync.md, Figures).

type DuckDB = typeof import("@duckdb/node-api");

const LOCK_POLL_MS = 100;
/** What DuckDB may use besides this process's own memory (docs/reports-sync.md, Figures: peak memory). */
const MEMORY_LIMIT = "128MB";
/** Freed memory DuckDB's allocator may keep before giving it back. */
const ALLOCATOR_FLUSH = "8MB";
/** The largest record DuckDB's JSON reader takes (bytes): the 1 MB values real reports can hold, and then some. */
const MAX_OBJECT = 16_777_216;
/** Names DuckDB keeps for itself: a file named so is attached as `warehouse` (databaseName). */
const RESERVED_NAMES = new Set(["memory", "system", "temp", "main"]);
/**
 * DuckDB's own allocator (a jemalloc of its own) keeps freed pages for 5 s, then another 5 s
 * as "muzzy" pages that still count as the process's memory: each window's reader buffers and
 * row groups are freed and allocated anew within that time, so the memory DuckDB held grew
 * with the window. Given back after 100 ms instead, straight to the system
 * (docs/reports-sync.md, Figures: memory). Read once, when DuckDB's library loads; a
 * DUCKDB_JE_MALLOC_CONF the user set is kept.
 */
const ALLOCATOR_CONF = "dirty_decay_ms:100,muzzy_decay_ms:0";
/** Rows per row group written by this run (createWaiting): a multiple of DuckDB's vector of 2,048 rows. */
const ROW_GROUP_ROWS = 30_720;

interface Attached {
  instance: import("@duckdb/node-api").DuckDBInstance;
  connection: import("@duckdb/node-api").DuckDBConnection;
}

export interface DuckDbOpen {
  readOnly: boolean;
  lock: LockWait;
}

/** What a path that exists but is no regular file is, in words; undefined for a file or nothing. */
async function notAFile(path: string): Promise<string | undefined> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return undefined; // not there yet: DuckDB creates it (or says why it cannot)
  }
  if (info.isFile()) return undefined;
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isDirectory()) return "a directory";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * What can be checked of the file without DuckDB, before any request: that it is a regular
 * file or nothing, in a directory this process can write into.
 */
export async function checkDuckDbPath(path: string): Promise<void> {
  // DuckDB opens whatever it is given, blocking in its own thread: a FIFO without a writer
  // hangs it for ever, and the process with it — Ctrl-C and SIGTERM included, since the exit
  // waits for that thread. A database is a regular file: anything else stops here, before
  // any request (docs/reports-sync.md "Targets").
  const kind = await notAFile(path);
  if (kind !== undefined) {
    throw new LocalFileError(`cannot use ${path} as the DuckDB database: it is ${kind}`, {
      path,
      hint: "give --db a DuckDB file (or a path where one can be created), or postgres://…",
    });
  }
  // DuckDB's own message for a missing directory is an "IO Error"; say it as for any file.
  try {
    await access(dirname(path), constants.W_OK);
  } catch (error) {
    throw LocalFileError.fromSystem(error, dirname(path), "write the database into");
  }
}

export async function openDuckDb(path: string, options: DuckDbOpen): Promise<SqlConnection> {
  await checkDuckDbPath(path);
  const duckdb = await loadDuckDb();
  const { instance, connection } = await createWaiting(duckdb, path, options);
  const fail = (error: unknown): never => {
    throw duckDbFailure(error, path);
  };
  return {
    label: path,
    types: {
      boolean: "BOOLEAN",
      bigint: "BIGINT",
      double: "DOUBLE",
      date: "DATE",
      timestamp: "TIMESTAMP",
      text: "VARCHAR",
      json: "JSON",
    },
    format: "ndjson",
    ddlInTransaction: false,
    async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
      await connection.run(sql, [...params]).catch(fail);
    },
    async runAll(statements: readonly Statement[]): Promise<void> {
      // One call for all of them, their parameters written as literals: each statement run
      // with parameters is three calls into DuckDB's thread (extract, prepare, execute), each
      // waiting for this thread's next turn while it prepares the next window
      // (docs/reports-sync.md, Figures). A text with a NUL cannot be a literal (the SQL is a C
      // string): then one by one.
      const literals = statements.map(({ sql, params }) => withLiterals(sql, params));
      if (literals.every((sql) => sql !== undefined)) await connection.run(literals.join(";\n")).catch(fail);
      else for (const { sql, params } of statements) await connection.run(sql, [...params]).catch(fail);
    },
    async all(sql: string, params: readonly SqlValue[] = []): Promise<Record<string, unknown>[]> {
      const reader = await connection.runAndReadAll(sql, [...params]).catch(fail);
      return reader.getRowObjectsJson();
    },
    async load(table, columns, window, result, types): Promise<void> {
      if (result.direct) {
        if (result.rows > 0) await connection.run(directInsert(table, columns, window, result, types)).catch(fail);
        return;
      }
      const spec = [`'r': 'BIGINT'`, ...types.map((type, i) => `'c${i}': '${type}'`)].join(", ");
      const select = columns.map((_, i) => `, c${i}`).join("");
      const file = sqlFiles(piecePaths(result.file, result.pieces));
      const raws = sqlFiles(piecePaths(result.rawFile ?? `${result.file}.raw`, result.rawPieces));
      // The columns' lines and the raw lines side by side, row for row (POSITIONAL JOIN: both
      // files are read in order): `raw` reaches the JSON column as the text it is.
      await connection
        .run(
          `INSERT INTO ${q(table)} (window_start, window_end, fetched_at, row_number, raw${columns.map((c) => `, ${q(c)}`).join("")}) ` +
            `SELECT DATE '${window.start}', DATE '${window.end}', CAST('${window.fetchedAt}' AS TIMESTAMP), r, o.json${select} ` +
            `FROM read_json(${file}, format = 'newline_delimited', columns = {${spec}}, maximum_object_size = ${MAX_OBJECT}) ` +
            `POSITIONAL JOIN read_ndjson_objects(${raws}, maximum_object_size = ${MAX_OBJECT}) o`,
        )
        .catch(fail);
    },
    // DuckDB's own file lock keeps other processes out while this one has the file open.
    lock: () => Promise.resolve(),
    close(): Promise<void> {
      // Closing checkpoints the write-ahead log into the file: it can find the disk full too.
      try {
        connection.closeSync();
        instance.closeSync();
      } catch (error) {
        return Promise.reject(duckDbFailure(error, path));
      }
      return Promise.resolve();
    },
  };
}

/** DuckDB's binding, its allocator set as ALLOCATOR_CONF says on the first load. */
async function loadDuckDb(): Promise<DuckDB> {
  const own = process.env.DUCKDB_JE_MALLOC_CONF === undefined;
  if (own) process.env.DUCKDB_JE_MALLOC_CONF = ALLOCATOR_CONF;
  try {
    return await import("@duckdb/node-api");
  } finally {
    // Read by then: not handed on to the processes this one starts.
    if (own) delete process.env.DUCKDB_JE_MALLOC_CONF;
  }
}

const sqlText = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** `sql` with its $1, $2, … as SQL literals; undefined when a value cannot be one. */
function withLiterals(sql: string, params: readonly SqlValue[]): string | undefined {
  const literal = (value: SqlValue | undefined): string | undefined => {
    if (value === null) return "NULL";
    if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
    if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
    if (typeof value === "string") return value.includes("\0") ? undefined : sqlText(value);
    return undefined;
  };
  const values = params.map(literal);
  if (values.some((value) => value === undefined)) return undefined;
  // The statements are the store's own templates: a $n is always a parameter there.
  let missing = false;
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => values[Number(n) - 1] ?? ((missing = true), ""));
  return missing ? undefined : text;
}

/**
 * A file written in pieces (load-file.ts), as the JSON readers take it: a list, read in its
 * order, each piece into a buffer of its own — a window's file takes a piece's size in memory
 * while it loads, not its own (docs/reports-sync.md, Figures: memory).
 */
const sqlFiles = (files: readonly string[]): string =>
  files.length === 1 ? sqlText(files[0]!) : `[${files.map(sqlText).join(", ")}]`;

/**
 * The rows of a window loaded straight from its raw file (load-file.ts): DuckDB's JSON
 * reader takes each field into its column, nested objects as STRUCTs, beside the record
 * itself and its row number, all three in file order (POSITIONAL JOIN).
 */
function directInsert(
  table: string,
  columns: readonly string[],
  window: WindowRow,
  result: WindowLoadResult,
  types: readonly string[],
): string {
  type Node = Map<string, Node | number>;
  const root: Node = new Map();
  result.fields.forEach(({ field }, i) => {
    let node = root;
    field.path.forEach((name, depth) => {
      if (depth === field.path.length - 1) node.set(name, i);
      else {
        let child = node.get(name);
        if (!(child instanceof Map)) node.set(name, (child = new Map()));
        node = child;
      }
    });
  });
  const typeOf = (entry: Node | number): string =>
    typeof entry === "number"
      ? types[entry]!
      : `STRUCT(${[...entry].map(([name, child]) => `${q(name)} ${typeOf(child)}`).join(", ")})`;
  const spec = [...root].map(([name, entry]) => `${sqlText(name)}: ${sqlText(typeOf(entry))}`).join(", ");
  const values = result.fields.map(({ field }) =>
    field.path.slice(1).reduce((expr, name) => `struct_extract(${expr}, ${sqlText(name)})`, `j.${q(field.path[0]!)}`),
  );
  const raws = sqlFiles(piecePaths(result.file, result.pieces));
  const fields =
    spec === ""
      ? ""
      : `POSITIONAL JOIN read_json(${raws}, format = 'newline_delimited', columns = {${spec}}, maximum_object_size = ${MAX_OBJECT}) j `;
  return (
    `INSERT INTO ${q(table)} (window_start, window_end, fetched_at, row_number, raw${columns.map((c) => `, ${q(c)}`).join("")}) ` +
    `SELECT DATE ${sqlText(window.start)}, DATE ${sqlText(window.end)}, CAST(${sqlText(window.fetchedAt)} AS TIMESTAMP), n.r, o.json${values.map((v) => `, ${v}`).join("")} ` +
    `FROM range(1, ${result.rows + 1}) n(r) ${fields}POSITIONAL JOIN read_ndjson_objects(${raws}, maximum_object_size = ${MAX_OBJECT}) o`
  );
}

/**
 * Opens the file, waiting while another process holds it (a dashboard, another sync), with a
 * line saying so, up to --lock-timeout: then exit 2 for another sync, exit 11 for a reader.
 *
 * The file is attached to an in-memory instance rather than opened as its main database:
 * only ATTACH takes a row group size, and rows written in groups of ROW_GROUP_ROWS instead of
 * DuckDB's 122,880 cost a quarter less CPU and ~40 MB less memory at 1 M records (uncommitted
 * rows wait in memory until a group is full, then are compressed into the file:
 * docs/reports-sync.md, Figures). The setting is this connection's: the file stays an
 * ordinary DuckDB file (tables mix row groups of either size; any reader opens it).
 */
async function createWaiting(duckdb: DuckDB, path: string, options: DuckDbOpen): Promise<Attached> {
  const instance = await duckdb.DuckDBInstance.create(":memory:", {
    // A CLI beside other work: DuckDB would take 80 % of the memory and every core. The
    // JSON reader needs buffers of twice its largest object (16 MB here). One thread: the
    // window being loaded takes one core while the run prepares the next on the other —
    // a second DuckDB thread cost a quarter more CPU for the same load (docs/reports-sync.md,
    // Figures).
    memory_limit: MEMORY_LIMIT,
    threads: "1",
    // What spills goes beside the database, as it would for a database opened directly
    // (an in-memory instance would spill into the working directory).
    temp_directory: `${path}.tmp`,
    // DuckDB's own allocator (a bundled jemalloc, so glibc's MALLOC_* settings do not
    // reach it) keeps freed memory for reuse up to 128 MB by default: the JSON reader's
    // buffers and each window's rows freed are given back to the system at once instead
    // (docs/reports-sync.md, Figures: peak memory).
    allocator_flush_threshold: ALLOCATOR_FLUSH,
    allocator_bulk_deallocation_flush_threshold: ALLOCATOR_FLUSH,
    // With one thread the load runs on the caller's thread, whose freed memory DuckDB's
    // own flushing does not reach: jemalloc's background thread gives it back.
    allocator_background_threads: "true",
    // A transaction's rows are written into the file a row group at a time as each fills,
    // not held until five are (DuckDB's default): windows share a transaction of up to
    // 250,000 rows (store.ts), and the held groups filled the 128 MB near 90,000 rows — that
    // window's load then wrote two groups at once and spilled, often after the last window
    // was prepared, so the run waited for it (docs/reports-sync.md, Figures).
    write_buffer_row_group_count: "1",
  });
  const connection = await instance.connect();
  const name = q(databaseName(path));
  const attach = `ATTACH ${sqlText(path)} AS ${name} (ROW_GROUP_SIZE ${ROW_GROUP_ROWS}${options.readOnly ? ", READ_ONLY" : ""})`;
  let told = false;
  for (let waited = 0; ; waited += LOCK_POLL_MS) {
    try {
      await connection.run(attach);
      await connection.run(`USE ${name}`);
      return { instance, connection };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const fail = (thrown: Error): never => {
        connection.closeSync();
        instance.closeSync();
        throw thrown;
      };
      if (!/lock/i.test(message)) fail(duckDbFailure(error, path));
      const pid = /PID (\d+)/.exec(message)?.[1];
      const holder = pid ? describeHolder(pid) : "another process";
      if (waited >= options.lock.timeoutMs) {
        const sync = pid !== undefined && holderRunsSync(pid);
        const text = `${path} is held by ${holder}; waited ${Math.round(options.lock.timeoutMs / 1000)} s (--lock-timeout)`;
        if (sync) fail(new UsageError(text, { hint: "another reports sync is running into this file: let it finish" }));
        fail(
          new LocalFileError(text, {
            path,
            hint: "close the program that has it open (a dashboard, a DuckDB session), or raise --lock-timeout",
          }),
        );
      }
      if (!told) {
        options.lock.onWait(
          `${showPath(path)} is held by ${holder}: waiting up to ${Math.round(options.lock.timeoutMs / 1000)} s (--lock-timeout)`,
        );
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      if (options.lock.signal.aborted) fail(new InterruptedError());
    }
  }
}

/**
 * The name the file is attached under: the one DuckDB gives a file it opens (its name
 * without extension), which its messages show ("… on database "reports" …").
 */
function databaseName(path: string): string {
  const name = basename(path).replace(/\..*$/, "");
  return name === "" || RESERVED_NAMES.has(name.toLowerCase()) ? "warehouse" : name;
}

function describeHolder(pid: string): string {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return `process ${pid} (${command.slice(0, 80)})`;
  } catch {
    return `process ${pid}`;
  }
}

/**
 * Whether the holder is another `simadmin reports sync`: judged by its arguments, never by
 * the path of its executable (a Node installed under a directory named simadmin is not one).
 */
function holderRunsSync(pid: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).slice(1);
    // A whole argument, not a substring: a script or path that merely mentions simadmin is not one.
    return (
      args.some((arg) => /(^|[/\\])(simadmin(\.js)?|boot\.cjs|cli\.cjs)$/.test(arg)) ||
      (args.includes("reports") && args.includes("sync"))
    );
  } catch {
    return false;
  }
}

/** DuckDB's errors: a full disk or an unreadable file is exit 11 naming the file. */
function duckDbFailure(error: unknown, path: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n")[0]!;
  // First: DuckDB says "IO Error" for a file that is not a database too.
  if (/not a valid DuckDB|Serialization|version/i.test(message))
    return new LocalFileError(`cannot open the DuckDB database ${path}: ${first}`, {
      path,
      hint: "check that the path is a DuckDB file this version can read",
      cause: error,
    });
  if (/No space left|disk.*full|could not write|IO Error|Permission denied|read-only/i.test(message)) {
    return new LocalFileError(`cannot write the DuckDB database ${path}: ${first}`, {
      path,
      code: /No space left/i.test(message) ? "ENOSPC" : undefined,
      hint: /No space left/i.test(message) ? "free space on that disk and run again" : "check the file and its directory",
      cause: error,
    });
  }
  if (/Out of Memory/i.test(message))
    return new LocalFileError(`DuckDB ran out of memory writing ${path} (it may use ${MEMORY_LIMIT}): ${first}`, {
      path,
      hint: "the windows written so far are kept: free memory and run again; if a window fails again, its records may be too large for DuckDB: sync into PostgreSQL instead",
      cause: error,
    });
  return error instanceof Error ? error : new Error(message);
}
