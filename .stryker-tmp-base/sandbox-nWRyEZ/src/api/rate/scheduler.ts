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
import type { Clock } from "../../clock.js";
import { InterruptedError, RateLimitError, ServiceError, UnexpectedResponseError, throwIfAborted } from "../../errors.js";
import { DEFAULT_BASE_BACKOFF_MS, DEFAULT_MAX_BACKOFF_MS, backoffDelayMs } from "./backoff.js";
import type { BudgetStore } from "./store.js";
import { RateLedger } from "./file-store.js";
import { formatRateLimit, type RateLimits, type RequestGroup } from "./limits.js";

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

/** Long enough for a year of reports queued behind another job; short enough for cron. */
export const DEFAULT_DEADLINE_MS = stryMutAct_9fa48("868") ? 10 / 60_000 : (stryCov_9fa48("868"), 10 * 60_000);
export const DEFAULT_RETRIES = 5;

/** Whether `error` may be answered by sending the same request again. */
export function isRetryable(error: unknown, retry: RetryClass): boolean {
  if (stryMutAct_9fa48("869")) {
    {}
  } else {
    stryCov_9fa48("869");
    // A 429 means the service did not accept the request: repeating is safe even for uploads.
    if (stryMutAct_9fa48("871") ? false : stryMutAct_9fa48("870") ? true : (stryCov_9fa48("870", "871"), error instanceof RateLimitError)) return stryMutAct_9fa48("872") ? false : (stryCov_9fa48("872"), true);
    // The service answered, but not in a shape we understand: the same request would get the
    // same answer, and for an upload the answer means it may have been accepted.
    if (stryMutAct_9fa48("874") ? false : stryMutAct_9fa48("873") ? true : (stryCov_9fa48("873", "874"), error instanceof UnexpectedResponseError)) return stryMutAct_9fa48("875") ? true : (stryCov_9fa48("875"), false);
    // An untrusted certificate, an answer too large: the same request fails the same way.
    if (stryMutAct_9fa48("878") ? error instanceof ServiceError || !error.retryable : stryMutAct_9fa48("877") ? false : stryMutAct_9fa48("876") ? true : (stryCov_9fa48("876", "877", "878"), error instanceof ServiceError && (stryMutAct_9fa48("879") ? error.retryable : (stryCov_9fa48("879"), !error.retryable)))) return stryMutAct_9fa48("880") ? true : (stryCov_9fa48("880"), false);
    if (stryMutAct_9fa48("882") ? false : stryMutAct_9fa48("881") ? true : (stryCov_9fa48("881", "882"), error instanceof ServiceError)) return stryMutAct_9fa48("885") ? error.delivery === "not-sent" && retry === "safe" : stryMutAct_9fa48("884") ? false : stryMutAct_9fa48("883") ? true : (stryCov_9fa48("883", "884", "885"), (stryMutAct_9fa48("887") ? error.delivery !== "not-sent" : stryMutAct_9fa48("886") ? false : (stryCov_9fa48("886", "887"), error.delivery === (stryMutAct_9fa48("888") ? "" : (stryCov_9fa48("888"), "not-sent")))) || (stryMutAct_9fa48("890") ? retry !== "safe" : stryMutAct_9fa48("889") ? false : (stryCov_9fa48("889", "890"), retry === (stryMutAct_9fa48("891") ? "" : (stryCov_9fa48("891"), "safe")))));
    return stryMutAct_9fa48("892") ? true : (stryCov_9fa48("892"), false);
  }
}
export class Scheduler {
  readonly #options: SchedulerOptions;
  readonly #ledger: BudgetStore;
  constructor(options: SchedulerOptions) {
    if (stryMutAct_9fa48("893")) {
      {}
    } else {
      stryCov_9fa48("893");
      this.#options = options;
      this.#ledger = stryMutAct_9fa48("894") ? options.store && new RateLedger({
        limits: options.limits,
        clock: options.clock,
        path: options.ledgerPath,
        signal: options.signal
      }) : (stryCov_9fa48("894"), options.store ?? new RateLedger(stryMutAct_9fa48("895") ? {} : (stryCov_9fa48("895"), {
        limits: options.limits,
        clock: options.clock,
        path: options.ledgerPath,
        signal: options.signal
      })));
    }
  }

  /** The budget shared with other processes (for diagnostics and tests). */
  get ledger(): BudgetStore {
    if (stryMutAct_9fa48("896")) {
      {}
    } else {
      stryCov_9fa48("896");
      return this.#ledger;
    }
  }

  /**
   * Waits for budget, runs `send`, retries per class. `send` throws the typed errors of
   * src/errors.ts; it receives the attempt number (1 for the first).
   */
  async run<T>(request: ScheduledRequest, send: (attempt: number) => Promise<T>): Promise<T> {
    if (stryMutAct_9fa48("897")) {
      {}
    } else {
      stryCov_9fa48("897");
      const {
        clock,
        signal,
        retries
      } = this.#options;
      const deadline = stryMutAct_9fa48("898") ? clock.now() - (this.#options.deadlineMs ?? DEFAULT_DEADLINE_MS) : (stryCov_9fa48("898"), clock.now() + (stryMutAct_9fa48("899") ? this.#options.deadlineMs && DEFAULT_DEADLINE_MS : (stryCov_9fa48("899"), this.#options.deadlineMs ?? DEFAULT_DEADLINE_MS)));
      let lastError: unknown;
      if (stryMutAct_9fa48("900")) {
        for (let attempt = 1; false; attempt++) {
          const slotAt = await this.#waitForSlot(request, attempt, deadline, lastError);
          try {
            throwIfAborted(signal);
          } catch (error) {
            // Ctrl-C between the wait and the send: nothing went out (issue 12 item 10).
            await this.#ledger.release(request.group, slotAt);
            throw error;
          }
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
              const sentAt = await this.#ledger.settle(request.group, slotAt);
              // Tell the budget even when giving up: the next request (or process) benefits.
              if (error instanceof RateLimitError) await this.#ledger.noteRateLimited(request.group, sentAt, error.retryAfterMs);
            }
            if (!isRetryable(error, request.retry)) throw error;
            lastError = error;
            if (attempt > retries) throw withRetryTime(error, clock.now());
            await this.#waitBeforeRetry(request, attempt, deadline, error);
            continue;
          }
          await this.#ledger.settle(request.group, slotAt);
          return result;
        }
      } else {
        stryCov_9fa48("900");
        for (let attempt = 1;; stryMutAct_9fa48("901") ? attempt-- : (stryCov_9fa48("901"), attempt++)) {
          if (stryMutAct_9fa48("902")) {
            {}
          } else {
            stryCov_9fa48("902");
            const slotAt = await this.#waitForSlot(request, attempt, deadline, lastError);
            try {
              if (stryMutAct_9fa48("903")) {
                {}
              } else {
                stryCov_9fa48("903");
                throwIfAborted(signal);
              }
            } catch (error) {
              if (stryMutAct_9fa48("904")) {
                {}
              } else {
                stryCov_9fa48("904");
                // Ctrl-C between the wait and the send: nothing went out (issue 12 item 10).
                await this.#ledger.release(request.group, slotAt);
                throw error;
              }
            }
            let result: T;
            try {
              if (stryMutAct_9fa48("905")) {
                {}
              } else {
                stryCov_9fa48("905");
                result = await send(attempt);
              }
            } catch (error) {
              if (stryMutAct_9fa48("906")) {
                {}
              } else {
                stryCov_9fa48("906");
                // Whatever the transport made of an abort (a reset, an AbortError), Ctrl-C is an
                // interruption, never a retry. The slot stays taken: the request may have arrived.
                if (stryMutAct_9fa48("909") ? signal.aborted : stryMutAct_9fa48("908") ? false : stryMutAct_9fa48("907") ? true : (stryCov_9fa48("907", "908", "909"), signal?.aborted)) throw error instanceof InterruptedError ? error : new InterruptedError();
                if (stryMutAct_9fa48("912") ? error instanceof ServiceError || error.delivery === "not-sent" : stryMutAct_9fa48("911") ? false : stryMutAct_9fa48("910") ? true : (stryCov_9fa48("910", "911", "912"), error instanceof ServiceError && (stryMutAct_9fa48("914") ? error.delivery !== "not-sent" : stryMutAct_9fa48("913") ? true : (stryCov_9fa48("913", "914"), error.delivery === (stryMutAct_9fa48("915") ? "" : (stryCov_9fa48("915"), "not-sent")))))) {
                  if (stryMutAct_9fa48("916")) {
                    {}
                  } else {
                    stryCov_9fa48("916");
                    // Refused connection: the service never saw it, so it used no slot.
                    await this.#ledger.release(request.group, slotAt);
                  }
                } else {
                  if (stryMutAct_9fa48("917")) {
                    {}
                  } else {
                    stryCov_9fa48("917");
                    const sentAt = await this.#ledger.settle(request.group, slotAt);
                    // Tell the budget even when giving up: the next request (or process) benefits.
                    if (stryMutAct_9fa48("919") ? false : stryMutAct_9fa48("918") ? true : (stryCov_9fa48("918", "919"), error instanceof RateLimitError)) await this.#ledger.noteRateLimited(request.group, sentAt, error.retryAfterMs);
                  }
                }
                if (stryMutAct_9fa48("922") ? false : stryMutAct_9fa48("921") ? true : stryMutAct_9fa48("920") ? isRetryable(error, request.retry) : (stryCov_9fa48("920", "921", "922"), !isRetryable(error, request.retry))) throw error;
                lastError = error;
                if (stryMutAct_9fa48("926") ? attempt <= retries : stryMutAct_9fa48("925") ? attempt >= retries : stryMutAct_9fa48("924") ? false : stryMutAct_9fa48("923") ? true : (stryCov_9fa48("923", "924", "925", "926"), attempt > retries)) throw withRetryTime(error, clock.now());
                await this.#waitBeforeRetry(request, attempt, deadline, error);
                continue;
              }
            }
            await this.#ledger.settle(request.group, slotAt);
            return result;
          }
        }
      }
    }
  }

  /**
   * Sleeps before retry `attempt + 1`: never sooner than the service's Retry-After (0 or a
   * past date: at once); without one, one step of exponential backoff with full jitter
   * (docs/cli-contract.md "Rate limits", "Retries"). A wait that would pass the deadline ends
   * the request here — for a Retry-After with exit 7 and the time to try again (issue 12 item 5).
   */
  async #waitBeforeRetry(request: ScheduledRequest, attempt: number, deadline: number, error: unknown): Promise<void> {
    if (stryMutAct_9fa48("927")) {
      {}
    } else {
      stryCov_9fa48("927");
      const {
        clock,
        signal
      } = this.#options;
      const retryAfterMs = error instanceof RateLimitError ? error.retryAfterMs : undefined;
      const delayMs = stryMutAct_9fa48("928") ? retryAfterMs && this.#backoff(attempt) : (stryCov_9fa48("928"), retryAfterMs ?? this.#backoff(attempt));
      const now = clock.now();
      if (stryMutAct_9fa48("932") ? now + delayMs <= deadline : stryMutAct_9fa48("931") ? now + delayMs >= deadline : stryMutAct_9fa48("930") ? false : stryMutAct_9fa48("929") ? true : (stryCov_9fa48("929", "930", "931", "932"), (stryMutAct_9fa48("933") ? now - delayMs : (stryCov_9fa48("933"), now + delayMs)) > deadline)) {
        if (stryMutAct_9fa48("934")) {
          {}
        } else {
          stryCov_9fa48("934");
          if (stryMutAct_9fa48("937") ? retryAfterMs === undefined && !(error instanceof RateLimitError) : stryMutAct_9fa48("936") ? false : stryMutAct_9fa48("935") ? true : (stryCov_9fa48("935", "936", "937"), (stryMutAct_9fa48("939") ? retryAfterMs !== undefined : stryMutAct_9fa48("938") ? false : (stryCov_9fa48("938", "939"), retryAfterMs === undefined)) || (stryMutAct_9fa48("940") ? error instanceof RateLimitError : (stryCov_9fa48("940"), !(error instanceof RateLimitError))))) throw error;
          const at = new Date(stryMutAct_9fa48("941") ? now - retryAfterMs : (stryCov_9fa48("941"), now + retryAfterMs));
          throw new RateLimitError((stryMutAct_9fa48("942") ? `` : (stryCov_9fa48("942"), `${request.label}: the service asks to wait ${formatDuration(retryAfterMs)} (Retry-After, until ${at.toISOString()}), `)) + (stryMutAct_9fa48("943") ? `` : (stryCov_9fa48("943"), `longer than this request may take`)), stryMutAct_9fa48("944") ? {} : (stryCov_9fa48("944"), {
            hint: stryMutAct_9fa48("945") ? `` : (stryCov_9fa48("945"), `try again after ${at.toISOString()}`),
            retryAfterMs,
            cause: error
          }));
        }
      }
      stryMutAct_9fa48("946") ? this.#options.onWait({
        group: request.group,
        reason: "retry",
        waitMs: delayMs,
        attempt: attempt + 1,
        label: request.label
      }) : (stryCov_9fa48("946"), this.#options.onWait?.(stryMutAct_9fa48("947") ? {} : (stryCov_9fa48("947"), {
        group: request.group,
        reason: stryMutAct_9fa48("948") ? "" : (stryCov_9fa48("948"), "retry"),
        waitMs: delayMs,
        attempt: stryMutAct_9fa48("949") ? attempt - 1 : (stryCov_9fa48("949"), attempt + 1),
        label: request.label
      })));
      await clock.sleep(delayMs, signal);
    }
  }

  /** Reserves the next slot of the request's group and sleeps until it; returns the slot. */
  async #waitForSlot(request: ScheduledRequest, attempt: number, deadline: number, lastError: unknown): Promise<number> {
    if (stryMutAct_9fa48("950")) {
      {}
    } else {
      stryCov_9fa48("950");
      const {
        clock,
        signal
      } = this.#options;
      throwIfAborted(signal);
      const reservation = await this.#ledger.reserve(request.group, stryMutAct_9fa48("951") ? Math.min(0, deadline - clock.now()) : (stryCov_9fa48("951"), Math.max(0, stryMutAct_9fa48("952") ? deadline + clock.now() : (stryCov_9fa48("952"), deadline - clock.now()))));
      if (stryMutAct_9fa48("955") ? false : stryMutAct_9fa48("954") ? true : stryMutAct_9fa48("953") ? reservation.reserved : (stryCov_9fa48("953", "954", "955"), !reservation.reserved)) {
        if (stryMutAct_9fa48("956")) {
          {}
        } else {
          stryCov_9fa48("956");
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the previous attempt's error, rethrown unchanged
          if (stryMutAct_9fa48("959") ? lastError === undefined : stryMutAct_9fa48("958") ? false : stryMutAct_9fa48("957") ? true : (stryCov_9fa48("957", "958", "959"), lastError !== undefined)) throw lastError;
          // Nothing was sent and no 429 received: not exit 7 (issue 12 item 10) but a local
          // timeout, exit 8, naming the budget and where it is kept.
          const {
            limits
          } = this.#options;
          throw new ServiceError((stryMutAct_9fa48("960") ? `` : (stryCov_9fa48("960"), `${request.label}: no ${request.group} request slot within this request's time limit `)) + (stryMutAct_9fa48("961") ? `` : (stryCov_9fa48("961"), `(next in ${formatDuration(reservation.waitMs)}; budget ${formatRateLimit(limits[request.group])}, ${this.#ledger.description}); nothing was sent`)), stryMutAct_9fa48("962") ? {} : (stryCov_9fa48("962"), {
            hint: stryMutAct_9fa48("963") ? "" : (stryCov_9fa48("963"), "other simadmin runs sharing this budget are queued ahead; try again later"),
            delivery: stryMutAct_9fa48("964") ? "" : (stryCov_9fa48("964"), "not-sent")
          }));
        }
      }
      if (stryMutAct_9fa48("968") ? reservation.waitMs <= 0 : stryMutAct_9fa48("967") ? reservation.waitMs >= 0 : stryMutAct_9fa48("966") ? false : stryMutAct_9fa48("965") ? true : (stryCov_9fa48("965", "966", "967", "968"), reservation.waitMs > 0)) {
        if (stryMutAct_9fa48("969")) {
          {}
        } else {
          stryCov_9fa48("969");
          stryMutAct_9fa48("970") ? this.#options.onWait({
            group: request.group,
            reason: "budget",
            waitMs: reservation.waitMs,
            attempt,
            label: request.label
          }) : (stryCov_9fa48("970"), this.#options.onWait?.(stryMutAct_9fa48("971") ? {} : (stryCov_9fa48("971"), {
            group: request.group,
            reason: stryMutAct_9fa48("972") ? "" : (stryCov_9fa48("972"), "budget"),
            waitMs: reservation.waitMs,
            attempt,
            label: request.label
          })));
          try {
            if (stryMutAct_9fa48("973")) {
              {}
            } else {
              stryCov_9fa48("973");
              await clock.sleep(reservation.waitMs, signal);
            }
          } catch (error) {
            if (stryMutAct_9fa48("974")) {
              {}
            } else {
              stryCov_9fa48("974");
              // Ctrl-C while queued: give the slot back so the next run does not wait for it.
              await this.#ledger.release(request.group, reservation.slotAt);
              throw error;
            }
          }
        }
      }
      return reservation.slotAt;
    }
  }
  #backoff(attempt: number): number {
    if (stryMutAct_9fa48("975")) {
      {}
    } else {
      stryCov_9fa48("975");
      return backoffDelayMs(attempt, this.#options.clock.random(), stryMutAct_9fa48("976") ? this.#options.baseBackoffMs && DEFAULT_BASE_BACKOFF_MS : (stryCov_9fa48("976"), this.#options.baseBackoffMs ?? DEFAULT_BASE_BACKOFF_MS), stryMutAct_9fa48("977") ? this.#options.maxBackoffMs && DEFAULT_MAX_BACKOFF_MS : (stryCov_9fa48("977"), this.#options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS));
    }
  }
}

