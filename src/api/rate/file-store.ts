import { createHash, randomUUID } from "node:crypto";
import { link, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { systemClock, type Clock } from "../../clock.js";
import * as z from "zod";
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
 * A longer hold for a live owner was weighed and left (issue 27): every other run would stall
 * behind a suspended (Ctrl-Z) or hung one, while the worst of taking a live owner's lock after
 * a 5 s stall (a machine under heavy load) is a lost update — a request over the budget, one
 * 429 that the scheduler handles, as any loss of the ledger (see above).
 */
export const STALE_LOCK_MS = 5_000;
/**
 * A lock stamped further in the future than this was written before the clock stepped back
 * (or by a machine whose clock runs ahead): its age cannot be known, so it is stale
 * (issue 12 item 9). 1 s allows for the skew of machines sharing a directory over NFS.
 */
export const FUTURE_LOCK_TOLERANCE_MS = 1_000;
/** Give up on the shared ledger (and use this process's copy) after waiting this long. */
const MAX_LOCK_WAIT_MS = 2 * STALE_LOCK_MS;
/** Releasing a slot on Ctrl-C waits for the lock this long at most (exit 130 "within a second"). */
const RELEASE_LOCK_WAIT_MS = 300;
const LOCK_POLL_MS = 5;
/** A wait for the lock longer than this is told on stderr: a silent stall looks like a hang. */
const LOCK_NOTICE_MS = 1_000;

/**
 * The ledger of one service (issue 12 item 5, issue 22 item 5): a 429 from a staging service
 * must not hold back production — but the service counts requests per client address, so
 * every profile and key of this machine that talks to one service spends one budget
 * (docs/cli-contract.md "Rate limits": "whatever their profile"). The address is hashed so
 * the file name stays short and portable; neither profile nor key plays a part.
 */
export function ledgerPathFor(configDir: string, baseUrl: string): string {
  return join(configDir, `rate-ledger-${budgetAddressHash(baseUrl)}.json`);
}

/** A short fingerprint of the service: its host and port (no scheme, path, credentials or query). */
export function budgetAddressHash(baseUrl: string): string {
  return createHash("sha256").update(budgetAddress(baseUrl)).digest("hex").slice(0, 16);
}

/**
 * "api.example.com" for "HTTPS://API.example.com:443/x/": the service is the host it runs
 * on, however the address is written — a path (`/v2`, a gateway prefix) or another profile
 * spelling the address its own way reaches the same service and its one budget. An explicit
 * non-default port stays: another port is another service (the sandboxes of tests).
 */
function budgetAddress(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** Who holds a reservation in a file ledger: this host and process. */
export function ledgerOwner(pid = process.pid): string {
  return `${hostname()}:${pid}`;
}

/**
 * Whether the owner of a reservation may still send it. Another host's process cannot be
 * checked from here: it counts as alive, and its slots simply pass with time.
 */
export function isLedgerOwnerAlive(owner: string): boolean {
  const colon = owner.lastIndexOf(":");
  if (owner.slice(0, colon) !== hostname()) return true;
  const pid = Number(owner.slice(colon + 1));
  return !Number.isSafeInteger(pid) || isProcessAlive(pid);
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
  /**
   * One line on stderr: a transaction waited ~1 s for the lock, or the ledger cannot be used
   * (a full or read-only settings directory) and the run keeps its own budget. Each once.
   */
  warn?: ((text: string) => void) | undefined;
}

/** What #lock writes into a lock file (and a token, which only its writer looks for). */
const LockBody = z.object({ pid: z.number().int(), time: z.number() });

interface LockInfo {
  /** None: a lock with no readable owner, stale at once (readLockInfo). */
  body: z.infer<typeof LockBody> | undefined;
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
  readonly #warn: (text: string) => void;
  /** The two notices of `warn`, each told once. */
  #toldWait = false;
  #toldUnusable = false;
  /** The in-memory budget, or this process's last copy of the shared one. */
  #budget: RateBudget;

  constructor(options: RateLedgerOptions) {
    this.#limits = options.limits;
    this.#clock = options.clock;
    this.#path = options.path;
    this.#lockClock = options.lockClock ?? systemClock;
    this.#staleLockMs = options.staleLockMs ?? STALE_LOCK_MS;
    this.#signal = options.signal;
    this.#owner = options.owner ?? ledgerOwner();
    this.#warn = options.warn ?? (() => undefined);
    this.#budget = new RateBudget(this.#limits);
  }

  get path(): string | undefined {
    return this.#path;
  }

  get description(): string {
    return this.#path === undefined ? "memory" : `file ${this.#path}`;
  }

  /** Takes the next slot of `group` (see RateBudget.reserve), shared with other processes. */
  reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation> {
    return this.transact((budget, now) => budget.reserve(group, now, maxWaitMs, this.#owner));
  }

  /** An attempt has ended (now, or at `endedAt`): moves its send to when it reached the service at the latest (RateBudget.settle). */
  settle(group: RequestGroup, slotAt: number, endedAt?: number): Promise<number> {
    return this.transact((budget, now) => budget.settle(group, slotAt, endedAt ?? now));
  }

  /** The request never went out: frees its slot, even after Ctrl-C (RateBudget.release). */
  async release(group: RequestGroup, slotAt: number): Promise<void> {
    await this.transact((budget) => budget.release(group, slotAt), { interruptible: false });
  }

  async close(): Promise<void> {
    // Nothing held between transactions.
  }

  /** Reports a 429 to the shared budget (see RateBudget.noteRateLimited). */
  noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome> {
    return this.transact((budget, now) => budget.noteRateLimited(group, sentAt, now, retryAfterMs));
  }

  /** The current state, for progress displays and tests. */
  snapshot(): Promise<RateBudgetState> {
    return this.transact((budget) => budget.toState());
  }

  /**
   * Runs `update` on the budget under the lock and persists the result. `update` must be
   * synchronous and quick: other processes wait for the lock meanwhile.
   */
  async transact<T>(update: (budget: RateBudget, now: number) => T, options: { interruptible?: boolean } = {}): Promise<T> {
    const path = this.#path;
    if (path === undefined) return update(this.#budget, this.#clock.now());

    const interruptible = options.interruptible ?? true;
    let release: (() => Promise<void>) | undefined;
    try {
      release = await this.#lock(
        path,
        interruptible ? this.#signal : undefined,
        interruptible ? MAX_LOCK_WAIT_MS : RELEASE_LOCK_WAIT_MS,
      );
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      // The settings directory is not writable, or the lock never freed: carry on with this
      // process's own copy rather than fail the command over an optimisation — and say so.
      if (!this.#toldUnusable) {
        this.#toldUnusable = true;
        this.#warn(`the shared rate budget ${path} cannot be used: ${describeLedgerError(error)}; this run keeps its own budget`);
      }
      return update(this.#budget, this.#clock.now());
    }
    try {
      const budget = new RateBudget(this.#limits, await this.#read(path));
      const now = this.#clock.now();
      budget.releaseAbandoned(now, isLedgerOwnerAlive);
      const result = update(budget, now);
      this.#budget = budget;
      await this.#write(path, budget.toState()).catch(() => undefined);
      return result;
    } finally {
      await release();
    }
  }

  /** The stored state; undefined (a fresh budget) when missing, unreadable or corrupt. */
  async #read(path: string): Promise<RateBudgetState | undefined> {
    try {
      // Stryker disable next-line StringLiteral: JSON.parse reads a Buffer as UTF-8 too.
      return parseRateBudgetState(JSON.parse(await readFile(path, "utf8")));
    } catch {
      // A fresh budget.
    }
  }

  async #write(path: string, state: RateBudgetState): Promise<void> {
    const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
      await rename(temp, path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async #lock(path: string, signal: AbortSignal | undefined, maxWaitMs: number): Promise<() => Promise<void>> {
    const lockPath = `${path}.lock`;
    const token = randomUUID();
    const started = this.#lockClock.now();
    /** 1 while the lock was found missing for read() since the last readable one. */
    let vanished = 0;
    // The lock is made whole in a temp file and hard-linked into place (issue 22 item 3): a
    // lock file is never empty, so one that is (a full disk under an older version) is stale
    // at once — never a 5 s stall for every later run. A full or read-only settings directory
    // fails here, before a lock exists, and the run keeps its own budget (transact).
    const temp = `${lockPath}.${process.pid}.${token}.tmp`;
    const body = () => JSON.stringify({ pid: process.pid, time: this.#lockClock.now(), token });
    try {
      for (;;) {
        if (signal?.aborted) throw new InterruptedError();
        try {
          await writeFile(temp, body(), { mode: 0o600 });
          await link(temp, lockPath);
          return () => releaseLock(lockPath, token);
        } catch (error) {
          const code = errorCode(error);
          if (code === "ENOENT") {
            // First use of the settings directory. 0700 as for the settings themselves.
            await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
            continue;
          }
          if (code !== "EEXIST") throw error;
        }
        const info = await readLockInfo(lockPath);
        if (info === undefined) {
          // Let go between our link and our read: try again at once. Taken for link() yet
          // missing for read() time after time is a dangling symbolic link (or a directory) at
          // the lock's path: wait as for a holder and then give up, never spin at full CPU.
          if (vanished === 0) {
            vanished = 1;
            continue;
          }
        } else {
          vanished = 0;
          if (await this.#takeOverIfStale(lockPath, info)) continue;
        }
        const waited = this.#lockClock.now() - started;
        if (waited > maxWaitMs) {
          throw new Error(`rate ledger lock ${lockPath} is held too long`);
        }
        if (!this.#toldWait && waited >= LOCK_NOTICE_MS) {
          this.#toldWait = true;
          this.#warn(`waiting for the rate budget's lock ${lockPath}, held by another simadmin run`);
        }
        await this.#lockClock.sleep(LOCK_POLL_MS + Math.floor(this.#lockClock.random() * LOCK_POLL_MS), signal);
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  /** True when the lock `info` (just read) was stale and has been moved away: try again at once. */
  async #takeOverIfStale(lockPath: string, info: LockInfo): Promise<boolean> {
    const { body } = info;
    if (body !== undefined) {
      const age = this.#lockClock.now() - body.time;
      const tooOld = age > this.#staleLockMs;
      const fromTheFuture = -age > FUTURE_LOCK_TOLERANCE_MS;
      if (!tooOld && !fromTheFuture && isProcessAlive(body.pid)) return false;
    }
    // Move it aside rather than delete it: rename is atomic, so of several processes that
    // judged it stale only one moves it. If what we moved is not the lock we judged (it was
    // replaced by a fresh one in between), put that one back unless a newer lock exists.
    const aside = `${lockPath}.${process.pid}.${randomUUID()}.stale`;
    // Stryker disable BlockStatement: an empty catch goes on to find nothing aside and ends in true too.
    try {
      await rename(lockPath, aside);
    } catch {
      return true;
    }
    // Stryker restore BlockStatement
    const moved = await readFile(aside, "utf8").catch(() => undefined);
    if (moved !== info.raw) await link(aside, lockPath).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    return true;
  }
}

async function readLockInfo(lockPath: string): Promise<LockInfo | undefined> {
  let raw: string;
  try {
    raw = await readFile(lockPath, "utf8");
  } catch {
    return undefined;
  }
  // Never written empty (#lock links a complete file): no readable owner (empty, not JSON, not
  // ours) means a crash or a full disk under an older version, or a hand-made file — stale
  // now, whatever its age.
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // Not JSON: no body.
  }
  return { body: LockBody.safeParse(json).data, raw };
}

async function releaseLock(lockPath: string, token: string): Promise<void> {
  // Only our own lock: after a stall past STALE_LOCK_MS another process may hold it now.
  // A Buffer: includes() looks for the token's UTF-8 bytes.
  const raw = await readFile(lockPath).catch(() => undefined);
  if (raw !== undefined && raw.includes(token)) await unlink(lockPath).catch(() => undefined);
}

export function isProcessAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) === "EPERM";
  }
}

function describeLedgerError(error: unknown): string {
  const code = errorCode(error);
  const text = error instanceof Error ? error.message : String(error);
  if (code === "ENOSPC") return "no space left on device (ENOSPC)";
  if (code === "EROFS") return "read-only file system (EROFS)";
  if (code === "EACCES" || code === "EPERM") return `permission denied (${code})`;
  return (text.split("\n")[0] ?? text).slice(0, 200);
}

/** The `code` of a Node.js error (a string such as "ENOENT"); compared with literals only. */
function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
}
