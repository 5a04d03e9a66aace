import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { BudgetStore, RedisLocation } from "./store.js";
import { emptyRateBudgetState, type RateBudgetState, type RateLimitedOutcome, type Reservation } from "./budget.js";
import { budgetAddressHash } from "./file-store.js";
import { REQUEST_GROUPS, type RateLimits, type RequestGroup } from "./limits.js";
import { BUDGET_SCRIPT } from "./redis-budget.lua.js";

// The rate budget in Redis, shared by every machine that uses it. This module is
// imported only when SIMADMIN_RATE_STORE names Redis (open-store.ts), so ioredis costs the
// other runs nothing.
//
// One key per service address and request group — `simadmin:rate:v1:{<hash of the base URL>}:reports`
// — never per API key or profile: the service limits by client address, so every key of a
// fleet behind one address spends one budget. The key holds the group's state as JSON, in
// the shape of budget.ts; one Lua script (redis-budget.lua.ts) does each step atomically with the
// server's TIME as the only clock, so slots never collide across machines and machines
// whose clocks disagree still share one sliding window. Times returned (slotAt, sentAt) are
// server times: handles to pass back, never compared with this machine's clock.
//
// A run marks itself alive with a lease key (`…:owner:<uuid>`, LEASE_MS, renewed while it
// runs); when the lease of a run that died while queued expires, its future slots are freed.

/** How long to wait for the connection, then for each command: never a hang. */
export const CONNECT_TIMEOUT_MS = 2_000;
export const COMMAND_TIMEOUT_MS = 2_000;
/** A run's lease on its queued slots; renewed every third of it while the run lives. */
export const LEASE_MS = 30_000;
const KEY_PREFIX = "simadmin:rate:v1:";

export interface RedisStoreOptions {
  location: RedisLocation;
  baseUrl: string;
  limits: RateLimits;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  leaseMs?: number;
}

export class RedisBudgetStore implements BudgetStore {
  readonly #client: Redis;
  readonly #limits: RateLimits;
  readonly #keyBase: string;
  readonly #owner = randomUUID();
  readonly #leaseMs: number;
  readonly description: string;
  #heartbeat: NodeJS.Timeout | undefined;

  private constructor(client: Redis, options: RedisStoreOptions) {
    this.#client = client;
    this.#limits = options.limits;
    this.#keyBase = `${KEY_PREFIX}{${budgetAddressHash(options.baseUrl)}}:`;
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.description = `redis ${options.location.display}`;
  }

  /** Connects (bounded by the connect timeout) or throws. */
  static async connect(options: RedisStoreOptions): Promise<RedisBudgetStore> {
    const { location } = options;
    const client = new Redis({
      host: location.host,
      port: location.port,
      db: location.db,
      ...(location.username === undefined ? {} : { username: location.username }),
      ...(location.password === undefined ? {} : { password: location.password }),
      ...(location.tls ? { tls: { servername: location.host } } : {}),
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      // No queueing, no reconnecting: a failure surfaces at once and the run falls back to
      // its local ledger (open-store.ts) instead of waiting for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      reconnectOnError: () => false,
      enableReadyCheck: false,
    });
    // Failures reach the caller through the command that failed; an unhandled "error"
    // event would crash the process instead. The event carries the cause ("connect
    // ECONNREFUSED 10.0.0.5:6379", "WRONGPASS invalid username-password pair"), while
    // connect() itself only rejects with "Connection is closed.": that
    // cause is what the warning names.
    let cause: Error | undefined;
    client.on("error", (error: Error) => {
      cause ??= error;
    });
    try {
      await client.connect();
      await client.ping();
    } catch (error) {
      client.disconnect();
      throw cause ?? error;
    }
    return new RedisBudgetStore(client, options);
  }

