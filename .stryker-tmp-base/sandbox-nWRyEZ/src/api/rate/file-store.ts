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
import { createHash, randomUUID } from "node:crypto";
import { link, mkdir, open, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { systemClock, type Clock } from "../../clock.js";
import { InterruptedError } from "../../errors.js";
import { RateBudget, parseRateBudgetState, type RateBudgetState, type RateLimitedOutcome, type Reservation } from "./budget.js";
import type { RateLimits, RequestGroup } from "./limits.js";
import type { BudgetStore } from "./store.js";

// Cross-process sharing of the rate budget: two cron jobs, or a shell loop of separate
// invocations, on one machine and profile spend one budget (docs/cli-contract.md "Rate limits").
//
// The ledger is a small JSON file holding RateBudgetState, guarded by a lock file created
// with open(…, "wx") (atomic create-if-absent on every local file system). A transaction is:
// lock, read, compute, write (temp file + rename, so a reader never sees half a file), unlock.
// It lasts a few milliseconds, so a lock older than STALE_LOCK_MS, or whose process is gone
// (kill -9, power cut in the middle), is stale and taken over.
//
// Losing the ledger is harmless by design: an unreadable or corrupt file is reset, and if the
// file system refuses us altogether the budget is kept in memory for this process. The worst
// case is one 429, which the scheduler handles.

/**
 * A transaction takes milliseconds; a lock this old belongs to a process that hung or died.
 * This is also the maximum hold: a live pid does not make an older lock valid (the pid may
 * have been reused, or the lock was written on another machine sharing the directory).
 */
export const STALE_LOCK_MS = 5_000;
/**
 * A lock stamped further in the future than this was written before the clock stepped back
 * (or by a machine whose clock runs ahead): its age cannot be known, so it is stale
 * (issue 12 item 9). 1 s allows for the skew of machines sharing a directory over NFS.
 */
export const FUTURE_LOCK_TOLERANCE_MS = 1_000;
/** Give up on the shared ledger (and use this process's copy) after waiting this long. */
const MAX_LOCK_WAIT_MS = stryMutAct_9fa48("267") ? 2 / STALE_LOCK_MS : (stryCov_9fa48("267"), 2 * STALE_LOCK_MS);
/** Releasing a slot on Ctrl-C waits for the lock this long at most (exit 130 "within a second"). */
const RELEASE_LOCK_WAIT_MS = 300;
const LOCK_POLL_MS = 5;

/**
 * The ledger of one profile and one service address (issue 12 item 5): a 429 from a staging
 * service must not hold back production, nor one profile's budget another's. The address is
 * hashed so the file name stays short and portable; the key plays no part.
 */
export function ledgerPathFor(configDir: string, profile: string, baseUrl: string): string {
  if (stryMutAct_9fa48("268")) {
    {}
  } else {
    stryCov_9fa48("268");
    return join(configDir, stryMutAct_9fa48("269") ? `` : (stryCov_9fa48("269"), `rate-ledger-${profile}-${budgetAddressHash(baseUrl)}.json`));
  }
}

/** A short fingerprint of the service address (scheme, host, port, path; no credentials or query). */
export function budgetAddressHash(baseUrl: string): string {
  if (stryMutAct_9fa48("270")) {
    {}
  } else {
    stryCov_9fa48("270");
    return stryMutAct_9fa48("271") ? createHash("sha256").update(normalizeBaseUrl(baseUrl)).digest("hex") : (stryCov_9fa48("271"), createHash(stryMutAct_9fa48("272") ? "" : (stryCov_9fa48("272"), "sha256")).update(normalizeBaseUrl(baseUrl)).digest(stryMutAct_9fa48("273") ? "" : (stryCov_9fa48("273"), "hex")).slice(0, 16));
  }
}

/** "https://api.example.com/x" for "HTTPS://API.example.com:443/x/": one budget per address however it is written. */
export function normalizeBaseUrl(baseUrl: string): string {
  if (stryMutAct_9fa48("274")) {
    {}
  } else {
    stryCov_9fa48("274");
    try {
      if (stryMutAct_9fa48("275")) {
        {}
      } else {
        stryCov_9fa48("275");
        const url = new URL(baseUrl);
        return stryMutAct_9fa48("276") ? `` : (stryCov_9fa48("276"), `${url.protocol}//${url.host}${url.pathname.replace(stryMutAct_9fa48("278") ? /\/$/ : stryMutAct_9fa48("277") ? /\/+/ : (stryCov_9fa48("277", "278"), /\/+$/), stryMutAct_9fa48("279") ? "Stryker was here!" : (stryCov_9fa48("279"), ""))}`);
      }
    } catch {
      if (stryMutAct_9fa48("280")) {
        {}
      } else {
        stryCov_9fa48("280");
        return baseUrl;
      }
    }
  }
}

/** Who holds a reservation in a file ledger: this host and process. */
export function ledgerOwner(pid = process.pid): string {
  if (stryMutAct_9fa48("281")) {
    {}
  } else {
    stryCov_9fa48("281");
    return stryMutAct_9fa48("282") ? `` : (stryCov_9fa48("282"), `${hostname()}:${pid}`);
  }
}

/**
 * Whether the owner of a reservation may still send it. Another host's process cannot be
 * checked from here: it counts as alive, and its slots simply pass with time.
 */
export function isLedgerOwnerAlive(owner: string): boolean {
  if (stryMutAct_9fa48("283")) {
    {}
  } else {
    stryCov_9fa48("283");
    const colon = owner.lastIndexOf(stryMutAct_9fa48("284") ? "" : (stryCov_9fa48("284"), ":"));
    if (stryMutAct_9fa48("287") ? owner.slice(0, colon) === hostname() : stryMutAct_9fa48("286") ? false : stryMutAct_9fa48("285") ? true : (stryCov_9fa48("285", "286", "287"), (stryMutAct_9fa48("288") ? owner : (stryCov_9fa48("288"), owner.slice(0, colon))) !== hostname())) return stryMutAct_9fa48("289") ? false : (stryCov_9fa48("289"), true);
    const pid = Number(stryMutAct_9fa48("290") ? owner : (stryCov_9fa48("290"), owner.slice(stryMutAct_9fa48("291") ? colon - 1 : (stryCov_9fa48("291"), colon + 1))));
    return stryMutAct_9fa48("294") ? !Number.isSafeInteger(pid) && isProcessAlive(pid) : stryMutAct_9fa48("293") ? false : stryMutAct_9fa48("292") ? true : (stryCov_9fa48("292", "293", "294"), (stryMutAct_9fa48("295") ? Number.isSafeInteger(pid) : (stryCov_9fa48("295"), !Number.isSafeInteger(pid))) || isProcessAlive(pid));
  }
}
export interface RateLedgerOptions {
  limits: RateLimits;
  /** Timestamps of the budget (sends, slots). */
  clock: Clock;
  /** Ledger file, e.g. <settingsDir>/rate-ledger-<profile>.json; none: in memory only. */
  path?: string | undefined;
  /**
   * Time for the lock file (its age, the polling between attempts). Real time by default,
   * because the lock is shared with other processes; tests of staleness pass a fake.
   */
  lockClock?: Clock;
  staleLockMs?: number;
  signal?: AbortSignal | undefined;
  /** Who holds the reservations this ledger makes (ledgerOwner()); tests pass a dead process's. */
  owner?: string;
}
interface LockInfo {
  pid: number | undefined;
  time: number;
  raw: string;
}
export class RateLedger implements BudgetStore {
  readonly #limits: RateLimits;
  readonly #clock: Clock;
  readonly #path: string | undefined;
  readonly #lockClock: Clock;
  readonly #staleLockMs: number;
  readonly #signal: AbortSignal | undefined;
  readonly #owner: string;
  /** The in-memory budget, or this process's last copy of the shared one. */
  #budget: RateBudget;
  constructor(options: RateLedgerOptions) {
    if (stryMutAct_9fa48("296")) {
      {}
    } else {
      stryCov_9fa48("296");
      this.#limits = options.limits;
      this.#clock = options.clock;
      this.#path = options.path;
      this.#lockClock = stryMutAct_9fa48("297") ? options.lockClock && systemClock : (stryCov_9fa48("297"), options.lockClock ?? systemClock);
      this.#staleLockMs = stryMutAct_9fa48("298") ? options.staleLockMs && STALE_LOCK_MS : (stryCov_9fa48("298"), options.staleLockMs ?? STALE_LOCK_MS);
      this.#signal = options.signal;
      this.#owner = stryMutAct_9fa48("299") ? options.owner && ledgerOwner() : (stryCov_9fa48("299"), options.owner ?? ledgerOwner());
      this.#budget = new RateBudget(this.#limits);
    }
  }
  get path(): string | undefined {
    if (stryMutAct_9fa48("300")) {
      {}
    } else {
      stryCov_9fa48("300");
      return this.#path;
    }
  }
  get description(): string {
    if (stryMutAct_9fa48("301")) {
      {}
    } else {
      stryCov_9fa48("301");
      return (stryMutAct_9fa48("304") ? this.#path !== undefined : stryMutAct_9fa48("303") ? false : stryMutAct_9fa48("302") ? true : (stryCov_9fa48("302", "303", "304"), this.#path === undefined)) ? stryMutAct_9fa48("305") ? "" : (stryCov_9fa48("305"), "memory") : stryMutAct_9fa48("306") ? `` : (stryCov_9fa48("306"), `file ${this.#path}`);
    }
  }

  /** Takes the next slot of `group` (see RateBudget.reserve), shared with other processes. */
  reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation> {
    if (stryMutAct_9fa48("307")) {
      {}
    } else {
      stryCov_9fa48("307");
      return this.transact(stryMutAct_9fa48("308") ? () => undefined : (stryCov_9fa48("308"), (budget, now) => budget.reserve(group, now, maxWaitMs, this.#owner)));
    }
  }

  /** An attempt has ended (now, or at `endedAt`): moves its send to when it reached the service at the latest (RateBudget.settle). */
  settle(group: RequestGroup, slotAt: number, endedAt?: number): Promise<number> {
    if (stryMutAct_9fa48("309")) {
      {}
    } else {
      stryCov_9fa48("309");
      return this.transact(stryMutAct_9fa48("310") ? () => undefined : (stryCov_9fa48("310"), (budget, now) => budget.settle(group, slotAt, stryMutAct_9fa48("311") ? endedAt && now : (stryCov_9fa48("311"), endedAt ?? now))));
    }
  }

  /** The request never went out: frees its slot, even after Ctrl-C (RateBudget.release). */
  async release(group: RequestGroup, slotAt: number): Promise<void> {
    if (stryMutAct_9fa48("312")) {
      {}
    } else {
      stryCov_9fa48("312");
      await this.transact(stryMutAct_9fa48("313") ? () => undefined : (stryCov_9fa48("313"), budget => budget.release(group, slotAt)), stryMutAct_9fa48("314") ? {} : (stryCov_9fa48("314"), {
        interruptible: stryMutAct_9fa48("315") ? true : (stryCov_9fa48("315"), false)
      }));
    }
  }
  async close(): Promise<void> {
    // Nothing held between transactions.
  }

  /** Reports a 429 to the shared budget (see RateBudget.noteRateLimited). */
  noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome> {
    if (stryMutAct_9fa48("316")) {
      {}
    } else {
      stryCov_9fa48("316");
      return this.transact(stryMutAct_9fa48("317") ? () => undefined : (stryCov_9fa48("317"), (budget, now) => budget.noteRateLimited(group, sentAt, now, retryAfterMs)));
    }
  }

  /** The current state, for progress displays and tests. */
  snapshot(): Promise<RateBudgetState> {
    if (stryMutAct_9fa48("318")) {
      {}
    } else {
      stryCov_9fa48("318");
      return this.transact(stryMutAct_9fa48("319") ? () => undefined : (stryCov_9fa48("319"), budget => budget.toState()));
    }
  }

  /**
   * Runs `update` on the budget under the lock and persists the result. `update` must be
   * synchronous and quick: other processes wait for the lock meanwhile.
   */
  async transact<T>(update: (budget: RateBudget, now: number) => T, options: {
    interruptible?: boolean;
  } = {}): Promise<T> {
    if (stryMutAct_9fa48("320")) {
      {}
    } else {
      stryCov_9fa48("320");
      const path = this.#path;
      if (stryMutAct_9fa48("323") ? path !== undefined : stryMutAct_9fa48("322") ? false : stryMutAct_9fa48("321") ? true : (stryCov_9fa48("321", "322", "323"), path === undefined)) return update(this.#budget, this.#clock.now());
      const interruptible = stryMutAct_9fa48("324") ? options.interruptible && true : (stryCov_9fa48("324"), options.interruptible ?? (stryMutAct_9fa48("325") ? false : (stryCov_9fa48("325"), true)));
      let release: (() => Promise<void>) | undefined;
      try {
        if (stryMutAct_9fa48("326")) {
          {}
        } else {
          stryCov_9fa48("326");
          release = await this.#lock(path, interruptible ? this.#signal : undefined, interruptible ? MAX_LOCK_WAIT_MS : RELEASE_LOCK_WAIT_MS);
        }
      } catch (error) {
        if (stryMutAct_9fa48("327")) {
          {}
        } else {
          stryCov_9fa48("327");
          if (stryMutAct_9fa48("329") ? false : stryMutAct_9fa48("328") ? true : (stryCov_9fa48("328", "329"), error instanceof InterruptedError)) throw error;
          // The settings directory is not writable, or the lock never freed: carry on with this
          // process's own copy rather than fail the command over an optimisation.
          return update(this.#budget, this.#clock.now());
        }
      }
      try {
        if (stryMutAct_9fa48("330")) {
          {}
        } else {
          stryCov_9fa48("330");
          const budget = new RateBudget(this.#limits, await this.#read(path));
          const now = this.#clock.now();
          budget.releaseAbandoned(now, isLedgerOwnerAlive);
          const result = update(budget, now);
          this.#budget = budget;
          await this.#write(path, budget.toState()).catch(() => undefined);
          return result;
        }
      } finally {
        if (stryMutAct_9fa48("331")) {
          {}
        } else {
          stryCov_9fa48("331");
          await release();
        }
      }
    }
  }

  /** The stored state; undefined (a fresh budget) when missing, unreadable or corrupt. */
  async #read(path: string): Promise<RateBudgetState | undefined> {
    if (stryMutAct_9fa48("332")) {
      {}
    } else {
      stryCov_9fa48("332");
      try {
        if (stryMutAct_9fa48("333")) {
          {}
        } else {
          stryCov_9fa48("333");
          return parseRateBudgetState(JSON.parse(await readFile(path, stryMutAct_9fa48("334") ? "" : (stryCov_9fa48("334"), "utf8"))));
        }
      } catch {
        if (stryMutAct_9fa48("335")) {
          {}
        } else {
          stryCov_9fa48("335");
          return undefined;
        }
      }
    }
  }
  async #write(path: string, state: RateBudgetState): Promise<void> {
    if (stryMutAct_9fa48("336")) {
      {}
    } else {
      stryCov_9fa48("336");
      const temp = stryMutAct_9fa48("337") ? `` : (stryCov_9fa48("337"), `${path}.${process.pid}.${randomUUID()}.tmp`);
      try {
        if (stryMutAct_9fa48("338")) {
          {}
        } else {
          stryCov_9fa48("338");
          await writeFile(temp, stryMutAct_9fa48("339") ? `` : (stryCov_9fa48("339"), `${JSON.stringify(state)}\n`), stryMutAct_9fa48("340") ? {} : (stryCov_9fa48("340"), {
            mode: 0o600
          }));
          await rename(temp, path);
        }
      } catch (error) {
        if (stryMutAct_9fa48("341")) {
          {}
        } else {
          stryCov_9fa48("341");
          await unlink(temp).catch(() => undefined);
          throw error;
        }
      }
    }
  }
  async #lock(path: string, signal: AbortSignal | undefined, maxWaitMs: number): Promise<() => Promise<void>> {
    if (stryMutAct_9fa48("342")) {
      {}
    } else {
      stryCov_9fa48("342");
      const lockPath = stryMutAct_9fa48("343") ? `` : (stryCov_9fa48("343"), `${path}.lock`);
      const token = randomUUID();
      const started = this.#lockClock.now();
      if (stryMutAct_9fa48("344")) {
        for (; false;) {
          if (signal?.aborted) throw new InterruptedError();
          try {
            const handle = await open(lockPath, "wx", 0o600);
            try {
              await handle.writeFile(JSON.stringify({
                pid: process.pid,
                time: this.#lockClock.now(),
                token
              }));
            } finally {
              await handle.close();
            }
            return () => releaseLock(lockPath, token);
          } catch (error) {
            const code = errorCode(error);
            if (code === "ENOENT") {
              // First use of the settings directory. 0700 as for the settings themselves.
              await mkdir(dirname(lockPath), {
                recursive: true,
                mode: 0o700
              });
              continue;
            }
            if (code !== "EEXIST") throw error;
          }
          if (await this.#takeOverIfStale(lockPath)) continue;
          if (this.#lockClock.now() - started > maxWaitMs) {
            throw new Error(`rate ledger lock ${lockPath} is held too long`);
          }
          await this.#lockClock.sleep(LOCK_POLL_MS + Math.floor(this.#lockClock.random() * LOCK_POLL_MS), signal);
        }
      } else {
        stryCov_9fa48("344");
        for (;;) {
          if (stryMutAct_9fa48("345")) {
            {}
          } else {
            stryCov_9fa48("345");
            if (stryMutAct_9fa48("348") ? signal.aborted : stryMutAct_9fa48("347") ? false : stryMutAct_9fa48("346") ? true : (stryCov_9fa48("346", "347", "348"), signal?.aborted)) throw new InterruptedError();
            try {
              if (stryMutAct_9fa48("349")) {
                {}
              } else {
                stryCov_9fa48("349");
                const handle = await open(lockPath, stryMutAct_9fa48("350") ? "" : (stryCov_9fa48("350"), "wx"), 0o600);
                try {
                  if (stryMutAct_9fa48("351")) {
                    {}
                  } else {
                    stryCov_9fa48("351");
                    await handle.writeFile(JSON.stringify(stryMutAct_9fa48("352") ? {} : (stryCov_9fa48("352"), {
                      pid: process.pid,
                      time: this.#lockClock.now(),
                      token
                    })));
                  }
                } finally {
                  if (stryMutAct_9fa48("353")) {
                    {}
                  } else {
                    stryCov_9fa48("353");
                    await handle.close();
                  }
                }
                return stryMutAct_9fa48("354") ? () => undefined : (stryCov_9fa48("354"), () => releaseLock(lockPath, token));
              }
            } catch (error) {
              if (stryMutAct_9fa48("355")) {
                {}
              } else {
                stryCov_9fa48("355");
                const code = errorCode(error);
                if (stryMutAct_9fa48("358") ? code !== "ENOENT" : stryMutAct_9fa48("357") ? false : stryMutAct_9fa48("356") ? true : (stryCov_9fa48("356", "357", "358"), code === (stryMutAct_9fa48("359") ? "" : (stryCov_9fa48("359"), "ENOENT")))) {
                  if (stryMutAct_9fa48("360")) {
                    {}
                  } else {
                    stryCov_9fa48("360");
                    // First use of the settings directory. 0700 as for the settings themselves.
                    await mkdir(dirname(lockPath), stryMutAct_9fa48("361") ? {} : (stryCov_9fa48("361"), {
                      recursive: stryMutAct_9fa48("362") ? false : (stryCov_9fa48("362"), true),
                      mode: 0o700
                    }));
                    continue;
                  }
                }
                if (stryMutAct_9fa48("365") ? code === "EEXIST" : stryMutAct_9fa48("364") ? false : stryMutAct_9fa48("363") ? true : (stryCov_9fa48("363", "364", "365"), code !== (stryMutAct_9fa48("366") ? "" : (stryCov_9fa48("366"), "EEXIST")))) throw error;
              }
            }
            if (stryMutAct_9fa48("368") ? false : stryMutAct_9fa48("367") ? true : (stryCov_9fa48("367", "368"), await this.#takeOverIfStale(lockPath))) continue;
            if (stryMutAct_9fa48("372") ? this.#lockClock.now() - started <= maxWaitMs : stryMutAct_9fa48("371") ? this.#lockClock.now() - started >= maxWaitMs : stryMutAct_9fa48("370") ? false : stryMutAct_9fa48("369") ? true : (stryCov_9fa48("369", "370", "371", "372"), (stryMutAct_9fa48("373") ? this.#lockClock.now() + started : (stryCov_9fa48("373"), this.#lockClock.now() - started)) > maxWaitMs)) {
              if (stryMutAct_9fa48("374")) {
                {}
              } else {
                stryCov_9fa48("374");
                throw new Error(stryMutAct_9fa48("375") ? `` : (stryCov_9fa48("375"), `rate ledger lock ${lockPath} is held too long`));
              }
            }
            await this.#lockClock.sleep(stryMutAct_9fa48("376") ? LOCK_POLL_MS - Math.floor(this.#lockClock.random() * LOCK_POLL_MS) : (stryCov_9fa48("376"), LOCK_POLL_MS + Math.floor(stryMutAct_9fa48("377") ? this.#lockClock.random() / LOCK_POLL_MS : (stryCov_9fa48("377"), this.#lockClock.random() * LOCK_POLL_MS))), signal);
          }
        }
      }
    }
  }

  /** True when the lock was stale and has been moved away (or vanished): try again at once. */
  async #takeOverIfStale(lockPath: string): Promise<boolean> {
    if (stryMutAct_9fa48("378")) {
      {}
    } else {
      stryCov_9fa48("378");
      const info = await readLockInfo(lockPath);
      if (stryMutAct_9fa48("381") ? info !== undefined : stryMutAct_9fa48("380") ? false : stryMutAct_9fa48("379") ? true : (stryCov_9fa48("379", "380", "381"), info === undefined)) return stryMutAct_9fa48("382") ? false : (stryCov_9fa48("382"), true);
      const age = stryMutAct_9fa48("383") ? this.#lockClock.now() + info.time : (stryCov_9fa48("383"), this.#lockClock.now() - info.time);
      const tooOld = stryMutAct_9fa48("387") ? age <= this.#staleLockMs : stryMutAct_9fa48("386") ? age >= this.#staleLockMs : stryMutAct_9fa48("385") ? false : stryMutAct_9fa48("384") ? true : (stryCov_9fa48("384", "385", "386", "387"), age > this.#staleLockMs);
      const fromTheFuture = stryMutAct_9fa48("391") ? -age <= FUTURE_LOCK_TOLERANCE_MS : stryMutAct_9fa48("390") ? -age >= FUTURE_LOCK_TOLERANCE_MS : stryMutAct_9fa48("389") ? false : stryMutAct_9fa48("388") ? true : (stryCov_9fa48("388", "389", "390", "391"), (stryMutAct_9fa48("392") ? +age : (stryCov_9fa48("392"), -age)) > FUTURE_LOCK_TOLERANCE_MS);
      const ownerGone = stryMutAct_9fa48("395") ? info.pid !== undefined || !isProcessAlive(info.pid) : stryMutAct_9fa48("394") ? false : stryMutAct_9fa48("393") ? true : (stryCov_9fa48("393", "394", "395"), (stryMutAct_9fa48("397") ? info.pid === undefined : stryMutAct_9fa48("396") ? true : (stryCov_9fa48("396", "397"), info.pid !== undefined)) && (stryMutAct_9fa48("398") ? isProcessAlive(info.pid) : (stryCov_9fa48("398"), !isProcessAlive(info.pid))));
      if (stryMutAct_9fa48("401") ? !tooOld && !fromTheFuture || !ownerGone : stryMutAct_9fa48("400") ? false : stryMutAct_9fa48("399") ? true : (stryCov_9fa48("399", "400", "401"), (stryMutAct_9fa48("403") ? !tooOld || !fromTheFuture : stryMutAct_9fa48("402") ? true : (stryCov_9fa48("402", "403"), (stryMutAct_9fa48("404") ? tooOld : (stryCov_9fa48("404"), !tooOld)) && (stryMutAct_9fa48("405") ? fromTheFuture : (stryCov_9fa48("405"), !fromTheFuture)))) && (stryMutAct_9fa48("406") ? ownerGone : (stryCov_9fa48("406"), !ownerGone)))) return stryMutAct_9fa48("407") ? true : (stryCov_9fa48("407"), false);
      // Move it aside rather than delete it: rename is atomic, so of several processes that
      // judged it stale only one moves it. If what we moved is not the lock we judged (it was
      // replaced by a fresh one in between), put that one back unless a newer lock exists.
      const aside = stryMutAct_9fa48("408") ? `` : (stryCov_9fa48("408"), `${lockPath}.${process.pid}.${randomUUID()}.stale`);
      try {
        if (stryMutAct_9fa48("409")) {
          {}
        } else {
          stryCov_9fa48("409");
          await rename(lockPath, aside);
        }
      } catch {
        if (stryMutAct_9fa48("410")) {
          {}
        } else {
          stryCov_9fa48("410");
          return stryMutAct_9fa48("411") ? false : (stryCov_9fa48("411"), true);
        }
      }
      const moved = await readFile(aside, stryMutAct_9fa48("412") ? "" : (stryCov_9fa48("412"), "utf8")).catch(() => undefined);
      if (stryMutAct_9fa48("415") ? moved === info.raw : stryMutAct_9fa48("414") ? false : stryMutAct_9fa48("413") ? true : (stryCov_9fa48("413", "414", "415"), moved !== info.raw)) await link(aside, lockPath).catch(() => undefined);
      await unlink(aside).catch(() => undefined);
      return stryMutAct_9fa48("416") ? false : (stryCov_9fa48("416"), true);
    }
  }
}
async function readLockInfo(lockPath: string): Promise<LockInfo | undefined> {
  if (stryMutAct_9fa48("417")) {
    {}
  } else {
    stryCov_9fa48("417");
    let raw: string;
    let mtime: number;
    try {
      if (stryMutAct_9fa48("418")) {
        {}
      } else {
        stryCov_9fa48("418");
        raw = await readFile(lockPath, stryMutAct_9fa48("419") ? "" : (stryCov_9fa48("419"), "utf8"));
        mtime = (await stat(lockPath)).mtimeMs;
      }
    } catch {
      if (stryMutAct_9fa48("420")) {
        {}
      } else {
        stryCov_9fa48("420");
        return undefined;
      }
    }
    try {
      if (stryMutAct_9fa48("421")) {
        {}
      } else {
        stryCov_9fa48("421");
        const parsed: unknown = JSON.parse(raw);
        if (stryMutAct_9fa48("424") ? typeof parsed === "object" || parsed !== null : stryMutAct_9fa48("423") ? false : stryMutAct_9fa48("422") ? true : (stryCov_9fa48("422", "423", "424"), (stryMutAct_9fa48("426") ? typeof parsed !== "object" : stryMutAct_9fa48("425") ? true : (stryCov_9fa48("425", "426"), typeof parsed === (stryMutAct_9fa48("427") ? "" : (stryCov_9fa48("427"), "object")))) && (stryMutAct_9fa48("429") ? parsed === null : stryMutAct_9fa48("428") ? true : (stryCov_9fa48("428", "429"), parsed !== null)))) {
          if (stryMutAct_9fa48("430")) {
            {}
          } else {
            stryCov_9fa48("430");
            const {
              pid,
              time
            } = parsed as {
              pid?: unknown;
              time?: unknown;
            };
            if (stryMutAct_9fa48("433") ? typeof pid === "number" && Number.isInteger(pid) && typeof time === "number" || Number.isFinite(time) : stryMutAct_9fa48("432") ? false : stryMutAct_9fa48("431") ? true : (stryCov_9fa48("431", "432", "433"), (stryMutAct_9fa48("435") ? typeof pid === "number" && Number.isInteger(pid) || typeof time === "number" : stryMutAct_9fa48("434") ? true : (stryCov_9fa48("434", "435"), (stryMutAct_9fa48("437") ? typeof pid === "number" || Number.isInteger(pid) : stryMutAct_9fa48("436") ? true : (stryCov_9fa48("436", "437"), (stryMutAct_9fa48("439") ? typeof pid !== "number" : stryMutAct_9fa48("438") ? true : (stryCov_9fa48("438", "439"), typeof pid === (stryMutAct_9fa48("440") ? "" : (stryCov_9fa48("440"), "number")))) && Number.isInteger(pid))) && (stryMutAct_9fa48("442") ? typeof time !== "number" : stryMutAct_9fa48("441") ? true : (stryCov_9fa48("441", "442"), typeof time === (stryMutAct_9fa48("443") ? "" : (stryCov_9fa48("443"), "number")))))) && Number.isFinite(time))) {
              if (stryMutAct_9fa48("444")) {
                {}
              } else {
                stryCov_9fa48("444");
                return stryMutAct_9fa48("445") ? {} : (stryCov_9fa48("445"), {
                  pid,
                  time,
                  raw
                });
              }
            }
          }
        }
      }
    } catch {
      // Empty or half-written: its owner is between open() and write(), or died there.
    }
    // Without readable contents only the file's age tells whether it is stale.
    return stryMutAct_9fa48("446") ? {} : (stryCov_9fa48("446"), {
      pid: undefined,
      time: mtime,
      raw
    });
  }
}
async function releaseLock(lockPath: string, token: string): Promise<void> {
  if (stryMutAct_9fa48("447")) {
    {}
  } else {
    stryCov_9fa48("447");
    // Only our own lock: after a stall past STALE_LOCK_MS another process may hold it now.
    const raw = await readFile(lockPath, stryMutAct_9fa48("448") ? "" : (stryCov_9fa48("448"), "utf8")).catch(() => undefined);
    if (stryMutAct_9fa48("451") ? raw !== undefined || raw.includes(token) : stryMutAct_9fa48("450") ? false : stryMutAct_9fa48("449") ? true : (stryCov_9fa48("449", "450", "451"), (stryMutAct_9fa48("453") ? raw === undefined : stryMutAct_9fa48("452") ? true : (stryCov_9fa48("452", "453"), raw !== undefined)) && raw.includes(token))) await unlink(lockPath).catch(() => undefined);
  }
}
export function isProcessAlive(pid: number): boolean {
  if (stryMutAct_9fa48("454")) {
    {}
  } else {
    stryCov_9fa48("454");
    if (stryMutAct_9fa48("457") ? pid !== process.pid : stryMutAct_9fa48("456") ? false : stryMutAct_9fa48("455") ? true : (stryCov_9fa48("455", "456", "457"), pid === process.pid)) return stryMutAct_9fa48("458") ? false : (stryCov_9fa48("458"), true);
    if (stryMutAct_9fa48("462") ? pid > 0 : stryMutAct_9fa48("461") ? pid < 0 : stryMutAct_9fa48("460") ? false : stryMutAct_9fa48("459") ? true : (stryCov_9fa48("459", "460", "461", "462"), pid <= 0)) return stryMutAct_9fa48("463") ? true : (stryCov_9fa48("463"), false);
    try {
      if (stryMutAct_9fa48("464")) {
        {}
      } else {
        stryCov_9fa48("464");
        process.kill(pid, 0);
        return stryMutAct_9fa48("465") ? false : (stryCov_9fa48("465"), true);
      }
    } catch (error) {
      if (stryMutAct_9fa48("466")) {
        {}
      } else {
        stryCov_9fa48("466");
        // EPERM: it exists but belongs to another user.
        return stryMutAct_9fa48("469") ? errorCode(error) !== "EPERM" : stryMutAct_9fa48("468") ? false : stryMutAct_9fa48("467") ? true : (stryCov_9fa48("467", "468", "469"), errorCode(error) === (stryMutAct_9fa48("470") ? "" : (stryCov_9fa48("470"), "EPERM")));
      }
    }
  }
}
function errorCode(error: unknown): string | undefined {
  if (stryMutAct_9fa48("471")) {
    {}
  } else {
    stryCov_9fa48("471");
    return (stryMutAct_9fa48("474") ? typeof error === "object" && error !== null && "code" in error || typeof error.code === "string" : stryMutAct_9fa48("473") ? false : stryMutAct_9fa48("472") ? true : (stryCov_9fa48("472", "473", "474"), (stryMutAct_9fa48("476") ? typeof error === "object" && error !== null || "code" in error : stryMutAct_9fa48("475") ? true : (stryCov_9fa48("475", "476"), (stryMutAct_9fa48("478") ? typeof error === "object" || error !== null : stryMutAct_9fa48("477") ? true : (stryCov_9fa48("477", "478"), (stryMutAct_9fa48("480") ? typeof error !== "object" : stryMutAct_9fa48("479") ? true : (stryCov_9fa48("479", "480"), typeof error === (stryMutAct_9fa48("481") ? "" : (stryCov_9fa48("481"), "object")))) && (stryMutAct_9fa48("483") ? error === null : stryMutAct_9fa48("482") ? true : (stryCov_9fa48("482", "483"), error !== null)))) && (stryMutAct_9fa48("484") ? "" : (stryCov_9fa48("484"), "code")) in error)) && (stryMutAct_9fa48("486") ? typeof error.code !== "string" : stryMutAct_9fa48("485") ? true : (stryCov_9fa48("485", "486"), typeof error.code === (stryMutAct_9fa48("487") ? "" : (stryCov_9fa48("487"), "string")))))) ? error.code : undefined;
  }
}