import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { BudgetStore } from "./budget-store.js";
import { emptyRateBudgetState, type RateBudgetState, type RateLimitedOutcome, type Reservation } from "./rate-budget.js";
import { budgetAddressHash } from "./rate-ledger.js";
import { REQUEST_GROUPS, type RateLimits, type RequestGroup } from "./rate-limits.js";
import type { RedisLocation } from "./rate-store.js";

// The rate budget in Redis, shared by every machine that uses it (issue 17). This module is
// imported only when SIMADMIN_RATE_STORE names Redis (rate-store.ts), so ioredis costs the
// other runs nothing.
//
// One key per service address and request group — `simadmin:rate:v1:{<hash of the base URL>}:reports`
// — never per API key or profile: the service limits by client address, so every key of a
// fleet behind one address spends one budget. The key holds the group's state as JSON, in
// the shape of rate-budget.ts; one Lua script (below) does each step atomically with the
// server's TIME as the only clock, so slots never collide across machines and machines
// whose clocks disagree still share one sliding window. Times returned (slotAt, sentAt) are
// server times: handles to pass back, never compared with this machine's clock.
//
// A run marks itself alive with a lease key (`…:owner:<uuid>`, LEASE_MS, renewed while it
// runs); when the lease of a run that died while queued expires, its future slots are freed.

/** How long to wait for the connection, then for each command: never a hang (issue 17 item 3). */
export const CONNECT_TIMEOUT_MS = 2_000;
export const COMMAND_TIMEOUT_MS = 2_000;
/** A run's lease on its queued slots; renewed every third of it while the run lives. */
export const LEASE_MS = 30_000;
const KEY_PREFIX = "simadmin:rate:v1:";

