import type { Clock } from "../../clock.js";
import { formatDuration } from "../../domain/durations.js";
import { BudgetFullError, InterruptedError, RateLimitError, ServiceError, throwIfAborted } from "../../errors.js";
import { DEFAULT_BASE_BACKOFF_MS, DEFAULT_MAX_BACKOFF_MS, backoffDelayMs } from "./backoff.js";
import type { Reservation } from "./budget.js";
import type { BudgetStore } from "./store.js";
import { RateLedger } from "./file-store.js";
import { formatRateLimit, type RateLimits, type RequestGroup } from "./limits.js";

// Every request to the service passes through Scheduler.run(): it waits for a slot in its
// group's budget (so the client never causes a 429 itself), sends, and retries what is safe
// to retry (docs/cli-contract.md "Rate limits" and "Retries").

export interface WaitEvent {
  group: RequestGroup;
  /** "budget": waiting for a free slot before sending; "retry": backing off after a failure. */
  reason: "budget" | "retry";
  waitMs: number;
  /** The attempt that follows the wait, 1 for the first send. */
  attempt: number;
  label: string;
}

export interface SchedulerOptions {
  limits: RateLimits;
  /** Where the budget is kept (file ledger, Redis); wins over ledgerPath. */
  store?: BudgetStore | undefined;
  /** Ledger file shared by the processes of one profile and address; none: this process only. */
  ledgerPath?: string | undefined;
  /** --retries: retries after the first attempt. */
  retries: number;
  /** Overall time per request, from the call to run(), budget waits and retries included. */
  deadlineMs?: number | undefined;
  clock: Clock;
  /** Ctrl-C: waits and sleeps end at once with InterruptedError. */
  signal?: AbortSignal | undefined;
  /** For progress displays: "next report request in 4 s". */
  onWait?: ((event: WaitEvent) => void) | undefined;
  baseBackoffMs?: number | undefined;
  maxBackoffMs?: number | undefined;
}

/**
 * "safe": repeating the request does no harm (reads, create that returns the existing
 * user, idempotent assignment). "upload": a bulk-import upload, which must never be sent
 * twice — repeated only when the service cannot have received it.
 */
export type RetryClass = "safe" | "upload";

export interface ScheduledRequest {
  group: RequestGroup;
  retry: RetryClass;
  /** What is being sent, for progress and messages, e.g. "report syms 2026-01-01..2026-01-30". */
  label: string;
}

/**
 * 10 minutes: long enough for a year of reports queued behind another job; short enough for
 * cron. A literal, not 10 * 60_000: a computed module-level constant is a mutant no test can
 * switch (it is evaluated once, at import), though test/unit/scheduler-retries.test.ts checks it.
 */
export const DEFAULT_DEADLINE_MS = 600_000;

/** Whether `error` may be answered by sending the same request again. */
export function isRetryable(error: unknown, retry: RetryClass): boolean {
  // A 429 means the service did not accept the request: repeating is safe even for uploads.
  if (error instanceof RateLimitError) return true;
  // An untrusted certificate, an answer too large: the same request fails the same way. So
  // does an answer we do not understand (UnexpectedResponseError, never retryable): the same
  // request would get the same answer, and for an upload it means it may have been accepted.
  if (error instanceof ServiceError && !error.retryable) return false;
  if (error instanceof ServiceError) return error.delivery === "not-sent" || retry === "safe";
  return false;
}