  async reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation> {
    const maxWait = maxWaitMs === undefined || !Number.isFinite(maxWaitMs) ? -1 : Math.max(0, Math.floor(maxWaitMs));
    const [reserved, waitMs, slotAt] = await this.#run(group, "reserve", maxWait);
    if (reserved === 1) this.#keepAlive();
    return { reserved: reserved === 1, waitMs: waitMs ?? 0, slotAt: slotAt ?? 0 };
  }

  async settle(group: RequestGroup, slotAt: number, startedLateMs = 0): Promise<number> {
    const [sentAt] = await this.#run(group, "settle", slotAt, Math.max(0, Math.round(startedLateMs)));
    return sentAt ?? slotAt;
  }

  async release(group: RequestGroup, slotAt: number): Promise<void> {
    await this.#run(group, "release", slotAt);
  }

  async noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome> {
    const [shrunk, effectiveLimit] = await this.#run(
      group,
      "note",
      sentAt,
      retryAfterMs === undefined ? -1 : Math.max(0, retryAfterMs),
    );
    return { shrunk: shrunk === 1, effectiveLimit: effectiveLimit ?? this.#limits[group].limit };
  }

  async snapshot(): Promise<RateBudgetState> {
    const state = emptyRateBudgetState();
    for (const group of REQUEST_GROUPS) {
      const raw = await this.#eval(group, "snapshot", 0, 0);
      state.groups[group] = fromStored(typeof raw === "string" ? raw : "{}");
    }
    return state;
  }

  async close(): Promise<void> {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    // A polite QUIT when it answers at once; otherwise just drop the socket.
    await Promise.race([this.#client.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 200).unref())]);
    this.#client.disconnect();
  }

  async #run(group: RequestGroup, op: string, a1: number, a2 = 0): Promise<number[]> {
    const result = await this.#eval(group, op, a1, a2);
    return Array.isArray(result) ? result.map(Number) : [];
  }

  #eval(group: RequestGroup, op: string, a1: number, a2: number): Promise<unknown> {
    const { limit, windowMs } = this.#limits[group];
    return this.#client.eval(
      BUDGET_SCRIPT,
      1,
      `${this.#keyBase}${group}`,
      op,
      limit,
      windowMs,
      `${this.#keyBase}owner:`,
      this.#owner,
      this.#leaseMs,
      Math.round(a1),
      Math.round(a2),
    );
  }

  /** Renews this run's lease while it may hold queued slots; never keeps the process alive. */
  #keepAlive(): void {
    if (this.#heartbeat) return;
    const key = `${this.#keyBase}owner:${this.#owner}`;
    this.#heartbeat = setInterval(
      () => {
        this.#client.set(key, "1", "PX", this.#leaseMs).catch(() => undefined);
      },
      Math.max(100, Math.floor(this.#leaseMs / 3)),
    );
    this.#heartbeat.unref();
  }
}

interface StoredGroup {
  sends?: unknown;
  pending?: unknown;
  strikes?: unknown;
  reduced?: unknown;
  adjustedAt?: unknown;
  failed?: unknown;
  blockedUntil?: unknown;
}

/** The script's JSON (where an empty array reads as {}) as budget.ts state. */
function fromStored(raw: string): RateBudgetState["groups"]["reports"] {
  let stored: StoredGroup = {};
  try {
    stored = JSON.parse(raw) as StoredGroup;
  } catch {
    // An unreadable state is an empty one, as in the file ledger.
  }
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
  const reduced = num(stored.reduced);
  return {
    sends: list(stored.sends).map(num),
    pending: list(stored.pending).map((p) => {
      const entry = p as { at?: unknown; owner?: unknown };
      return { at: num(entry.at), owner: typeof entry.owner === "string" ? entry.owner : "" };
    }),
    strikes: list(stored.strikes).map((s) => {
      const entry = s as { at?: unknown; accepted?: unknown };
      return { at: num(entry.at), accepted: num(entry.accepted) };
    }),
    reducedLimit: reduced > 0 ? reduced : null,
    adjustedAt: num(stored.adjustedAt),
    failedProbes: num(stored.failed),
    blockedUntil: num(stored.blockedUntil),
  };
}
