import { ledgerFs } from "./ledger-files.js";
import { dirname } from "node:path";
import type { Clock } from "../../clock.js";
import { InterruptedError, isErrnoError } from "../../errors.js";

// The lock of the rate ledger's file (file-store.ts): a lock file created whole in a temp
// file and hard-linked into place (atomic create-if-absent on every local file system). A
// transaction holds it for milliseconds, so a lock older than STALE_LOCK_MS, or whose process
// is gone (kill -9, power cut in the middle), is stale and taken over.

/**
 * A transaction takes milliseconds; a lock this old belongs to a process that hung or died.
 * This is also the maximum hold: a live pid does not make an older lock valid (the pid may
 * have been reused, or the lock was written on another machine sharing the directory).
 * A longer hold for a live owner was weighed and left: every other run would stall
 * behind a suspended (Ctrl-Z) or hung one, while the worst of taking a live owner's lock after
 * a 5 s stall (a machine under heavy load) is a lost update — a request over the budget, one
 * 429 that the scheduler handles, as any loss of the ledger (file-store.ts).
 */
export const STALE_LOCK_MS = 5_000;
/**
 * A lock stamped further in the future than this was written before the clock stepped back
 * (or by a machine whose clock runs ahead): its age cannot be known, so it is stale.
 * 1 s allows for the skew of machines sharing a directory over NFS.
 */
export const FUTURE_LOCK_TOLERANCE_MS = 1_000;
const LOCK_POLL_MS = 5;
/** A wait for the lock longer than this is told on stderr: a silent stall looks like a hang. */
const LOCK_NOTICE_MS = 1_000;

/** What acquire() writes into a lock file (and a token, which only its writer looks for). */
interface LockBody {
  pid: number;
  time: number;
}

interface LockInfo {
  /** None: a lock with no readable owner, stale at once (readLockInfo). */
  body: LockBody | undefined;
  raw: string;
}

/** The owner and time of a lock file's JSON; undefined for anything else. */
function lockBody(json: unknown): LockBody | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const { pid, time } = json as Record<string, unknown>;
  return Number.isSafeInteger(pid) && Number.isFinite(time) ? { pid: pid as number, time: time as number } : undefined;
}

let named = 0;
/**
 * A name no other run uses at the same time, for a lock's token and temp files: this host's
 * process, its clock and a count, and a random part for hosts that share the directory. Only
 * unique, not secret: whoever may write the directory may replace the lock anyway, and temp
 * files are created with "wx" (never through a file or link already there). So no node:crypto,
 * which costs every command that sends a request ~6 ms to load (docs/architecture.md, Start-up).
 */
export function uniqueName(): string {
  named++;
  return [process.pid, Date.now(), named, Math.floor(Math.random() * 2 ** 52)].map((n) => n.toString(36)).join("-");
}

export interface LedgerLockOptions {
  /** Real time in use (the lock is shared with other processes); tests of staleness pass a fake. */
  clock: Clock;
  staleMs?: number | undefined;
  /** Told once, when a wait for the lock passes LOCK_NOTICE_MS. */
  warn: (text: string) => void;
  /** The lock file's mode: 0600, or 0660 for a ledger several accounts share (file-store.ts). */
  fileMode?: number | undefined;
}

export class LedgerLock {
  readonly #clock: Clock;
  readonly #staleMs: number;
  readonly #warn: (text: string) => void;
  readonly #fileMode: number;
  #toldWait = false;

  constructor(options: LedgerLockOptions) {
    this.#clock = options.clock;
    this.#staleMs = options.staleMs ?? STALE_LOCK_MS;
    this.#warn = options.warn;
    this.#fileMode = options.fileMode ?? 0o600;
  }

