import { ServiceError } from "../../errors.js";
import type { SqlConnection, SqlValue } from "./connection.js";

// The shared-warehouse target (docs/cli-contract.md, Sync: `postgres://…`), through `pg`,
// loaded with import() by this command only. The URL may carry a password: messages name
// the host, port and database only.

/** host:port/database of a postgres:// URL, for messages. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get("host") || "localhost";
    return `postgres://${host}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
  } catch {
    return "postgres://…";
  }
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}

export async function openPostgres(url: string): Promise<SqlConnection> {
  const label = describePostgresUrl(url);
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  // An idle connection dropped by the server must not crash the process: the next query fails.
  client.on("error", () => undefined);
  try {
    await client.connect();
    // Dates and times are read back as text: in UTC, as the service's dates are.
    await client.query("SET TIME ZONE 'UTC'");
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new ServiceError(`cannot connect to PostgreSQL at ${label}: ${reason(error)}`, {
      hint: "check the --db URL (host, port, database, user) and that the server accepts connections",
      cause: error,
      delivery: "not-sent",
    });
  }
  const wrap = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw new ServiceError(`PostgreSQL at ${label}: ${reason(error)}`, { cause: error, retryable: false });
    }
  };
  return {
    label,
    types: {
      column: { boolean: "BOOLEAN", bigint: "BIGINT", double: "DOUBLE PRECISION", text: "TEXT" },
      json: "JSONB",
      timestamp: "TIMESTAMPTZ",
    },
    maxParameters: 65_000,
    run: (sql, params: readonly SqlValue[] = []) =>
      wrap(async () => {
        await client.query(sql, [...params]);
      }),
    all: (sql, params: readonly SqlValue[] = []) =>
      wrap(async () => (await client.query<Record<string, unknown>>(sql, [...params])).rows),
    close: () => client.end().catch(() => undefined),
  };
}
