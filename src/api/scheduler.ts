import type { Clock } from "../clock.js";
import { InterruptedError, RateLimitError, ServiceError, UnexpectedResponseError, throwIfAborted } from "../errors.js";
import { DEFAULT_BASE_BACKOFF_MS, DEFAULT_MAX_BACKOFF_MS, backoffDelayMs } from "./backoff.js";
import { RateLedger } from "./rate-ledger.js";
import { formatRateLimit, type RateLimits, type RequestGroup } from "./rate-limits.js";

// Every request to the service passes through Scheduler.run(): it waits for a slot in its
// group's budget (so the client never causes a 429 itself), sends, and retries what is safe
// to retry (docs/cli-contract.md "Rate limits" and "Retries", issue 4).

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
  /** Ledger file shared by the processes of one profile; none: this process only. */
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

/** Long enough for a year of reports queued behind another job; short enough for cron. */
export const DEFAULT_DEADLINE_MS = 10 * 60_000;
export const DEFAULT_RETRIES = 5;

/** Whether `error` may be answered by sending the same request again. */
export function isRetryable(error: unknown, retry: RetryClass): boolean {
  // A 429 means the service did not accept the request: repeating is safe even for uploads.
  if (error instanceof RateLimitError) return true;
  // The service answered, but not in a shape we understand: the same request would get the
  // same answer, and for an upload the answer means it may have been accepted.
  if (error instanceof UnexpectedResponseError) return false;
  if (error instanceof ServiceError) return error.delivery === "not-sent" || retry === "safe";
  return false;
}

export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #ledger: RateLedger;

  constructor(options: SchedulerOptions) {
    this.#options = options;
    this.#ledger = new RateLedger({
      limits: options.limits,
      clock: options.clock,
      path: options.ledgerPath,
      signal: options.signal,
    });
  }

  /** The budget shared with other processes (for diagnostics and tests). */
  get ledger(): RateLedger {
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
      const slotAt = await this.#waitForSlot(request, attempt, deadline, lastError);
      try {
        throwIfAborted(signal);
        const result = await send(attempt);
        await this.#ledger.settle(request.group, slotAt, clock.now());
        return result;
      } catch (error) {
        // Whatever the transport made of an abort (undici's AbortError, a reset), Ctrl-C
        // is an interruption, never a retry.
        if (signal?.aborted) throw error instanceof InterruptedError ? error : new InterruptedError();
        const sentAt = await this.#ledger.settle(request.group, slotAt, clock.now());
        if (!isRetryable(error, request.retry)) throw error;
        lastError = error;

        // Tell the budget even when giving up: the next request (or process) benefits.
        if (error instanceof RateLimitError) {
          await this.#ledger.noteRateLimited(request.group, sentAt, error.retryAfterMs);
        }
        if (attempt > retries) throw error;
        // Never sooner than the service asked; without Retry-After, back off on our own.
        const delayMs =
          error instanceof RateLimitError && error.retryAfterMs !== undefined ? error.retryAfterMs : this.#backoff(attempt);
        if (clock.now() + delayMs > deadline) throw error;
        this.#options.onWait?.({
          group: request.group,
          reason: "retry",
          waitMs: delayMs,
          attempt: attempt + 1,
          label: request.label,
        });
        await clock.sleep(delayMs, signal);
      }
    }
  }

  /** Reserves the next slot of the request's group and sleeps until it; returns the send time. */
  async #waitForSlot(request: ScheduledRequest, attempt: number, deadline: number, lastError: unknown): Promise<number> {
    const { clock, signal } = this.#options;
    throwIfAborted(signal);
    const reservation = await this.#ledger.reserve(request.group, Math.max(0, deadline - clock.now()));
    if (!reservation.reserved) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the previous attempt's error, rethrown unchanged
      if (lastError !== undefined) throw lastError;
      const { limits } = this.#options;
      throw new RateLimitError(
        `${request.label}: no ${request.group} request slot before the deadline ` +
          `(next in ${Math.ceil(reservation.waitMs / 1000)} s; budget ${formatRateLimit(limits[request.group])})`,
        { hint: "other simadmin runs on this machine are using the same budget; try again later" },
      );
    }
    if (reservation.waitMs > 0) {
      this.#options.onWait?.({
        group: request.group,
        reason: "budget",
        waitMs: reservation.waitMs,
        attempt,
        label: request.label,
      });
      await clock.sleep(reservation.waitMs, signal);
    }
    return reservation.slotAt;
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
