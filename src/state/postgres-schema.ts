import type { Client } from "pg";
import { LocalFileError } from "../errors.js";

// The schema of the PostgreSQL state store (docs/state.md): `simadmin_state`, created and
// migrated on first use. `schema_version` holds one row per migration applied. Two first runs
// racing (two CI jobs on a new database) both succeed: the migration runs inside a
// transaction holding an advisory lock, and the second finds the work done.

export const SCHEMA = "simadmin_state";

const MIGRATIONS: readonly string[] = [
  // 1: entries (one row per key: a JSON value and its change time) and the holders of run locks
  // (who holds the advisory lock of a tenant and kind, for the line of a run waiting for it).
  `CREATE TABLE ${SCHEMA}.entries (
     service text NOT NULL,
     organization_id text NOT NULL,
     kind text NOT NULL,
     key text NOT NULL,
     value jsonb NOT NULL,
     updated_at timestamptz NOT NULL,
     PRIMARY KEY (service, organization_id, kind, key)
   );
   CREATE TABLE ${SCHEMA}.lock_holders (
     service text NOT NULL,
     organization_id text NOT NULL,
     kind text NOT NULL,
     backend_pid integer NOT NULL,
     holder jsonb NOT NULL,
     PRIMARY KEY (service, organization_id, kind)
   );`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The advisory lock (two int4 keys) taken around a migration: "simadmin" and "state" in ASCII. */
const MIGRATION_LOCK = [0x73696d61, 0x73746174] as const;

async function currentVersion(client: Client): Promise<number> {
  try {
    const result = await client.query<{ version: number | null }>(
      `SELECT max(version)::int AS version FROM ${SCHEMA}.schema_version`,
    );
    return result.rows[0]?.version ?? 0;
  } catch (error) {
    // 3F000: no such schema; 42P01: no such table — a database the store has never used.
    const code = (error as { code?: unknown }).code;
    if (code === "3F000" || code === "42P01") return 0;
    throw error;
  }
}

/** Creates or migrates the schema; `location` names the store in messages. */
export async function ensureSchema(client: Client, location: string): Promise<void> {
  let version = await currentVersion(client);
  if (version === SCHEMA_VERSION) return;
  if (version < SCHEMA_VERSION) {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1::int, $2::int)", [...MIGRATION_LOCK]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${SCHEMA}.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      // Again under the lock: a run racing us may have migrated meanwhile.
      version = await currentVersion(client);
      for (let next = version + 1; next <= SCHEMA_VERSION; next++) {
        await client.query(MIGRATIONS[next - 1]!);
        await client.query(`INSERT INTO ${SCHEMA}.schema_version (version) VALUES ($1)`, [next]);
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
    version = Math.max(version, SCHEMA_VERSION);
  }
  if (version > SCHEMA_VERSION) {
    throw new LocalFileError(
      `the state store ${location} has schema version ${version}, newer than this simadmin knows (${SCHEMA_VERSION})`,
      { path: location, hint: "upgrade simadmin on this machine to the version the other machines use" },
    );
  }
}
