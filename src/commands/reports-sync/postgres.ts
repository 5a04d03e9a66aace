import { createReadStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { connectPostgres, type PostgresOptions } from "../../db/postgres-connect.js";
import { throwIfAborted, UsageError } from "../../errors.js";
import { q, type LockWait, type SqlConnection, type SqlValue } from "./connection.js";
import type { WindowLoadResult } from "./load-file.js";
import { showPath } from "../../messages.js";

// The shared-warehouse target (docs/cli-contract.md, Sync: `postgres://…`). The connection —
// libpq URL rules, timeouts, exit 11 for what the database refuses, the password never
// shown — is src/db/postgres-connect.ts, shared with the state store. A window's rows go in
// with `COPY … FROM STDIN` (pg-copy-streams, bundled) from its load file.

/** The advisory lock of `reports sync` in a database: one number, the same for every run. */
const SYNC_LOCK_KEY = 0x53_59_4e_43_5f_31; // "SYNC_1": a constant no other tool picks by accident
const LOCK_POLL_MS = 100;

export async function openPostgres(url: string, options: PostgresOptions): Promise<SqlConnection> {
  const session = await connectPostgres(url, { applicationName: "simadmin reports sync", ...options });
  // Dates and times are read back as text: in UTC, as the service's dates are.
  await session.query("SET TIME ZONE 'UTC'");
  return {
    label: session.location,
    types: {
      boolean: "BOOLEAN",
      bigint: "BIGINT",
      double: "DOUBLE PRECISION",
      date: "DATE",
      timestamp: "TIMESTAMPTZ",
      text: "TEXT",
      json: "JSONB",
    },
    format: "copy",
    ddlInTransaction: true,
    run: async (sql, params: readonly SqlValue[] = []) => {
      await session.query(sql, params);
    },
    async runAll(statements) {
      for (const { sql, params } of statements) await session.query(sql, params);
    },
    all: (sql, params: readonly SqlValue[] = []) => session.query<Record<string, unknown>>(sql, params),
    async load(table, columns, _window, result): Promise<void> {
      const { from } = await import("pg-copy-streams");
      const sql = `COPY ${q(table)} (window_start, window_end, fetched_at, row_number, raw${columns.map((c) => `, ${q(c)}`).join("")}) FROM STDIN`;
      try {
        const copy = session.client.query(from(sql));
        // Lines are padded only when some are short (a field appeared after the first record).
        if (result.lineFields.some((n) => n < result.fields.length))
          await pipeline(createReadStream(result.file, { encoding: "utf8", highWaterMark: 1 << 20 }), padLines(result), copy);
        else await pipeline(createReadStream(result.file, { highWaterMark: 1 << 20 }), copy);
      } catch (error) {
        throw session.failure(error, sql);
      }
    },
    async lock(wait: LockWait): Promise<void> {
      let told = false;
      for (let waited = 0; ; waited += LOCK_POLL_MS) {
        const [row] = await session.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [SYNC_LOCK_KEY]);
        if (row?.ok) return;
        const holder = await lockHolder();
        if (waited >= wait.timeoutMs)
          throw new UsageError(
            `another reports sync into ${session.location} (${holder}) still runs after ${Math.round(wait.timeoutMs / 1000)} s (--lock-timeout)`,
            { hint: "let it finish, or raise --lock-timeout" },
          );
        if (!told) {
          wait.onWait(
            `another reports sync into ${showPath(session.location)} runs (${holder}): waiting up to ${Math.round(wait.timeoutMs / 1000)} s (--lock-timeout)`,
          );
          told = true;
        }
        await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
        throwIfAborted(wait.signal);
      }
    },
    close: () => session.close(),
  };

  async function lockHolder(): Promise<string> {
    const rows = await session.query<{ pid: number; app: string | null; addr: string | null }>(
      "SELECT a.pid, a.application_name AS app, host(a.client_addr) AS addr FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = $1 LIMIT 1",
      [SYNC_LOCK_KEY],
    );
    const row = rows[0];
    return row ? `server process ${row.pid}${row.addr ? ` from ${row.addr}` : ""}` : "a session";
  }
}

/** COPY wants every column on every line: lines written before a field first appeared get \N for it. */
function padLines(result: WindowLoadResult): Transform {
  const total = result.fields.length;
  let line = 0;
  let rest = "";
  const pad = (text: string): string => {
    const missing = total - (result.lineFields[line++] ?? total);
    return missing > 0 ? `${text}${"\t\\N".repeat(missing)}\n` : `${text}\n`;
  };
  return new Transform({
    decodeStrings: false,
    transform(chunk: string, _encoding, done) {
      const text = rest + chunk;
      const parts = text.split("\n");
      rest = parts.pop() ?? "";
      done(null, parts.map(pad).join(""));
    },
    flush(done) {
      done(null, rest === "" ? "" : pad(rest));
    },
  });
}