  /**
   * Takes the lock of the file at `path` (`<path>.lock`), waiting up to `maxWaitMs` for its
   * holder; resolves to the function that lets it go. Throws when the directory refuses the
   * lock file or the wait runs out (the ledger then keeps its own budget), InterruptedError on
   * `signal`.
   */
  async acquire(path: string, signal: AbortSignal | undefined, maxWaitMs: number): Promise<() => Promise<void>> {
    const lockPath = `${path}.lock`;
    const token = uniqueName();
    const started = this.#clock.now();
    /** 1 while the lock was found missing for read() since the last readable one. */
    let vanished = 0;
    // The lock is made whole in a temp file and hard-linked into place: a
    // lock file is never empty, so one that is (a full disk under an older version) is stale
    // at once — never a 5 s stall for every later run. A full or read-only settings directory
    // fails here, before a lock exists, and the run keeps its own budget (RateLedger.transact).
    const body = () => JSON.stringify({ pid: process.pid, time: this.#clock.now(), token });
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new InterruptedError();
      // A temp file of its own for each attempt, created with "wx" (see uniqueName).
      const temp = `${lockPath}.${token}-${attempt}.tmp`;
      try {
        await ledgerFs.writeFile(temp, body(), { mode: this.#fileMode, flag: "wx" });
        // Another account of a shared ledger's group reads the lock to judge it stale.
        if (this.#fileMode !== 0o600) await ledgerFs.chmod(temp, this.#fileMode);
        await ledgerFs.link(temp, lockPath);
        return () => releaseLock(lockPath, token);
      } catch (error) {
        const code = isErrnoError(error) ? error.code : undefined;
        if (code === "ENOENT") {
          // First use of the settings directory: 0700 as for the settings themselves. A
          // shared directory is the administrator's to make (docs/rate-limits.md).
          await ledgerFs.mkdir(dirname(lockPath), { recursive: true, mode: this.#fileMode === 0o600 ? 0o700 : 0o770 });
          continue;
        }
        if (code !== "EEXIST") throw error;
      } finally {
        await ledgerFs.unlink(temp).catch(() => undefined);
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
      const waited = this.#clock.now() - started;
      if (waited > maxWaitMs) {
        throw new Error(`rate ledger lock ${lockPath} is held too long`);
      }
      if (!this.#toldWait && waited >= LOCK_NOTICE_MS) {
        this.#toldWait = true;
        this.#warn(`waiting for the rate budget's lock ${lockPath}, held by another simadmin run`);
      }
      await this.#clock.sleep(LOCK_POLL_MS + Math.floor(this.#clock.random() * LOCK_POLL_MS), signal);
    }
  }

  /** True when the lock `info` (just read) was stale and has been moved away: try again at once. */
  async #takeOverIfStale(lockPath: string, info: LockInfo): Promise<boolean> {
    const { body } = info;
    if (body !== undefined) {
      const age = this.#clock.now() - body.time;
      const tooOld = age > this.#staleMs;
      const fromTheFuture = -age > FUTURE_LOCK_TOLERANCE_MS;
      if (!tooOld && !fromTheFuture && isProcessAlive(body.pid)) return false;
    }
    // Move it aside rather than delete it: rename is atomic, so of several processes that
    // judged it stale only one moves it. If what we moved is not the lock we judged (it was
    // replaced by a fresh one in between), put that one back unless a newer lock exists.
    const aside = `${lockPath}.${uniqueName()}.stale`;
    // Stryker disable BlockStatement: an empty catch goes on to find nothing aside and ends in true too.
    try {
      await ledgerFs.rename(lockPath, aside);
    } catch {
      return true;
    }
    // Stryker restore BlockStatement
    const moved = await ledgerFs.readFile(aside, "utf8").catch(() => undefined);
    if (moved !== info.raw) await ledgerFs.link(aside, lockPath).catch(() => undefined);
    await ledgerFs.unlink(aside).catch(() => undefined);
    return true;
  }
}

async function readLockInfo(lockPath: string): Promise<LockInfo | undefined> {
  let raw: string;
  try {
    raw = await ledgerFs.readFile(lockPath, "utf8");
  } catch {
    return undefined;
  }
  // Never written empty (acquire() links a complete file): no readable owner (empty, not JSON, not
  // ours) means a crash or a full disk under an older version, or a hand-made file — stale
  // now, whatever its age.
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // Not JSON: no body.
  }
  return { body: lockBody(json), raw };
}

async function releaseLock(lockPath: string, token: string): Promise<void> {
  // Only our own lock: after a stall past STALE_LOCK_MS another process may hold it now.
  // The token is base-36 digits and dashes (uniqueName): found as text whatever else the file holds.
  const raw = await ledgerFs.readFile(lockPath, "utf8").catch(() => undefined);
  if (raw !== undefined && raw.includes(token)) await ledgerFs.unlink(lockPath).catch(() => undefined);
}

export function isProcessAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return isErrnoError(error) && error.code === "EPERM";
  }
}