/** A 429 given up on says when the service expects us back, if it said so (issue 12 item 5). */
function withRetryTime(error: unknown, now: number): unknown {
  if (stryMutAct_9fa48("978")) {
    {}
  } else {
    stryCov_9fa48("978");
    if (stryMutAct_9fa48("981") ? (!(error instanceof RateLimitError) || error.retryAfterMs === undefined) && error.retryAfterMs <= 0 : stryMutAct_9fa48("980") ? false : stryMutAct_9fa48("979") ? true : (stryCov_9fa48("979", "980", "981"), (stryMutAct_9fa48("983") ? !(error instanceof RateLimitError) && error.retryAfterMs === undefined : stryMutAct_9fa48("982") ? false : (stryCov_9fa48("982", "983"), (stryMutAct_9fa48("984") ? error instanceof RateLimitError : (stryCov_9fa48("984"), !(error instanceof RateLimitError))) || (stryMutAct_9fa48("986") ? error.retryAfterMs !== undefined : stryMutAct_9fa48("985") ? false : (stryCov_9fa48("985", "986"), error.retryAfterMs === undefined)))) || (stryMutAct_9fa48("989") ? error.retryAfterMs > 0 : stryMutAct_9fa48("988") ? error.retryAfterMs < 0 : stryMutAct_9fa48("987") ? false : (stryCov_9fa48("987", "988", "989"), error.retryAfterMs <= 0)))) return error;
    const at = new Date(stryMutAct_9fa48("990") ? now - error.retryAfterMs : (stryCov_9fa48("990"), now + error.retryAfterMs)).toISOString();
    return new RateLimitError(error.message, stryMutAct_9fa48("991") ? {} : (stryCov_9fa48("991"), {
      hint: stryMutAct_9fa48("992") ? `` : (stryCov_9fa48("992"), `try again after ${at}`),
      retryAfterMs: error.retryAfterMs,
      cause: error
    }));
  }
}