export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #ledger: BudgetStore;

  constructor(options: SchedulerOptions) {
    this.#options = options;
    this.#ledger =
      options.store ??
      new RateLedger({
        limits: options.limits,
        clock: options.clock,
        path: options.ledgerPath,
        signal: options.signal,
      });
  }

  /** The budget shared with other processes (for diagnostics and tests). */
  get ledger(): BudgetStore {
    return this.#ledger;
  }

  /**
   * Waits for budget, runs `send`, retries per class. `send` throws the typed errors of
   * src/errors.ts; it receives the attempt number (1 for the first).
   */
  async run<T>(request: ScheduledRequest, send: (attempt: number) => Promise<T>): Promise<T> {
    const { clock, signal, retries } = this.#options;
    const deadline = clock.now() + (this.#options.deadlineMs ?? DEFAULT_DEADLINE_MS);
    let lastError: unknown;

    for (let attempt = 1; ; attempt++) {
      // Read before the reservation: a continuation that runs late after it (a busy event
      // loop, a queue for the ledger) counts as lateness too — at worst the send is counted
      // from when its answer came, which is never too early (RateBudget.settle).
      const reservingAt = clock.now();
      const { slotAt, waitMs } = await this.#reserve(request, deadline, lastError);
      try {
        if (waitMs > 0) {
          this.#options.onWait?.({ group: request.group, reason: "budget", waitMs, attempt, label: request.label });
          await clock.sleep(waitMs, signal);
        }
        throwIfAborted(signal);
      } catch (error) {
        // Ctrl-C while queued, or between the wait and the send: nothing went out, so the slot
        // is given back and the next run does not wait for it.
        await this.#ledger.release(request.group, slotAt);
        throw error;
      }
      // How long after its slot the send really starts: a busy event loop (a burst) makes it
      // late, and the budget counts its arrival from here (RateBudget.settle).
      const startedLateMs = Math.max(0, clock.now() - reservingAt - waitMs);
      let result: T;
      try {
        result = await send(attempt);
      } catch (error) {
        // Whatever the transport made of an abort (a reset, an AbortError), Ctrl-C is an
        // interruption, never a retry. The slot stays taken: the request may have arrived.
        if (signal?.aborted) throw error instanceof InterruptedError ? error : new InterruptedError();
        if (error instanceof ServiceError && error.delivery === "not-sent") {
          // Refused connection: the service never saw it, so it used no slot.
          await this.#ledger.release(request.group, slotAt);
        } else {
          const sentAt = await this.#ledger.settle(request.group, slotAt, startedLateMs);
          // Tell the budget even when giving up: the next request (or process) benefits.
          if (error instanceof RateLimitError) await this.#ledger.noteRateLimited(request.group, sentAt, error.retryAfterMs);
        }
        if (!isRetryable(error, request.retry)) throw error;
        lastError = error;
        if (attempt > retries) throw withRetryTime(error, clock.now());
        await this.#waitBeforeRetry(request, attempt, deadline, error);
        continue;
      }
      await this.#ledger.settle(request.group, slotAt, startedLateMs);
      return result;
    }
  }

  /**
   * Sleeps before retry `attempt + 1`: never sooner than the service's Retry-After (0 or a
   * past date: at once); without one, one step of exponential backoff with full jitter
   * (docs/cli-contract.md "Rate limits", "Retries"). A wait that would pass the deadline ends
   * the request here — for a Retry-After with exit 7 and the time to try again.
   */
  async #waitBeforeRetry(request: ScheduledRequest, attempt: number, deadline: number, error: unknown): Promise<void> {
    const { clock, signal } = this.#options;
    const retryAfterMs = error instanceof RateLimitError ? error.retryAfterMs : undefined;
    const delayMs = retryAfterMs ?? this.#backoff(attempt);
    const now = clock.now();
    if (now + delayMs > deadline) {
      if (retryAfterMs === undefined) throw error;
      const at = new Date(now + retryAfterMs);
      throw new RateLimitError(
        `${request.label}: the service asks to wait ${formatDuration(retryAfterMs)} (Retry-After, until ${at.toISOString()}), ` +
          `longer than this request may take`,
        { hint: `try again after ${at.toISOString()}`, retryAfterMs, cause: error },
      );
    }
    this.#options.onWait?.({
      group: request.group,
      reason: "retry",
      waitMs: delayMs,
      attempt: attempt + 1,
      label: request.label,
    });
    await clock.sleep(delayMs, signal);
  }

  /** Reserves the next slot of the request's group; the caller sleeps `waitMs` until it. */
  async #reserve(request: ScheduledRequest, deadline: number, lastError: unknown): Promise<Reservation> {
    const { clock, signal } = this.#options;
    throwIfAborted(signal);
    const reservation = await this.#ledger.reserve(request.group, Math.max(0, deadline - clock.now()));
    if (!reservation.reserved) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the previous attempt's error, rethrown unchanged
      if (lastError !== undefined) throw lastError;
      // Nothing was sent and no 429 received: not exit 7 but a local
      // timeout, exit 8, naming the budget and where it is kept.
      const { limits } = this.#options;
      throw new BudgetFullError(
        `${request.label}: no ${request.group} request slot within this request's time limit ` +
          `(next in ${formatDuration(reservation.waitMs)}; budget ${formatRateLimit(limits[request.group])}, ${this.#ledger.description}); nothing was sent`,
        { hint: "other simadmin runs sharing this budget are queued ahead; try again later", nextSlotInMs: reservation.waitMs },
      );
    }
    return reservation;
  }

  #backoff(attempt: number): number {
    return backoffDelayMs(
      attempt,
      this.#options.clock.random(),
      this.#options.baseBackoffMs ?? DEFAULT_BASE_BACKOFF_MS,
      this.#options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    );
  }
}

/** A 429 given up on says when the service expects us back, if it said so. */
function withRetryTime(error: unknown, now: number): unknown {
  if (!(error instanceof RateLimitError) || error.retryAfterMs === undefined || error.retryAfterMs <= 0) return error;
  const at = new Date(now + error.retryAfterMs).toISOString();
  return new RateLimitError(error.message, { hint: `try again after ${at}`, retryAfterMs: error.retryAfterMs, cause: error });
}

/** "waiting 42s for the access rate budget before token" — a wait, in words, for stderr. */
export function describeWait(event: WaitEvent): string {
  const duration = formatDuration(event.waitMs);
  return event.reason === "budget"
    ? `waiting ${duration} for the ${event.group} rate budget before ${event.label}`
    : `waiting ${duration} before retry ${event.attempt - 1} of ${event.label}`;
}
