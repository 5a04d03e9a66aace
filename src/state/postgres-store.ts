import { createHash } from "node:crypto";
import type { Client } from "pg";
import type { Clock } from "../clock.js";
import { CliError, LocalFileError } from "../errors.js";
import { currentHolder, describeHolder, lockTimeoutError, type HolderInfo } from "./holder.js";
import { openPostgresClient } from "./postgres-connect.js";
import { ensureSchema, SCHEMA } from "./postgres-schema.js";
import type { EntryChanges, ExportedEntry, KindSummary, LockOptions, StateKind, StateLock, StateStore, Tenant } from "./store.js";

// The PostgreSQL backend (docs/state.md): every machine pointed at the same database sees the
// same state. One connection for reads and batches (each batch one transaction), one more per
// run lock: a session advisory lock per tenant and kind, which PostgreSQL lets go by itself
// when the run's connection ends (a killed run holds nothing). Any failure of the database —
// gone mid-run, refused, timed out — is exit 11 naming the store with its password redacted;
// what was committed stays, so the next run continues from there.

const POLL_MS = 100;
const NOTICE_MS = 1_000;

/** Two int4 keys for pg_advisory_lock, from the tenant and kind. */
function lockKeys(tenant: Tenant, kind: StateKind): [number, number] {
  const hash = createHash("sha256").update(`${tenant.service}\u0000${tenant.organizationId}\u0000${kind}`).digest();
  return [hash.readInt32BE(0), hash.readInt32BE(4)];
}

function heldKey(tenant: Tenant, kind: StateKind): string {
  return JSON.stringify([tenant.service, tenant.organizationId, kind]);
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const first = message.split("\n")[0] || (typeof code === "string" ? code : "failed");
  return first;
}

/** A run lock this store holds: its connection's backend, and why it was lost, once it was. */
interface HeldLock {
  keys: [number, number];
  backendPid: number;
  lost?: string;
}

export class PostgresStateStore implements StateStore {
  private clientPromise: Promise<Client> | undefined;
  private readonly locks = new Set<Client>();
  /** By tenant and kind: a write of that state first checks that its lock is still held. */
  private readonly held = new Map<string, HeldLock>();

  constructor(
    private readonly url: string,
    readonly location: string,
    private readonly clock: Clock,
    private readonly lockClock: Clock = clock,
    /** PGSSLMODE and the like: the run's environment, never process.env. */
    private readonly env: Readonly<Record<string, string | undefined>> = {},
  ) {}

  /** Any failure as exit 11 naming the store (never the password: `location` is redacted). */
  private fail(error: unknown): CliError {
    // db/ names the URL and what failed; the message says it is the state store.
    if (error instanceof LocalFileError && !error.message.startsWith("the state store")) {
      return error.rephrase(`the state store ${this.location} cannot be used: ${error.message}`, error.hint);
    }
    if (error instanceof CliError) return error;
    const code = (error as { code?: unknown }).code;
    return new LocalFileError(`the state store ${this.location} cannot be used: ${reason(error)}`, {
      path: this.location,
      code: typeof code === "string" ? code : undefined,
      hint: "every change made before this one is kept; run again once the database answers (check the URL, the server and the network)",
      cause: error,
    });
  }

