import { connectPostgres, type PostgresOptions } from "../../db/postgres-connect.js";
import type { SqlConnection, SqlValue } from "./connection.js";

// The shared-warehouse target (docs/cli-contract.md, Sync: `postgres://…`). The connection
// — libpq URL rules, timeouts, exit 11 for what the database refuses, the password never
// shown — is src/db/postgres-connect.ts, shared with the state store.

export async function openPostgres(url: string, options: PostgresOptions): Promise<SqlConnection> {
  const session = await connectPostgres(url, { applicationName: "simadmin reports sync", ...options });
  // Dates and times are read back as text: in UTC, as the service's dates are.
  await session.query("SET TIME ZONE 'UTC'");
  return {
    label: session.location,
    types: {
      column: { boolean: "BOOLEAN", bigint: "BIGINT", double: "DOUBLE PRECISION", text: "TEXT" },
      json: "JSONB",
      timestamp: "TIMESTAMPTZ",
    },
    maxParameters: 65_000,
    run: async (sql, params: readonly SqlValue[] = []) => {
      await session.query(sql, params);
    },
    all: (sql, params: readonly SqlValue[] = []) => session.query<Record<string, unknown>>(sql, params),
    close: () => session.close(),
  };
}