export const BUDGET_SCRIPT = `
-- The rate budget of one request group, kept in Redis (issue 17). The same arithmetic as
-- src/api/rate-budget.ts, on the same state shape, run atomically by the server with its
-- own clock (TIME), so machines whose clocks disagree still share one sliding window.
--
-- KEYS[1]  the group's state (JSON)
-- ARGV     op, limit, windowMs, ownerKeyPrefix, owner, leaseMs, a1, a2
--   reserve  a1 = maxWaitMs (-1: none)            -> {reserved 0|1, waitMs, slotAt}
--   settle   a1 = slotAt                          -> {sentAt}
--   release  a1 = slotAt                          -> {}
--   note     a1 = sentAt, a2 = retryAfterMs (-1)  -> {shrunk 0|1, effectiveLimit}
--   snapshot                                      -> state JSON
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local op = ARGV[1]
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local ownerPrefix = ARGV[4]
local owner = ARGV[5]
local lease = tonumber(ARGV[6])
local a1 = tonumber(ARGV[7])
local a2 = tonumber(ARGV[8])

local margin = math.max(150, math.ceil(window * 0.015)) -- safetyMarginMs
local horizon = window + margin
local MAX_ARRIVAL_DELAY_MS = 1000
local STRIKES_TO_LOWER = 3
local MAX_FAILED_PROBES = 3

local s = nil
local raw = redis.call('GET', KEYS[1])
if raw then
  local ok, decoded = pcall(cjson.decode, raw)
  if ok and type(decoded) == 'table' then s = decoded end
end
if s == nil then s = {} end
-- cjson turns an empty array into {}; both read as an empty table.
s.sends = s.sends or {}
s.pending = s.pending or {}
s.strikes = s.strikes or {}
s.reduced = tonumber(s.reduced) or 0 -- 0: the configured limit holds
s.adjustedAt = tonumber(s.adjustedAt) or 0
s.failed = tonumber(s.failed) or 0
s.blockedUntil = tonumber(s.blockedUntil) or 0

-- This run is alive: its reservations stay (see releaseAbandoned).
if owner ~= '' then redis.call('SET', ownerPrefix .. owner, '1', 'PX', lease) end

local function removeOne(list, value)
  for i = 1, #list do
    if list[i] == value then
      table.remove(list, i)
      return true
    end
  end
  return false
end

local function dropPending(at)
  for i = 1, #s.pending do
    if s.pending[i].at == at then
      table.remove(s.pending, i)
      return
    end
  end
end

local function record(at)
  local i = #s.sends
  while i > 0 and s.sends[i] > at do i = i - 1 end
  table.insert(s.sends, i + 1, at)
end

-- A run that died (its lease expired) never sends the slots it had queued for later.
local function releaseAbandoned()
  local keep = {}
  for _, p in ipairs(s.pending) do
    if redis.call('EXISTS', ownerPrefix .. p.owner) == 1 then
      table.insert(keep, p)
    elseif p.at > now then
      removeOne(s.sends, p.at)
    end
  end
  s.pending = keep
end

local function prune()
  local keepAfter = now - 2 * horizon
  while #s.sends > 0 and s.sends[1] <= keepAfter do table.remove(s.sends, 1) end
  local keep = {}
  for _, p in ipairs(s.pending) do
    if p.at > keepAfter then table.insert(keep, p) end
  end
  s.pending = keep
end

local function recover()
  if s.reduced == 0 then return end
  local quiet = window * 2 ^ s.failed
  local steps = math.floor((now - s.adjustedAt) / quiet)
  if steps < 1 then return end
  local raised = s.reduced + steps * math.max(1, math.ceil(limit / 10))
  if raised >= limit then s.reduced = 0 else s.reduced = raised end
  s.adjustedAt = s.adjustedAt + steps * quiet
  if s.reduced == 0 then s.failed = 0 end
end

local function effectiveLimit()
  recover()
  if s.reduced == 0 then return limit end
  return math.min(limit, s.reduced)
end

local function nextSlot()
  prune()
  local lim = effectiveLimit()
  local n = #s.sends
  local last = now
  if n > 0 then last = s.sends[n] end
  local slot = math.max(now, math.min(s.blockedUntil, now + window), last)
  local blocking = s.sends[n - lim + 1]
  if n - lim + 1 >= 1 and blocking ~= nil then slot = math.max(slot, blocking + window + margin) end
  return slot
end

releaseAbandoned()
local result

if op == 'reserve' then
  local slot = nextSlot()
  local wait = slot - now
  if a1 >= 0 and wait > a1 then
    result = { 0, wait, slot }
  else
    record(slot)
    table.insert(s.pending, { at = slot, owner = owner })
    result = { 1, wait, slot }
  end
elseif op == 'settle' then
  local at = math.max(a1, math.min(now, a1 + MAX_ARRIVAL_DELAY_MS))
  removeOne(s.sends, a1)
  dropPending(a1)
  record(at)
  result = { at }
elseif op == 'release' then
  removeOne(s.sends, a1)
  dropPending(a1)
  result = {}
elseif op == 'note' then
  removeOne(s.sends, a1)
  dropPending(a1)
  if a2 > 0 then s.blockedUntil = math.max(s.blockedUntil, now + math.min(a2, window)) end
  local current = effectiveLimit()
  local accepted = 0
  for _, at in ipairs(s.sends) do
    if at > a1 - horizon and at <= a1 then accepted = accepted + 1 end
  end
  if accepted >= current then
    result = { 0, current }
  else
    local strikes = {}
    for _, strike in ipairs(s.strikes) do
      if strike.at > now - horizon then table.insert(strikes, strike) end
    end
    table.insert(strikes, { at = now, accepted = accepted })
    s.strikes = strikes
    if #strikes < STRIKES_TO_LOWER then
      result = { 0, current }
    else
      local lowered = 1
      for _, strike in ipairs(strikes) do lowered = math.max(lowered, strike.accepted) end
      s.strikes = {}
      if lowered >= current then
        result = { 0, current }
      else
        if s.reduced == 0 then s.failed = 0 else s.failed = math.min(MAX_FAILED_PROBES, s.failed + 1) end
        s.reduced = lowered
        s.adjustedAt = now
        result = { 1, lowered }
      end
    end
  end
elseif op == 'snapshot' then
  prune()
  recover()
else
  return redis.error_reply('unknown op ' .. tostring(op))
end

-- Idle budgets clean themselves up; a day outlasts every window and recovery step.
local encoded = cjson.encode(s)
redis.call('SET', KEYS[1], encoded, 'PX', 86400000)
if op == 'snapshot' then return encoded end
return result
`;

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
      // its local ledger (rate-store.ts) instead of waiting for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      reconnectOnError: () => false,
      enableReadyCheck: false,
    });
    // Failures reach the caller through the command that failed; an unhandled "error"
    // event would crash the process instead. The event carries the cause ("connect
    // ECONNREFUSED 10.0.0.5:6379", "WRONGPASS invalid username-password pair"), while
    // connect() itself only rejects with "Connection is closed." (issue 22 item 6): that
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

  async settle(group: RequestGroup, slotAt: number): Promise<number> {
    const [sentAt] = await this.#run(group, "settle", slotAt);
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

/** The script's JSON (where an empty array reads as {}) as rate-budget.ts state. */
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