/** "61 s", "16 min 40 s", "11 d 13 h" — for messages. */
export function formatDuration(ms: number): string {
  if (stryMutAct_9fa48("993")) {
    {}
  } else {
    stryCov_9fa48("993");
    const seconds = Math.ceil(stryMutAct_9fa48("994") ? ms * 1000 : (stryCov_9fa48("994"), ms / 1000));
    if (stryMutAct_9fa48("998") ? seconds >= 120 : stryMutAct_9fa48("997") ? seconds <= 120 : stryMutAct_9fa48("996") ? false : stryMutAct_9fa48("995") ? true : (stryCov_9fa48("995", "996", "997", "998"), seconds < 120)) return stryMutAct_9fa48("999") ? `` : (stryCov_9fa48("999"), `${seconds} s`);
    const minutes = Math.floor(stryMutAct_9fa48("1000") ? seconds * 60 : (stryCov_9fa48("1000"), seconds / 60));
    if (stryMutAct_9fa48("1004") ? minutes >= 120 : stryMutAct_9fa48("1003") ? minutes <= 120 : stryMutAct_9fa48("1002") ? false : stryMutAct_9fa48("1001") ? true : (stryCov_9fa48("1001", "1002", "1003", "1004"), minutes < 120)) return (stryMutAct_9fa48("1007") ? seconds % 60 !== 0 : stryMutAct_9fa48("1006") ? false : stryMutAct_9fa48("1005") ? true : (stryCov_9fa48("1005", "1006", "1007"), (stryMutAct_9fa48("1008") ? seconds * 60 : (stryCov_9fa48("1008"), seconds % 60)) === 0)) ? stryMutAct_9fa48("1009") ? `` : (stryCov_9fa48("1009"), `${minutes} min`) : stryMutAct_9fa48("1010") ? `` : (stryCov_9fa48("1010"), `${minutes} min ${stryMutAct_9fa48("1011") ? seconds * 60 : (stryCov_9fa48("1011"), seconds % 60)} s`);
    const hours = Math.floor(stryMutAct_9fa48("1012") ? minutes * 60 : (stryCov_9fa48("1012"), minutes / 60));
    if (stryMutAct_9fa48("1016") ? hours >= 48 : stryMutAct_9fa48("1015") ? hours <= 48 : stryMutAct_9fa48("1014") ? false : stryMutAct_9fa48("1013") ? true : (stryCov_9fa48("1013", "1014", "1015", "1016"), hours < 48)) return (stryMutAct_9fa48("1019") ? minutes % 60 !== 0 : stryMutAct_9fa48("1018") ? false : stryMutAct_9fa48("1017") ? true : (stryCov_9fa48("1017", "1018", "1019"), (stryMutAct_9fa48("1020") ? minutes * 60 : (stryCov_9fa48("1020"), minutes % 60)) === 0)) ? stryMutAct_9fa48("1021") ? `` : (stryCov_9fa48("1021"), `${hours} h`) : stryMutAct_9fa48("1022") ? `` : (stryCov_9fa48("1022"), `${hours} h ${stryMutAct_9fa48("1023") ? minutes * 60 : (stryCov_9fa48("1023"), minutes % 60)} min`);
    return stryMutAct_9fa48("1024") ? `` : (stryCov_9fa48("1024"), `${Math.floor(stryMutAct_9fa48("1025") ? hours * 24 : (stryCov_9fa48("1025"), hours / 24))} d ${stryMutAct_9fa48("1026") ? hours * 24 : (stryCov_9fa48("1026"), hours % 24)} h`);
  }
}

/** "waiting 42 s for the access rate budget before token" — a wait, in words, for stderr. */
export function describeWait(event: WaitEvent): string {
  if (stryMutAct_9fa48("1027")) {
    {}
  } else {
    stryCov_9fa48("1027");
    const duration = formatDuration(event.waitMs);
    return (stryMutAct_9fa48("1030") ? event.reason !== "budget" : stryMutAct_9fa48("1029") ? false : stryMutAct_9fa48("1028") ? true : (stryCov_9fa48("1028", "1029", "1030"), event.reason === (stryMutAct_9fa48("1031") ? "" : (stryCov_9fa48("1031"), "budget")))) ? stryMutAct_9fa48("1032") ? `` : (stryCov_9fa48("1032"), `waiting ${duration} for the ${event.group} rate budget before ${event.label}`) : stryMutAct_9fa48("1033") ? `` : (stryCov_9fa48("1033"), `waiting ${duration} before retry ${stryMutAct_9fa48("1034") ? event.attempt + 1 : (stryCov_9fa48("1034"), event.attempt - 1)} of ${event.label}`);
  }
}