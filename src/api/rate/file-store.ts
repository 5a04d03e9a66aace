import { ledgerFs } from "./ledger-files.js";
import { hostname } from "node:os";
import { join } from "node:path";
import { systemClock, type Clock } from "../../clock.js";
import { sha256Hex } from "../../text/sha256.js";
import { InterruptedError, isErrnoError } from "../../errors.js";
import { RateBudget, parseRateBudgetState, type RateBudgetState, type RateLimitedOutcome, type Reservation } from "./budget.js";
import type { RateLimits, RequestGroup } from "./limits.js";
import { LedgerLock, STALE_LOCK_MS, isProcessAlive, uniqueName } from "./ledger-lock.js";
import type { BudgetStore } from "./store.js";

// Cross-process sharing of the rate budget: two cron jobs, or a shell loop of separate
// invocations, on one machine and profile spend one budget (docs/cli-contract.md "Rate limits").
//
// The ledger is a small JSON file holding RateBudgetState, guarded by a lock file
// (ledger-lock.ts). A transaction is: lock, read, compute, write (temp file + rename, so a
// reader never sees half a file), unlock. It lasts a few milliseconds.
//
// Losing the ledger is harmless by design: an unreadable or corrupt file is reset, and if the
// file system refuses us altogether the budget is kept in memory for this process. The worst
// case is one 429, which the scheduler handles.

/** Give up on the shared ledger (and use this process's copy) after waiting this long. */
const MAX_LOCK_WAIT_MS = 2 * STALE_LOCK_MS;
/** Releasing a slot on Ctrl-C waits for the lock this long at most (exit 130 "within a second"). */
const RELEASE_LOCK_WAIT_MS = 300;
/**
 * The ledger of one service: a 429 from a staging service
 * must not hold back production — but the service counts requests per client address, so
 * every profile and key of this machine that talks to one service spends one budget
 * (docs/cli-contract.md "Rate limits": "whatever their profile"). The address is hashed so
 * the file name stays short and portable; neither profile nor key plays a part.
 */
/** A shared ledger's files: the group of the directory reads and writes them too. */
export const SHARED_FILE_MODE = 0o660;

export function ledgerPathFor(configDir: string, baseUrl: string): string {
  return join(configDir, `rate-ledger-${budgetAddressHash(baseUrl)}.json`);
}

/** A short fingerprint of the service: its host and port (no scheme, path, credentials or query). */
export function budgetAddressHash(baseUrl: string): string {
  return sha256Hex(budgetAddress(baseUrl)).slice(0, 16);
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
   * A ledger in a directory that several Unix accounts share (SIMADMIN_RATE_STORE=file://…,
   * docs/rate-limits.md "Shared hosts"): its files are made group-readable and -writable
   * (0660, whatever the umask) so that the other accounts of the group can take the lock and
   * replace the ledger. Default: private to the user (0600).
   */
  shared?: boolean | undefined;
  /**
   * One line on stderr: a transaction waited ~1 s for the lock, or the ledger cannot be used
   * (a full or read-only settings directory) and the run keeps its own budget. Each once.
   */
  warn?: ((text: string) => void) | undefined;
}

export class RateLedger implements BudgetStore {
  readonly #limits: RateLimits;
  readonly #clock: Clock;
  readonly #path: string | undefined;
  readonly #lock: LedgerLock;
  readonly #signal: AbortSignal | undefined;
  readonly #owner: string;
  readonly #warn: (text: string) => void;
  readonly #fileMode: number;
  /** The notice of an unusable ledger, told once (the lock tells its own). */
  #toldUnusable = false;
  /** The in-memory budget, or this process's last copy of the shared one. */
  #budget: RateBudget;
  /** The end of this process's last transaction: the next one starts after it (see transact). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: RateLedgerOptions) {
    this.#limits = options.limits;
    this.#clock = options.clock;
    this.#path = options.path;
    this.#signal = options.signal;
    this.#owner = options.owner ?? ledgerOwner();
    this.#warn = options.warn ?? (() => undefined);
    this.#fileMode = options.shared === true ? SHARED_FILE_MODE : 0o600;
    this.#lock = new LedgerLock({
      clock: options.lockClock ?? systemClock,
      staleMs: options.staleLockMs,
      warn: this.#warn,
      fileMode: this.#fileMode,
    });
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
  settle(group: RequestGroup, slotAt: number, startedLateMs?: number, endedAt?: number): Promise<number> {
    return this.transact((budget, now) => budget.settle(group, slotAt, endedAt ?? now, startedLateMs));
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
    // One transaction of this process at a time goes for the lock file. Without the queue a
    // burst (`links serve`: 500 clicks at once) had every one of its waiters poll the lock
    // file every few milliseconds: the polls filled libuv's four file-system threads, each
    // transaction took hundreds of ms instead of a few, and sends started late after their
    // slots — late enough, with the arrival cap of budget.ts, to draw 429s (docs/rate-limits.md).
    const turn = this.#queue.then(() => this.#transactLocked(path, update, options));
    this.#queue = turn.catch(() => undefined);
    const signal = options.interruptible === false ? undefined : this.#signal;
    if (!signal) return turn;
    // Ctrl-C while queued behind this process's other transactions ends the wait at once.
    return Promise.race([
      turn,
      new Promise<never>((_, reject) => {
        const stop = (): void => reject(new InterruptedError());
        if (signal.aborted) stop();
        else signal.addEventListener("abort", stop, { once: true });
        void turn.finally(() => signal.removeEventListener("abort", stop)).catch(() => undefined);
      }),
    ]);
  }

  async #transactLocked<T>(
    path: string,
    update: (budget: RateBudget, now: number) => T,
    options: { interruptible?: boolean },
  ): Promise<T> {
    const interruptible = options.interruptible ?? true;
    let release: (() => Promise<void>) | undefined;
    try {
      release = await this.#lock.acquire(
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
      return parseRateBudgetState(JSON.parse(await ledgerFs.readFile(path, "utf8")));
    } catch {
      // A fresh budget.
    }
  }

  async #write(path: string, state: RateBudgetState): Promise<void> {
    const temp = `${path}.${uniqueName()}.tmp`;
    try {
      // "wx": a name taken (or a link planted there) fails the write rather than being followed.
      await ledgerFs.writeFile(temp, `${JSON.stringify(state)}\n`, { mode: this.#fileMode, flag: "wx" });
      // The umask (022 on most systems) takes the group's write bit from a shared ledger.
      if (this.#fileMode !== 0o600) await ledgerFs.chmod(temp, this.#fileMode);
      await ledgerFs.rename(temp, path);
    } catch (error) {
      await ledgerFs.unlink(temp).catch(() => undefined);
      throw error;
    }
  }
}

function describeLedgerError(error: unknown): string {
  const code = isErrnoError(error) ? error.code : undefined;
  const text = error instanceof Error ? error.message : String(error);
  if (code === "ENOSPC") return "no space left on device (ENOSPC)";
  if (code === "EROFS") return "read-only file system (EROFS)";
  if (code === "EACCES" || code === "EPERM") return `permission denied (${code})`;
  return (text.split("\n")[0] ?? text).slice(0, 200);
}