  /**
   * Before a change to state whose run lock this store holds: the lock must still be held.
   * PostgreSQL lets an advisory lock go when its session ends, so a lock connection dropped
   * mid-run (the network, a restart, pg_terminate_backend) means another run may have taken
   * the lock and changed the state meanwhile; this run then stops with exit 11 rather than
   * write over it (docs/state.md "Locks"). Checked on the server (pg_locks), not only from
   * the connection's events, which may come late.
   */
  private async checkLock(client: Client, tenant: Tenant, kind: StateKind): Promise<void> {
    const lock = this.held.get(heldKey(tenant, kind));
    if (lock === undefined) return;
    if (lock.lost === undefined) {
      const result = await client.query<{ held: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = $1
            AND objsubid = 2 AND classid::bigint = ($2::bigint & 4294967295) AND objid::bigint = ($3::bigint & 4294967295)) AS held`,
        [lock.backendPid, ...lock.keys],
      );
      if (result.rows[0]?.held !== true) lock.lost = "it is no longer held";
    }
    if (lock.lost !== undefined) {
      throw new LocalFileError(
        `the state store ${this.location} cannot be used: the connection holding this run's lock of the ${kind} state was lost (${lock.lost}); nothing more was written, as another run may have taken the lock`,
        {
          path: this.location,
          hint: "run again: it takes the lock anew and continues from what was recorded",
        },
      );
    }
  }

  private async run<T>(work: (client: Client) => Promise<T>): Promise<T> {
    try {
      this.clientPromise ??= this.connect();
      return await work(await this.clientPromise);
    } catch (error) {
      throw this.fail(error);
    }
  }

  private async connect(): Promise<Client> {
    const client = await openPostgresClient(this.url, `simadmin state (pid ${process.pid})`, this.env);
    try {
      await ensureSchema(client, this.location);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  async get(tenant: Tenant, kind: StateKind, key: string): Promise<unknown> {
    return this.run(async (client) => {
      const result = await client.query<{ value: unknown }>(
        `SELECT value FROM ${SCHEMA}.entries WHERE service = $1 AND organization_id = $2 AND kind = $3 AND key = $4`,
        [tenant.service, tenant.organizationId, kind, key],
      );
      return result.rows[0]?.value;
    });
  }

  async list(tenant: Tenant, kind: StateKind): Promise<Map<string, unknown>> {
    return this.run(async (client) => {
      const result = await client.query<{ key: string; value: unknown }>(
        `SELECT key, value FROM ${SCHEMA}.entries WHERE service = $1 AND organization_id = $2 AND kind = $3 ORDER BY key`,
        [tenant.service, tenant.organizationId, kind],
      );
      return new Map(result.rows.map((row) => [row.key, row.value]));
    });
  }

  async put(tenant: Tenant, kind: StateKind, changes: EntryChanges): Promise<void> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    const entries = Object.entries(changes);
    const rows = entries
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => ({ key, value, updatedAt }));
    const deleted = entries.filter(([, value]) => value === null || value === undefined).map(([key]) => key);
    await this.write(tenant, kind, rows, deleted);
  }

  async importEntries(
    tenant: Tenant,
    kind: StateKind,
    entries: readonly ExportedEntry[],
    options: { replace?: boolean } = {},
  ): Promise<void> {
    await this.write(tenant, kind, entries, [], options.replace === true);
  }

  /** One transaction: the rows upserted, the keys deleted. */
  private async write(
    tenant: Tenant,
    kind: StateKind,
    rows: readonly ExportedEntry[],
    deleted: readonly string[],
    replace = false,
  ): Promise<void> {
    await this.run(async (client) => {
      await client.query("BEGIN");
      try {
        await this.checkLock(client, tenant, kind);
        if (replace) {
          await client.query(`DELETE FROM ${SCHEMA}.entries WHERE service = $1 AND organization_id = $2 AND kind = $3`, [
            tenant.service,
            tenant.organizationId,
            kind,
          ]);
        }
        if (rows.length > 0) {
          await client.query(
            `INSERT INTO ${SCHEMA}.entries (service, organization_id, kind, key, value, updated_at)
             SELECT $1, $2, $3, e.key, e.value, (e.updated_at)::timestamptz
               FROM jsonb_to_recordset($4::jsonb) AS e(key text, value jsonb, updated_at text)
             ON CONFLICT (service, organization_id, kind, key)
             DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
            [
              tenant.service,
              tenant.organizationId,
              kind,
              JSON.stringify(rows.map((r) => ({ key: r.key, value: r.value, updated_at: r.updatedAt }))),
            ],
          );
        }
        if (deleted.length > 0) {
          await client.query(
            `DELETE FROM ${SCHEMA}.entries WHERE service = $1 AND organization_id = $2 AND kind = $3 AND key = ANY($4::text[])`,
            [tenant.service, tenant.organizationId, kind, deleted],
          );
        }
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    });
  }

  async claim(tenant: Tenant, kind: StateKind, key: string, value: unknown): Promise<{ inserted: boolean; value: unknown }> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    return this.run(async (client) => {
      await this.checkLock(client, tenant, kind);
      const inserted = await client.query<{ value: unknown }>(
        `INSERT INTO ${SCHEMA}.entries (service, organization_id, kind, key, value, updated_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::timestamptz)
         ON CONFLICT (service, organization_id, kind, key) DO NOTHING RETURNING value`,
        [tenant.service, tenant.organizationId, kind, key, JSON.stringify(value), updatedAt],
      );
      if (inserted.rows.length > 0) return { inserted: true, value: inserted.rows[0]!.value };
      const existing = await client.query<{ value: unknown }>(
        `SELECT value FROM ${SCHEMA}.entries WHERE service = $1 AND organization_id = $2 AND kind = $3 AND key = $4`,
        [tenant.service, tenant.organizationId, kind, key],
      );
      return { inserted: false, value: existing.rows[0]?.value };
    });
  }

  async claimMany(
    tenant: Tenant,
    kind: StateKind,
    claims: EntryChanges,
  ): Promise<Map<string, { inserted: boolean; value: unknown }>> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    const rows = Object.entries(claims)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => ({ key, value }));
    const result = new Map<string, { inserted: boolean; value: unknown }>();
    if (rows.length === 0) return result;
    // One statement: the keys inserted come back; the others' values are read after it (an
    // entry deleted in between reads as undefined, as claim() would say).
    return this.run(async (client) => {
      await this.checkLock(client, tenant, kind);
      const inserted = await client.query<{ key: string }>(
        `INSERT INTO ${SCHEMA}.entries (service, organization_id, kind, key, value, updated_at)
         SELECT $1, $2, $3, e.key, e.value, $5::timestamptz FROM jsonb_to_recordset($4::jsonb) AS e(key text, value jsonb)
         ON CONFLICT (service, organization_id, kind, key) DO NOTHING RETURNING key`,
        [tenant.service, tenant.organizationId, kind, JSON.stringify(rows), updatedAt],
      );
      const won = new Set(inserted.rows.map((r) => r.key));
      const lost = rows.filter((r) => !won.has(r.key)).map((r) => r.key);
      const held = new Map<string, unknown>();
      if (lost.length > 0) {
        const existing = await client.query<{ key: string; value: unknown }>(
          `SELECT key, value FROM ${SCHEMA}.entries WHERE service = $1 AND organization_id = $2 AND kind = $3 AND key = ANY($4::text[])`,
          [tenant.service, tenant.organizationId, kind, lost],
        );
        for (const row of existing.rows) held.set(row.key, row.value);
      }
      for (const { key, value } of rows) {
        result.set(key, won.has(key) ? { inserted: true, value } : { inserted: false, value: held.get(key) });
      }
      return result;
    });
  }

  async lock(tenant: Tenant, kind: StateKind, options: LockOptions): Promise<StateLock> {
    // The schema first (a holder row needs its table), on the main connection.
    await this.run(async () => undefined);
    const me = currentHolder(options.purpose, this.lockClock.now());
    const keys = lockKeys(tenant, kind);
    const who = [tenant.service, tenant.organizationId, kind];
    let client: Client;
    try {
      client = await openPostgresClient(this.url, `${me.purpose} lock (pid ${me.pid} on ${me.host})`, this.env);
    } catch (error) {
      throw this.fail(error);
    }
    const started = this.lockClock.now();
    let told = false;
    let backendPid = 0;
    try {
      for (;;) {
        const result = await client.query<{ ok: boolean; pid: number }>(
          "SELECT pg_try_advisory_lock($1::int, $2::int) AS ok, pg_backend_pid() AS pid",
          keys,
        );
        if (result.rows[0]?.ok) {
          backendPid = result.rows[0].pid;
          break;
        }
        const waited = this.lockClock.now() - started;
        if (waited > options.timeoutMs || (!told && waited >= NOTICE_MS)) {
          const holder = describeHolder(await this.holderOf(client, who));
          if (waited > options.timeoutMs) throw lockTimeoutError(kind, holder, options.timeoutMs, this.location);
          told = true;
          options.onWait?.(holder);
        }
        await this.lockClock.sleep(POLL_MS, options.signal);
      }
      await client.query(
        `INSERT INTO ${SCHEMA}.lock_holders (service, organization_id, kind, backend_pid, holder)
         VALUES ($1, $2, $3, pg_backend_pid(), $4::jsonb)
         ON CONFLICT (service, organization_id, kind) DO UPDATE SET backend_pid = EXCLUDED.backend_pid, holder = EXCLUDED.holder`,
        [...who, JSON.stringify(me)],
      );
    } catch (error) {
      await client.end().catch(() => undefined);
      throw this.fail(error);
    }
    this.locks.add(client);
    const heldLock: HeldLock = { keys, backendPid };
    this.held.set(heldKey(tenant, kind), heldLock);
    let released = false;
    // The session's end is the lock's end: known at once when the connection says so.
    const lost = (why: string) => () => {
      if (!released) heldLock.lost ??= why;
    };
    client.on("error", (error: Error) => lost(reason(error))());
    client.on("end", lost("the connection closed"));
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.locks.delete(client);
        if (this.held.get(heldKey(tenant, kind)) === heldLock) this.held.delete(heldKey(tenant, kind));
        // Ending the session lets the advisory lock go; the holder row is only for messages.
        await client
          .query(
            `DELETE FROM ${SCHEMA}.lock_holders WHERE service = $1 AND organization_id = $2 AND kind = $3 AND backend_pid = pg_backend_pid()`,
            who,
          )
          .catch(() => undefined);
        await client.end().catch(() => undefined);
      },
    };
  }

  /** The holder row, when its session is still there (a killed holder's row is left behind). */
  private async holderOf(client: Client, who: string[]): Promise<HolderInfo | undefined> {
    const result = await client.query<{ holder: HolderInfo }>(
      `SELECT h.holder FROM ${SCHEMA}.lock_holders h
        WHERE h.service = $1 AND h.organization_id = $2 AND h.kind = $3
          AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = h.backend_pid)`,
      who,
    );
    return result.rows[0]?.holder;
  }

  async summary(): Promise<KindSummary[]> {
    return this.run(async (client) => {
      const result = await client.query<{
        service: string;
        organization_id: string;
        kind: StateKind;
        entries: number;
        oldest: Date;
        newest: Date;
      }>(
        `SELECT service, organization_id, kind, count(*)::int AS entries, min(updated_at) AS oldest, max(updated_at) AS newest
           FROM ${SCHEMA}.entries GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      );
      return result.rows.map((row) => ({
        tenant: { service: row.service, organizationId: row.organization_id },
        kind: row.kind,
        entries: row.entries,
        oldest: row.oldest.toISOString(),
        newest: row.newest.toISOString(),
      }));
    });
  }

  async *exportAll(): AsyncIterable<ExportedEntry & { tenant: Tenant; kind: StateKind }> {
    const rows = await this.run(async (client) => {
      const result = await client.query<{
        service: string;
        organization_id: string;
        kind: StateKind;
        key: string;
        value: unknown;
        updated_at: Date;
      }>(`SELECT service, organization_id, kind, key, value, updated_at FROM ${SCHEMA}.entries ORDER BY 1, 2, 3, 4`);
      return result.rows;
    });
    for (const row of rows) {
      yield {
        tenant: { service: row.service, organizationId: row.organization_id },
        kind: row.kind,
        key: row.key,
        value: row.value,
        updatedAt: row.updated_at.toISOString(),
      };
    }
  }

  async close(): Promise<void> {
    for (const client of this.locks) await client.end().catch(() => undefined);
    this.locks.clear();
    const pending = this.clientPromise;
    this.clientPromise = undefined;
    if (pending) await (await pending.catch(() => undefined))?.end().catch(() => undefined);
  }
}
