import type { Client } from "pg";
import { connectPostgres } from "../db/postgres-connect.js";

// One PostgreSQL connection for the state store, through the shared db/ module (libpq URL and
// sslmode rules, PGSSLMODE from the run's environment, timeouts, the password never shown).
// `pg` loads there, on first use: a run that never names a postgres:// store never loads it.

/** Connecting and each statement of the store: milliseconds normally; this stops a hung server hanging a run. */
const TIMEOUT_MS = 30_000;

export async function openPostgresClient(
  url: string,
  applicationName: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Client> {
  const session = await connectPostgres(url, { timeoutMs: TIMEOUT_MS, env, applicationName: applicationName.slice(0, 63) });
  return session.client;
}
