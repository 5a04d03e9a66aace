// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { BudgetStore, RedisLocation } from "./store.js";
import { emptyRateBudgetState, type RateBudgetState, type RateLimitedOutcome, type Reservation } from "./budget.js";
import { budgetAddressHash } from "./file-store.js";
import { REQUEST_GROUPS, type RateLimits, type RequestGroup } from "./limits.js";
import { BUDGET_SCRIPT } from "./redis-budget.lua.js";

// The rate budget in Redis, shared by every machine that uses it (issue 17). This module is
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

/** How long to wait for the connection, then for each command: never a hang (issue 17 item 3). */
export const CONNECT_TIMEOUT_MS = 2_000;
export const COMMAND_TIMEOUT_MS = 2_000;
/** A run's lease on its queued slots; renewed every third of it while the run lives. */
export const LEASE_MS = 30_000;
const KEY_PREFIX = stryMutAct_9fa48("749") ? "" : (stryCov_9fa48("749"), "simadmin:rate:v1:");
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
    if (stryMutAct_9fa48("750")) {
      {}
    } else {
      stryCov_9fa48("750");
      this.#client = client;
      this.#limits = options.limits;
      this.#keyBase = stryMutAct_9fa48("751") ? `` : (stryCov_9fa48("751"), `${KEY_PREFIX}{${budgetAddressHash(options.baseUrl)}}:`);
      this.#leaseMs = stryMutAct_9fa48("752") ? options.leaseMs && LEASE_MS : (stryCov_9fa48("752"), options.leaseMs ?? LEASE_MS);
      this.description = stryMutAct_9fa48("753") ? `` : (stryCov_9fa48("753"), `redis ${options.location.display}`);
    }
  }

  /** Connects (bounded by the connect timeout) or throws. */
  static async connect(options: RedisStoreOptions): Promise<RedisBudgetStore> {
    if (stryMutAct_9fa48("754")) {
      {}
    } else {
      stryCov_9fa48("754");
      const {
        location
      } = options;
      const client = new Redis(stryMutAct_9fa48("755") ? {} : (stryCov_9fa48("755"), {
        host: location.host,
        port: location.port,
        db: location.db,
        ...((stryMutAct_9fa48("758") ? location.username !== undefined : stryMutAct_9fa48("757") ? false : stryMutAct_9fa48("756") ? true : (stryCov_9fa48("756", "757", "758"), location.username === undefined)) ? {} : stryMutAct_9fa48("759") ? {} : (stryCov_9fa48("759"), {
          username: location.username
        })),
        ...((stryMutAct_9fa48("762") ? location.password !== undefined : stryMutAct_9fa48("761") ? false : stryMutAct_9fa48("760") ? true : (stryCov_9fa48("760", "761", "762"), location.password === undefined)) ? {} : stryMutAct_9fa48("763") ? {} : (stryCov_9fa48("763"), {
          password: location.password
        })),
        ...(location.tls ? stryMutAct_9fa48("764") ? {} : (stryCov_9fa48("764"), {
          tls: stryMutAct_9fa48("765") ? {} : (stryCov_9fa48("765"), {
            servername: location.host
          })
        }) : {}),
        lazyConnect: stryMutAct_9fa48("766") ? false : (stryCov_9fa48("766"), true),
        connectTimeout: stryMutAct_9fa48("767") ? options.connectTimeoutMs && CONNECT_TIMEOUT_MS : (stryCov_9fa48("767"), options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
        commandTimeout: stryMutAct_9fa48("768") ? options.commandTimeoutMs && COMMAND_TIMEOUT_MS : (stryCov_9fa48("768"), options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS),
        // No queueing, no reconnecting: a failure surfaces at once and the run falls back to
        // its local ledger (open-store.ts) instead of waiting for Redis to come back.
        enableOfflineQueue: stryMutAct_9fa48("769") ? true : (stryCov_9fa48("769"), false),
        maxRetriesPerRequest: 0,
        retryStrategy: stryMutAct_9fa48("770") ? () => undefined : (stryCov_9fa48("770"), () => null),
        reconnectOnError: stryMutAct_9fa48("771") ? () => undefined : (stryCov_9fa48("771"), () => stryMutAct_9fa48("772") ? true : (stryCov_9fa48("772"), false)),
        enableReadyCheck: stryMutAct_9fa48("773") ? true : (stryCov_9fa48("773"), false)
      }));
      // Failures reach the caller through the command that failed; an unhandled "error"
      // event would crash the process instead. The event carries the cause ("connect
      // ECONNREFUSED 10.0.0.5:6379", "WRONGPASS invalid username-password pair"), while
      // connect() itself only rejects with "Connection is closed." (issue 22 item 6): that
      // cause is what the warning names.
      let cause: Error | undefined;
      client.on(stryMutAct_9fa48("774") ? "" : (stryCov_9fa48("774"), "error"), (error: Error) => {
        if (stryMutAct_9fa48("775")) {
          {}
        } else {
          stryCov_9fa48("775");
          stryMutAct_9fa48("776") ? cause &&= error : (stryCov_9fa48("776"), cause ??= error);
        }
      });
      try {
        if (stryMutAct_9fa48("777")) {
          {}
        } else {
          stryCov_9fa48("777");
          await client.connect();
          await client.ping();
        }
      } catch (error) {
        if (stryMutAct_9fa48("778")) {
          {}
        } else {
          stryCov_9fa48("778");
          client.disconnect();
          throw stryMutAct_9fa48("779") ? cause && error : (stryCov_9fa48("779"), cause ?? error);
        }
      }
      return new RedisBudgetStore(client, options);
    }
  }
  async reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation> {
    if (stryMutAct_9fa48("780")) {
      {}
    } else {
      stryCov_9fa48("780");
      const maxWait = (stryMutAct_9fa48("783") ? maxWaitMs === undefined && !Number.isFinite(maxWaitMs) : stryMutAct_9fa48("782") ? false : stryMutAct_9fa48("781") ? true : (stryCov_9fa48("781", "782", "783"), (stryMutAct_9fa48("785") ? maxWaitMs !== undefined : stryMutAct_9fa48("784") ? false : (stryCov_9fa48("784", "785"), maxWaitMs === undefined)) || (stryMutAct_9fa48("786") ? Number.isFinite(maxWaitMs) : (stryCov_9fa48("786"), !Number.isFinite(maxWaitMs))))) ? stryMutAct_9fa48("787") ? +1 : (stryCov_9fa48("787"), -1) : stryMutAct_9fa48("788") ? Math.min(0, Math.floor(maxWaitMs)) : (stryCov_9fa48("788"), Math.max(0, Math.floor(maxWaitMs)));
      const [reserved, waitMs, slotAt] = await this.#run(group, stryMutAct_9fa48("789") ? "" : (stryCov_9fa48("789"), "reserve"), maxWait);
      if (stryMutAct_9fa48("792") ? reserved !== 1 : stryMutAct_9fa48("791") ? false : stryMutAct_9fa48("790") ? true : (stryCov_9fa48("790", "791", "792"), reserved === 1)) this.#keepAlive();
      return stryMutAct_9fa48("793") ? {} : (stryCov_9fa48("793"), {
        reserved: stryMutAct_9fa48("796") ? reserved !== 1 : stryMutAct_9fa48("795") ? false : stryMutAct_9fa48("794") ? true : (stryCov_9fa48("794", "795", "796"), reserved === 1),
        waitMs: stryMutAct_9fa48("797") ? waitMs && 0 : (stryCov_9fa48("797"), waitMs ?? 0),
        slotAt: stryMutAct_9fa48("798") ? slotAt && 0 : (stryCov_9fa48("798"), slotAt ?? 0)
      });
    }
  }
  async settle(group: RequestGroup, slotAt: number): Promise<number> {
    if (stryMutAct_9fa48("799")) {
      {}
    } else {
      stryCov_9fa48("799");
      const [sentAt] = await this.#run(group, stryMutAct_9fa48("800") ? "" : (stryCov_9fa48("800"), "settle"), slotAt);
      return stryMutAct_9fa48("801") ? sentAt && slotAt : (stryCov_9fa48("801"), sentAt ?? slotAt);
    }
  }
  async release(group: RequestGroup, slotAt: number): Promise<void> {
    if (stryMutAct_9fa48("802")) {
      {}
    } else {
      stryCov_9fa48("802");
      await this.#run(group, stryMutAct_9fa48("803") ? "" : (stryCov_9fa48("803"), "release"), slotAt);
    }
  }
  async noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome> {
    if (stryMutAct_9fa48("804")) {
      {}
    } else {
      stryCov_9fa48("804");
      const [shrunk, effectiveLimit] = await this.#run(group, stryMutAct_9fa48("805") ? "" : (stryCov_9fa48("805"), "note"), sentAt, (stryMutAct_9fa48("808") ? retryAfterMs !== undefined : stryMutAct_9fa48("807") ? false : stryMutAct_9fa48("806") ? true : (stryCov_9fa48("806", "807", "808"), retryAfterMs === undefined)) ? stryMutAct_9fa48("809") ? +1 : (stryCov_9fa48("809"), -1) : stryMutAct_9fa48("810") ? Math.min(0, retryAfterMs) : (stryCov_9fa48("810"), Math.max(0, retryAfterMs)));
      return stryMutAct_9fa48("811") ? {} : (stryCov_9fa48("811"), {
        shrunk: stryMutAct_9fa48("814") ? shrunk !== 1 : stryMutAct_9fa48("813") ? false : stryMutAct_9fa48("812") ? true : (stryCov_9fa48("812", "813", "814"), shrunk === 1),
        effectiveLimit: stryMutAct_9fa48("815") ? effectiveLimit && this.#limits[group].limit : (stryCov_9fa48("815"), effectiveLimit ?? this.#limits[group].limit)
      });
    }
  }
  async snapshot(): Promise<RateBudgetState> {
    if (stryMutAct_9fa48("816")) {
      {}
    } else {
      stryCov_9fa48("816");
      const state = emptyRateBudgetState();
      for (const group of REQUEST_GROUPS) {
        if (stryMutAct_9fa48("817")) {
          {}
        } else {
          stryCov_9fa48("817");
          const raw = await this.#eval(group, stryMutAct_9fa48("818") ? "" : (stryCov_9fa48("818"), "snapshot"), 0, 0);
          state.groups[group] = fromStored((stryMutAct_9fa48("821") ? typeof raw !== "string" : stryMutAct_9fa48("820") ? false : stryMutAct_9fa48("819") ? true : (stryCov_9fa48("819", "820", "821"), typeof raw === (stryMutAct_9fa48("822") ? "" : (stryCov_9fa48("822"), "string")))) ? raw : stryMutAct_9fa48("823") ? "" : (stryCov_9fa48("823"), "{}"));
        }
      }
      return state;
    }
  }
  async close(): Promise<void> {
    if (stryMutAct_9fa48("824")) {
      {}
    } else {
      stryCov_9fa48("824");
      if (stryMutAct_9fa48("826") ? false : stryMutAct_9fa48("825") ? true : (stryCov_9fa48("825", "826"), this.#heartbeat)) clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
      // A polite QUIT when it answers at once; otherwise just drop the socket.
      await Promise.race(stryMutAct_9fa48("827") ? [] : (stryCov_9fa48("827"), [this.#client.quit().catch(() => undefined), new Promise(stryMutAct_9fa48("828") ? () => undefined : (stryCov_9fa48("828"), resolve => setTimeout(resolve, 200).unref()))]));
      this.#client.disconnect();
    }
  }
  async #run(group: RequestGroup, op: string, a1: number, a2 = 0): Promise<number[]> {
    if (stryMutAct_9fa48("829")) {
      {}
    } else {
      stryCov_9fa48("829");
      const result = await this.#eval(group, op, a1, a2);
      return Array.isArray(result) ? result.map(Number) : stryMutAct_9fa48("830") ? ["Stryker was here"] : (stryCov_9fa48("830"), []);
    }
  }
  #eval(group: RequestGroup, op: string, a1: number, a2: number): Promise<unknown> {
    if (stryMutAct_9fa48("831")) {
      {}
    } else {
      stryCov_9fa48("831");
      const {
        limit,
        windowMs
      } = this.#limits[group];
      return this.#client.eval(BUDGET_SCRIPT, 1, stryMutAct_9fa48("832") ? `` : (stryCov_9fa48("832"), `${this.#keyBase}${group}`), op, limit, windowMs, stryMutAct_9fa48("833") ? `` : (stryCov_9fa48("833"), `${this.#keyBase}owner:`), this.#owner, this.#leaseMs, Math.round(a1), Math.round(a2));
    }
  }

  /** Renews this run's lease while it may hold queued slots; never keeps the process alive. */
  #keepAlive(): void {
    if (stryMutAct_9fa48("834")) {
      {}
    } else {
      stryCov_9fa48("834");
      if (stryMutAct_9fa48("836") ? false : stryMutAct_9fa48("835") ? true : (stryCov_9fa48("835", "836"), this.#heartbeat)) return;
      const key = stryMutAct_9fa48("837") ? `` : (stryCov_9fa48("837"), `${this.#keyBase}owner:${this.#owner}`);
      this.#heartbeat = setInterval(() => {
        if (stryMutAct_9fa48("838")) {
          {}
        } else {
          stryCov_9fa48("838");
          this.#client.set(key, stryMutAct_9fa48("839") ? "" : (stryCov_9fa48("839"), "1"), stryMutAct_9fa48("840") ? "" : (stryCov_9fa48("840"), "PX"), this.#leaseMs).catch(() => undefined);
        }
      }, stryMutAct_9fa48("841") ? Math.min(100, Math.floor(this.#leaseMs / 3)) : (stryCov_9fa48("841"), Math.max(100, Math.floor(stryMutAct_9fa48("842") ? this.#leaseMs * 3 : (stryCov_9fa48("842"), this.#leaseMs / 3)))));
      this.#heartbeat.unref();
    }
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
  if (stryMutAct_9fa48("843")) {
    {}
  } else {
    stryCov_9fa48("843");
    let stored: StoredGroup = {};
    try {
      if (stryMutAct_9fa48("844")) {
        {}
      } else {
        stryCov_9fa48("844");
        stored = JSON.parse(raw) as StoredGroup;
      }
    } catch {
      // An unreadable state is an empty one, as in the file ledger.
    }
    const list = stryMutAct_9fa48("845") ? () => undefined : (stryCov_9fa48("845"), (() => {
      const list = (value: unknown): unknown[] => Array.isArray(value) ? value : stryMutAct_9fa48("846") ? ["Stryker was here"] : (stryCov_9fa48("846"), []);
      return list;
    })());
    const num = stryMutAct_9fa48("847") ? () => undefined : (stryCov_9fa48("847"), (() => {
      const num = (value: unknown): number => (stryMutAct_9fa48("850") ? typeof value === "number" || Number.isFinite(value) : stryMutAct_9fa48("849") ? false : stryMutAct_9fa48("848") ? true : (stryCov_9fa48("848", "849", "850"), (stryMutAct_9fa48("852") ? typeof value !== "number" : stryMutAct_9fa48("851") ? true : (stryCov_9fa48("851", "852"), typeof value === (stryMutAct_9fa48("853") ? "" : (stryCov_9fa48("853"), "number")))) && Number.isFinite(value))) ? value : 0;
      return num;
    })());
    const reduced = num(stored.reduced);
    return stryMutAct_9fa48("854") ? {} : (stryCov_9fa48("854"), {
      sends: list(stored.sends).map(num),
      pending: list(stored.pending).map(p => {
        if (stryMutAct_9fa48("855")) {
          {}
        } else {
          stryCov_9fa48("855");
          const entry = p as {
            at?: unknown;
            owner?: unknown;
          };
          return stryMutAct_9fa48("856") ? {} : (stryCov_9fa48("856"), {
            at: num(entry.at),
            owner: (stryMutAct_9fa48("859") ? typeof entry.owner !== "string" : stryMutAct_9fa48("858") ? false : stryMutAct_9fa48("857") ? true : (stryCov_9fa48("857", "858", "859"), typeof entry.owner === (stryMutAct_9fa48("860") ? "" : (stryCov_9fa48("860"), "string")))) ? entry.owner : stryMutAct_9fa48("861") ? "Stryker was here!" : (stryCov_9fa48("861"), "")
          });
        }
      }),
      strikes: list(stored.strikes).map(s => {
        if (stryMutAct_9fa48("862")) {
          {}
        } else {
          stryCov_9fa48("862");
          const entry = s as {
            at?: unknown;
            accepted?: unknown;
          };
          return stryMutAct_9fa48("863") ? {} : (stryCov_9fa48("863"), {
            at: num(entry.at),
            accepted: num(entry.accepted)
          });
        }
      }),
      reducedLimit: (stryMutAct_9fa48("867") ? reduced <= 0 : stryMutAct_9fa48("866") ? reduced >= 0 : stryMutAct_9fa48("865") ? false : stryMutAct_9fa48("864") ? true : (stryCov_9fa48("864", "865", "866", "867"), reduced > 0)) ? reduced : null,
      adjustedAt: num(stored.adjustedAt),
      failedProbes: num(stored.failed),
      blockedUntil: num(stored.blockedUntil)
    });
  }
}