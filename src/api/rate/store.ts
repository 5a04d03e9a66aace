import type { RateBudgetState, RateLimitedOutcome, Reservation } from "./budget.js";
import type { RequestGroup } from "./limits.js";

// Where the rate budget lives: the scheduler talks only to this interface, so the
// same sliding windows, Retry-After blocks and adaptive limits (budget.ts) can be kept
// in the settings directory (file-store.ts: the processes of one machine) or in Redis
// (redis-store.ts: every machine behind one address). Each implementation has its own clock
// — the file ledger the machine's, Redis the server's TIME — so times returned by one call
// (slotAt, sentAt) are handles to pass back to the same store, never compared with
// Date.now(); the scheduler only sleeps the durations (waitMs) it is given.
// The contract tests in test/http/budget-store-contract.test.ts run against both.

export interface BudgetStore {
  /** For messages and --verbose: "file ~/.config/simadmin/…", "redis 10.0.0.5:6379/0". Never a password. */
  readonly description: string;

  /**
   * Takes the next free slot of `group` and records it as a send. The caller sleeps
   * `waitMs` and sends. With `maxWaitMs`, a slot further away is not taken (reserved: false).
   */
  reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation>;

  /**
   * The attempt that reserved `slotAt` has just ended (answered or failed after sending);
   * `startedLateMs`: how long after its slot it started (RateBudget.settle). Returns its send time.
   */
  settle(group: RequestGroup, slotAt: number, startedLateMs?: number): Promise<number>;

  /** The request that reserved `slotAt` was never sent: the slot is free again. Never interrupted by Ctrl-C. */
  release(group: RequestGroup, slotAt: number): Promise<void>;

  /** The send settled at `sentAt` was answered 429 (RateBudget.noteRateLimited). */
  noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome>;

  /** The current state, for diagnostics and tests. */
  snapshot(): Promise<RateBudgetState>;

  /** Ends connections; the store is not used afterwards. */
  close(): Promise<void>;
}

/** Where a shared budget lives in Redis: SIMADMIN_RATE_STORE parsed (open-store.ts). */
export interface RedisLocation {
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username: string | undefined;
  password: string | undefined;
  /** For messages: "redis://10.0.0.5:6379/0" — never the user name or password. */
  display: string;
}
