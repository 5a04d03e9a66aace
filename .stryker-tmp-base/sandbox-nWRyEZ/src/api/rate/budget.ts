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
import * as z from "zod";
import { REQUEST_GROUPS, type RateLimits, type RequestGroup } from "./limits.js";

// Pure sliding-window arithmetic: no I/O and no clock of its own — every method takes `now`.
// The ledger (file-store.ts) persists the state between processes; the scheduler decides
// when to sleep.

/**
 * How much later than `oldest + window` a slot is considered free.
 *
 * What the margin must cover: the service counts *arrival* times, we count *send* times, so
 * two sends W apart can arrive less than W apart when the first one travelled slower than
 * the second (latency jitter: a few ms on loopback, tens to a few hundred on the internet,
 * more on a TLS handshake or a retried connection); timers that fire a little late or early;
 * and a service that measures its window coarsely (whole seconds, a token bucket refilling
 * slightly slower than advertised, or a fixed window whose boundary it rounds).
 * - 150 ms floor: covers internet latency jitter and timer slop for short windows
 *   (sandbox with scaled limits, e.g. 10 per 10 s).
 * - 1.5 % of the window: the coarse-measurement risks grow with the window (900 ms for
 *   60 s, 4.5 s for 300 s), while the cost stays a fixed 1.5 % of the ideal time — well
 *   inside the 5 % the issue allows for one process. At 10 s the floor and the 1.5 %
 *   coincide (150 ms), so the benchmark against the sandbox scaled to 10 per 10 s pays the
 *   same relative cost as production's 10 per 60 s.
 */
export function safetyMarginMs(windowMs: number): number {
  if (stryMutAct_9fa48("37")) {
    {}
  } else {
    stryCov_9fa48("37");
    return stryMutAct_9fa48("38") ? Math.min(150, Math.ceil(windowMs * 0.015)) : (stryCov_9fa48("38"), Math.max(150, Math.ceil(stryMutAct_9fa48("39") ? windowMs / 0.015 : (stryCov_9fa48("39"), windowMs * 0.015))));
  }
}

/**
 * How far after its reserved slot a send may still reach the service, at most.
 *
 * The slot is taken before the request goes out, but the service counts its *arrival*, and
 * the gap between the two is not always small: the first fetch of a process loads undici
 * lazily, then DNS, TCP and TLS handshakes follow — measured at 600 ms on a loaded machine,
 * where a later request of the same process takes 5 ms. Against an oldest send recorded
 * 600 ms early, the 150 ms margin is not enough (two processes with the service's exact
 * budget got 429s). So once an attempt ends, its send is moved to when it ended — the
 * service has counted it by then — but by no more than this: a longer answer is the service
 * computing (a slow report) after it counted the request, and moving the send by that much
 * would only slow the next window down.
 */
export const MAX_ARRIVAL_DELAY_MS = 1_000;

/**
 * After an unpredicted 429 the effective limit recovers by this many per quiet window (a
 * window without a 429). 1 for the reports group (10 per minute, as the issue asks);
 * proportionally more for large limits, so that even a shrink to 1 recovers within about
 * ten windows rather than 99 × 5 minutes for the access group.
 */
export function recoveryStep(limit: number): number {
  if (stryMutAct_9fa48("40")) {
    {}
  } else {
    stryCov_9fa48("40");
    return stryMutAct_9fa48("41") ? Math.min(1, Math.ceil(limit / 10)) : (stryCov_9fa48("41"), Math.max(1, Math.ceil(stryMutAct_9fa48("42") ? limit * 10 : (stryCov_9fa48("42"), limit / 10))));
  }
}

/** At most 2^3 = 8 quiet windows per recovery step (8 min for reports, 40 min for access). */
export const MAX_FAILED_PROBES = 3;

/**
 * Unexpected 429s (ones our budget allowed) within one window before the limit is lowered
 * (issue 12 items 6 and 11). One 429 proves little — another client on the same address, a
 * service restart, a proxy — and lowering on it cost a whole window per retry and carried the
 * cut into later runs. Three within a window is repeated evidence that the service is stricter.
 */
export const STRIKES_TO_LOWER = 3;

/** A request that holds a slot but has not been settled yet, and who holds it. */
export interface PendingReservation {
  at: number;
  /** "<host>:<pid>" for the file ledger: lets a later process free the slots of a dead one. */
  owner: string;
}

/** An unexpected 429: when, and how many sends the service had accepted in the window before it. */
export interface Strike {
  at: number;
  accepted: number;
}
export interface GroupBudgetState {
  /**
   * Send times in ms since the epoch, ascending. May lie in the future: a slot reserved by a
   * request that is still waiting for it, so that other requests (and processes) queue
   * behind it instead of racing for the same slot.
   */
  sends: number[];
  /** Lowered limit after a 429 we did not predict; null while the configured limit holds. */
  reducedLimit: number | null;
  /** When reducedLimit last changed: recovery counts quiet windows from here. */
  adjustedAt: number;
  /**
   * Recovery steps that ended in another 429. Each doubles the quiet time needed for the
   * next step (up to MAX_FAILED_PROBES), so a service that really is stricter sees a probe
   * every few windows rather than a 429 in every window.
   */
  failedProbes: number;
  /**
   * No send before this time: the service's Retry-After, shared with the other processes.
   * Never more than one window ahead (issue 12 item 5; docs/cli-contract.md "Rate limits").
   */
  blockedUntil: number;
  /** Slots reserved and not yet settled or released (issue 12 item 10). */
  pending: PendingReservation[];
  /** Unexpected 429s of the last window: the evidence for lowering the limit. */
  strikes: Strike[];
}
export interface RateBudgetState {
  version: 1;
  groups: Record<RequestGroup, GroupBudgetState>;
}
const GroupBudgetStateSchema = z.object(stryMutAct_9fa48("43") ? {} : (stryCov_9fa48("43"), {
  sends: z.array(z.number().finite()),
  reducedLimit: stryMutAct_9fa48("44") ? z.number().int().max(1).nullable() : (stryCov_9fa48("44"), z.number().int().min(1).nullable()),
  adjustedAt: z.number().finite(),
  failedProbes: stryMutAct_9fa48("45") ? z.number().int().max(0) : (stryCov_9fa48("45"), z.number().int().min(0)),
  blockedUntil: z.number().finite(),
  // Absent in ledgers written before issue 12: read as empty.
  pending: z.array(z.object(stryMutAct_9fa48("46") ? {} : (stryCov_9fa48("46"), {
    at: z.number().finite(),
    owner: z.string()
  }))).default(stryMutAct_9fa48("47") ? ["Stryker was here"] : (stryCov_9fa48("47"), [])),
  strikes: z.array(z.object(stryMutAct_9fa48("48") ? {} : (stryCov_9fa48("48"), {
    at: z.number().finite(),
    accepted: stryMutAct_9fa48("49") ? z.number().int().max(0) : (stryCov_9fa48("49"), z.number().int().min(0))
  }))).default(stryMutAct_9fa48("50") ? ["Stryker was here"] : (stryCov_9fa48("50"), []))
}));
const RateBudgetStateSchema = z.object(stryMutAct_9fa48("51") ? {} : (stryCov_9fa48("51"), {
  version: z.literal(1),
  groups: z.object(stryMutAct_9fa48("52") ? {} : (stryCov_9fa48("52"), {
    reports: GroupBudgetStateSchema,
    access: GroupBudgetStateSchema
  }))
}));

/** Validates persisted state; undefined when it is not a state this version understands. */
export function parseRateBudgetState(value: unknown): RateBudgetState | undefined {
  if (stryMutAct_9fa48("53")) {
    {}
  } else {
    stryCov_9fa48("53");
    const parsed = RateBudgetStateSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }
}
export function emptyRateBudgetState(): RateBudgetState {
  if (stryMutAct_9fa48("54")) {
    {}
  } else {
    stryCov_9fa48("54");
    const empty = stryMutAct_9fa48("55") ? () => undefined : (stryCov_9fa48("55"), (() => {
      const empty = (): GroupBudgetState => stryMutAct_9fa48("56") ? {} : (stryCov_9fa48("56"), {
        sends: stryMutAct_9fa48("57") ? ["Stryker was here"] : (stryCov_9fa48("57"), []),
        reducedLimit: null,
        adjustedAt: 0,
        failedProbes: 0,
        blockedUntil: 0,
        pending: stryMutAct_9fa48("58") ? ["Stryker was here"] : (stryCov_9fa48("58"), []),
        strikes: stryMutAct_9fa48("59") ? ["Stryker was here"] : (stryCov_9fa48("59"), [])
      });
      return empty;
    })());
    return stryMutAct_9fa48("60") ? {} : (stryCov_9fa48("60"), {
      version: 1,
      groups: stryMutAct_9fa48("61") ? {} : (stryCov_9fa48("61"), {
        reports: empty(),
        access: empty()
      })
    });
  }
}
export interface Reservation {
  /** How long to wait from `now` before sending (0: send at once). */
  waitMs: number;
  /** The send time recorded for this request (now + waitMs). */
  slotAt: number;
  /** False when the wait exceeded maxWaitMs: nothing was recorded. */
  reserved: boolean;
}
export interface RateLimitedOutcome {
  /** Whether this 429 lowered the effective limit (false: our accounting already explained it). */
  shrunk: boolean;
  effectiveLimit: number;
}
export class RateBudget {
  readonly #limits: RateLimits;
  readonly #state: RateBudgetState;
  constructor(limits: RateLimits, state?: RateBudgetState) {
    if (stryMutAct_9fa48("62")) {
      {}
    } else {
      stryCov_9fa48("62");
      this.#limits = limits;
      this.#state = state ? structuredClone(state) : emptyRateBudgetState();
      for (const group of REQUEST_GROUPS) stryMutAct_9fa48("63") ? this.#state.groups[group].sends : (stryCov_9fa48("63"), this.#state.groups[group].sends.sort(stryMutAct_9fa48("64") ? () => undefined : (stryCov_9fa48("64"), (a, b) => stryMutAct_9fa48("65") ? a + b : (stryCov_9fa48("65"), a - b))));
    }
  }

  /** A copy of the state, for the ledger to write. */
  toState(): RateBudgetState {
    if (stryMutAct_9fa48("66")) {
      {}
    } else {
      stryCov_9fa48("66");
      return structuredClone(this.#state);
    }
  }

  /** The limit in force at `now`: the configured one, or lower after an unpredicted 429. */
  effectiveLimit(group: RequestGroup, now: number): number {
    if (stryMutAct_9fa48("67")) {
      {}
    } else {
      stryCov_9fa48("67");
      this.#recover(group, now);
      const {
        limit
      } = this.#limits[group];
      const reduced = this.#state.groups[group].reducedLimit;
      return (stryMutAct_9fa48("70") ? reduced !== null : stryMutAct_9fa48("69") ? false : stryMutAct_9fa48("68") ? true : (stryCov_9fa48("68", "69", "70"), reduced === null)) ? limit : stryMutAct_9fa48("71") ? Math.max(limit, reduced) : (stryCov_9fa48("71"), Math.min(limit, reduced));
    }
  }

  /** How long from `now` until a send in this group may go, without recording anything. */
  waitMs(group: RequestGroup, now: number): number {
    if (stryMutAct_9fa48("72")) {
      {}
    } else {
      stryCov_9fa48("72");
      return stryMutAct_9fa48("73") ? this.#nextSlot(group, now) + now : (stryCov_9fa48("73"), this.#nextSlot(group, now) - now);
    }
  }

  /**
   * Takes the next free slot and records it as a send. The caller sleeps `waitMs` and then
   * sends. With `maxWaitMs` (the request's deadline), a slot further away is not taken.
   */
  reserve(group: RequestGroup, now: number, maxWaitMs = Number.POSITIVE_INFINITY, owner?: string): Reservation {
    if (stryMutAct_9fa48("74")) {
      {}
    } else {
      stryCov_9fa48("74");
      const slotAt = this.#nextSlot(group, now);
      const waitMs = stryMutAct_9fa48("75") ? slotAt + now : (stryCov_9fa48("75"), slotAt - now);
      if (stryMutAct_9fa48("79") ? waitMs <= maxWaitMs : stryMutAct_9fa48("78") ? waitMs >= maxWaitMs : stryMutAct_9fa48("77") ? false : stryMutAct_9fa48("76") ? true : (stryCov_9fa48("76", "77", "78", "79"), waitMs > maxWaitMs)) return stryMutAct_9fa48("80") ? {} : (stryCov_9fa48("80"), {
        waitMs,
        slotAt,
        reserved: stryMutAct_9fa48("81") ? true : (stryCov_9fa48("81"), false)
      });
      this.record(group, slotAt);
      if (stryMutAct_9fa48("84") ? owner === undefined : stryMutAct_9fa48("83") ? false : stryMutAct_9fa48("82") ? true : (stryCov_9fa48("82", "83", "84"), owner !== undefined)) this.#state.groups[group].pending.push(stryMutAct_9fa48("85") ? {} : (stryCov_9fa48("85"), {
        at: slotAt,
        owner
      }));
      return stryMutAct_9fa48("86") ? {} : (stryCov_9fa48("86"), {
        waitMs,
        slotAt,
        reserved: stryMutAct_9fa48("87") ? false : (stryCov_9fa48("87"), true)
      });
    }
  }

  /**
   * The request that reserved `slotAt` was never sent (Ctrl-C during its wait, a refused
   * connection, a check that failed after the reservation): its slot is free again, so the
   * next run does not wait for a request that does not exist (issue 12 item 10).
   */
  release(group: RequestGroup, slotAt: number): void {
    if (stryMutAct_9fa48("88")) {
      {}
    } else {
      stryCov_9fa48("88");
      const state = this.#state.groups[group];
      const index = state.sends.indexOf(slotAt);
      if (stryMutAct_9fa48("92") ? index < 0 : stryMutAct_9fa48("91") ? index > 0 : stryMutAct_9fa48("90") ? false : stryMutAct_9fa48("89") ? true : (stryCov_9fa48("89", "90", "91", "92"), index >= 0)) state.sends.splice(index, 1);
      this.#dropPending(group, slotAt);
    }
  }

  /**
   * Frees the future slots of owners that no longer exist (a run killed while it waited):
   * such a slot was never sent. A slot already due is kept — the request may have gone out.
   */
  releaseAbandoned(now: number, isAlive: (owner: string) => boolean): void {
    if (stryMutAct_9fa48("93")) {
      {}
    } else {
      stryCov_9fa48("93");
      for (const group of REQUEST_GROUPS) {
        if (stryMutAct_9fa48("94")) {
          {}
        } else {
          stryCov_9fa48("94");
          const state = this.#state.groups[group];
          const alive = new Map<string, boolean>();
          state.pending = stryMutAct_9fa48("95") ? state.pending : (stryCov_9fa48("95"), state.pending.filter(p => {
            if (stryMutAct_9fa48("96")) {
              {}
            } else {
              stryCov_9fa48("96");
              let ownerAlive = alive.get(p.owner);
              if (stryMutAct_9fa48("99") ? ownerAlive !== undefined : stryMutAct_9fa48("98") ? false : stryMutAct_9fa48("97") ? true : (stryCov_9fa48("97", "98", "99"), ownerAlive === undefined)) alive.set(p.owner, ownerAlive = isAlive(p.owner));
              if (stryMutAct_9fa48("101") ? false : stryMutAct_9fa48("100") ? true : (stryCov_9fa48("100", "101"), ownerAlive)) return stryMutAct_9fa48("102") ? false : (stryCov_9fa48("102"), true);
              if (stryMutAct_9fa48("106") ? p.at <= now : stryMutAct_9fa48("105") ? p.at >= now : stryMutAct_9fa48("104") ? false : stryMutAct_9fa48("103") ? true : (stryCov_9fa48("103", "104", "105", "106"), p.at > now)) {
                if (stryMutAct_9fa48("107")) {
                  {}
                } else {
                  stryCov_9fa48("107");
                  const index = state.sends.indexOf(p.at);
                  if (stryMutAct_9fa48("111") ? index < 0 : stryMutAct_9fa48("110") ? index > 0 : stryMutAct_9fa48("109") ? false : stryMutAct_9fa48("108") ? true : (stryCov_9fa48("108", "109", "110", "111"), index >= 0)) state.sends.splice(index, 1);
                }
              }
              return stryMutAct_9fa48("112") ? true : (stryCov_9fa48("112"), false);
            }
          }));
        }
      }
    }
  }
  #dropPending(group: RequestGroup, slotAt: number): void {
    if (stryMutAct_9fa48("113")) {
      {}
    } else {
      stryCov_9fa48("113");
      const {
        pending
      } = this.#state.groups[group];
      const index = pending.findIndex(stryMutAct_9fa48("114") ? () => undefined : (stryCov_9fa48("114"), p => stryMutAct_9fa48("117") ? p.at !== slotAt : stryMutAct_9fa48("116") ? false : stryMutAct_9fa48("115") ? true : (stryCov_9fa48("115", "116", "117"), p.at === slotAt)));
      if (stryMutAct_9fa48("121") ? index < 0 : stryMutAct_9fa48("120") ? index > 0 : stryMutAct_9fa48("119") ? false : stryMutAct_9fa48("118") ? true : (stryCov_9fa48("118", "119", "120", "121"), index >= 0)) pending.splice(index, 1);
    }
  }

  /** Records a send at `at` (kept in order). */
  record(group: RequestGroup, at: number): void {
    if (stryMutAct_9fa48("122")) {
      {}
    } else {
      stryCov_9fa48("122");
      const {
        sends
      } = this.#state.groups[group];
      let i = sends.length;
      while (stryMutAct_9fa48("124") ? i > 0 || (sends[i - 1] ?? 0) > at : stryMutAct_9fa48("123") ? false : (stryCov_9fa48("123", "124"), (stryMutAct_9fa48("127") ? i <= 0 : stryMutAct_9fa48("126") ? i >= 0 : stryMutAct_9fa48("125") ? true : (stryCov_9fa48("125", "126", "127"), i > 0)) && (stryMutAct_9fa48("130") ? (sends[i - 1] ?? 0) <= at : stryMutAct_9fa48("129") ? (sends[i - 1] ?? 0) >= at : stryMutAct_9fa48("128") ? true : (stryCov_9fa48("128", "129", "130"), (stryMutAct_9fa48("131") ? sends[i - 1] && 0 : (stryCov_9fa48("131"), sends[stryMutAct_9fa48("132") ? i + 1 : (stryCov_9fa48("132"), i - 1)] ?? 0)) > at)))) stryMutAct_9fa48("133") ? i++ : (stryCov_9fa48("133"), i--);
      sends.splice(i, 0, at);
    }
  }

  /**
   * The attempt that took the slot at `slotAt` has ended at `endedAt`: its arrival at the
   * service lies between the two, so the send is moved to `endedAt`, by at most
   * MAX_ARRIVAL_DELAY_MS (see there). Returns the send's new time. A slot no longer found
   * (pruned, or the ledger was lost meanwhile) is recorded anew: the request did go out.
   */
  settle(group: RequestGroup, slotAt: number, endedAt: number): number {
    if (stryMutAct_9fa48("134")) {
      {}
    } else {
      stryCov_9fa48("134");
      const at = stryMutAct_9fa48("135") ? Math.min(slotAt, Math.min(endedAt, slotAt + MAX_ARRIVAL_DELAY_MS)) : (stryCov_9fa48("135"), Math.max(slotAt, stryMutAct_9fa48("136") ? Math.max(endedAt, slotAt + MAX_ARRIVAL_DELAY_MS) : (stryCov_9fa48("136"), Math.min(endedAt, stryMutAct_9fa48("137") ? slotAt - MAX_ARRIVAL_DELAY_MS : (stryCov_9fa48("137"), slotAt + MAX_ARRIVAL_DELAY_MS)))));
      const {
        sends
      } = this.#state.groups[group];
      const index = sends.indexOf(slotAt);
      if (stryMutAct_9fa48("141") ? index < 0 : stryMutAct_9fa48("140") ? index > 0 : stryMutAct_9fa48("139") ? false : stryMutAct_9fa48("138") ? true : (stryCov_9fa48("138", "139", "140", "141"), index >= 0)) sends.splice(index, 1);
      this.#dropPending(group, slotAt);
      this.record(group, at);
      return at;
    }
  }

  /**
   * The service answered 429 to the send recorded at `sentAt` (issue 12 items 5, 6, 11).
   * - The refused send is forgotten: the service does not count a request it refused
   *   (service-spec §8 counts requests served; the sandbox does the same).
   * - A Retry-After blocks the whole group for this process and the others sharing the
   *   budget, but for at most one window: a huge or far-future value must not lock every
   *   later run out (the scheduler ends this run with exit 7 when it passes the deadline).
   *   0, or a date in the past, blocks nothing.
   * - If our accounting already predicted the 429 (the send was over the effective limit,
   *   e.g. reserved before an earlier cut), nothing else changes.
   * - Otherwise it is a strike. Only STRIKES_TO_LOWER strikes within one window lower the
   *   limit, and only to the most sends the service was seen to accept in a window before
   *   one of them (at least 1): never below what its own answers prove.
   */
  noteRateLimited(group: RequestGroup, sentAt: number, now: number, retryAfterMs?: number): RateLimitedOutcome {
    if (stryMutAct_9fa48("142")) {
      {}
    } else {
      stryCov_9fa48("142");
      const state = this.#state.groups[group];
      const {
        windowMs
      } = this.#limits[group];
      const refused = state.sends.indexOf(sentAt);
      if (stryMutAct_9fa48("146") ? refused < 0 : stryMutAct_9fa48("145") ? refused > 0 : stryMutAct_9fa48("144") ? false : stryMutAct_9fa48("143") ? true : (stryCov_9fa48("143", "144", "145", "146"), refused >= 0)) state.sends.splice(refused, 1);
      this.#dropPending(group, sentAt);
      if (stryMutAct_9fa48("149") ? retryAfterMs !== undefined || retryAfterMs > 0 : stryMutAct_9fa48("148") ? false : stryMutAct_9fa48("147") ? true : (stryCov_9fa48("147", "148", "149"), (stryMutAct_9fa48("151") ? retryAfterMs === undefined : stryMutAct_9fa48("150") ? true : (stryCov_9fa48("150", "151"), retryAfterMs !== undefined)) && (stryMutAct_9fa48("154") ? retryAfterMs <= 0 : stryMutAct_9fa48("153") ? retryAfterMs >= 0 : stryMutAct_9fa48("152") ? true : (stryCov_9fa48("152", "153", "154"), retryAfterMs > 0)))) {
        if (stryMutAct_9fa48("155")) {
          {}
        } else {
          stryCov_9fa48("155");
          state.blockedUntil = stryMutAct_9fa48("156") ? Math.min(state.blockedUntil, now + Math.min(retryAfterMs, windowMs)) : (stryCov_9fa48("156"), Math.max(state.blockedUntil, stryMutAct_9fa48("157") ? now - Math.min(retryAfterMs, windowMs) : (stryCov_9fa48("157"), now + (stryMutAct_9fa48("158") ? Math.max(retryAfterMs, windowMs) : (stryCov_9fa48("158"), Math.min(retryAfterMs, windowMs))))));
        }
      }
      const current = this.effectiveLimit(group, now);
      const horizon = stryMutAct_9fa48("159") ? windowMs - safetyMarginMs(windowMs) : (stryCov_9fa48("159"), windowMs + safetyMarginMs(windowMs));
      // Sends in the window that ends at the refused one (which is no longer among them).
      const accepted = stryMutAct_9fa48("160") ? state.sends.length : (stryCov_9fa48("160"), state.sends.filter(stryMutAct_9fa48("161") ? () => undefined : (stryCov_9fa48("161"), s => stryMutAct_9fa48("164") ? s > sentAt - horizon || s <= sentAt : stryMutAct_9fa48("163") ? false : stryMutAct_9fa48("162") ? true : (stryCov_9fa48("162", "163", "164"), (stryMutAct_9fa48("167") ? s <= sentAt - horizon : stryMutAct_9fa48("166") ? s >= sentAt - horizon : stryMutAct_9fa48("165") ? true : (stryCov_9fa48("165", "166", "167"), s > (stryMutAct_9fa48("168") ? sentAt + horizon : (stryCov_9fa48("168"), sentAt - horizon)))) && (stryMutAct_9fa48("171") ? s > sentAt : stryMutAct_9fa48("170") ? s < sentAt : stryMutAct_9fa48("169") ? true : (stryCov_9fa48("169", "170", "171"), s <= sentAt))))).length);
      if (stryMutAct_9fa48("175") ? accepted < current : stryMutAct_9fa48("174") ? accepted > current : stryMutAct_9fa48("173") ? false : stryMutAct_9fa48("172") ? true : (stryCov_9fa48("172", "173", "174", "175"), accepted >= current)) return stryMutAct_9fa48("176") ? {} : (stryCov_9fa48("176"), {
        shrunk: stryMutAct_9fa48("177") ? true : (stryCov_9fa48("177"), false),
        effectiveLimit: current
      });
      state.strikes = stryMutAct_9fa48("178") ? state.strikes : (stryCov_9fa48("178"), state.strikes.filter(stryMutAct_9fa48("179") ? () => undefined : (stryCov_9fa48("179"), strike => stryMutAct_9fa48("183") ? strike.at <= now - horizon : stryMutAct_9fa48("182") ? strike.at >= now - horizon : stryMutAct_9fa48("181") ? false : stryMutAct_9fa48("180") ? true : (stryCov_9fa48("180", "181", "182", "183"), strike.at > (stryMutAct_9fa48("184") ? now + horizon : (stryCov_9fa48("184"), now - horizon))))));
      state.strikes.push(stryMutAct_9fa48("185") ? {} : (stryCov_9fa48("185"), {
        at: now,
        accepted
      }));
      if (stryMutAct_9fa48("189") ? state.strikes.length >= STRIKES_TO_LOWER : stryMutAct_9fa48("188") ? state.strikes.length <= STRIKES_TO_LOWER : stryMutAct_9fa48("187") ? false : stryMutAct_9fa48("186") ? true : (stryCov_9fa48("186", "187", "188", "189"), state.strikes.length < STRIKES_TO_LOWER)) return stryMutAct_9fa48("190") ? {} : (stryCov_9fa48("190"), {
        shrunk: stryMutAct_9fa48("191") ? true : (stryCov_9fa48("191"), false),
        effectiveLimit: current
      });
      const lowered = stryMutAct_9fa48("192") ? Math.min(1, ...state.strikes.map(strike => strike.accepted)) : (stryCov_9fa48("192"), Math.max(1, ...state.strikes.map(stryMutAct_9fa48("193") ? () => undefined : (stryCov_9fa48("193"), strike => strike.accepted))));
      state.strikes = stryMutAct_9fa48("194") ? ["Stryker was here"] : (stryCov_9fa48("194"), []);
      if (stryMutAct_9fa48("198") ? lowered < current : stryMutAct_9fa48("197") ? lowered > current : stryMutAct_9fa48("196") ? false : stryMutAct_9fa48("195") ? true : (stryCov_9fa48("195", "196", "197", "198"), lowered >= current)) return stryMutAct_9fa48("199") ? {} : (stryCov_9fa48("199"), {
        shrunk: stryMutAct_9fa48("200") ? true : (stryCov_9fa48("200"), false),
        effectiveLimit: current
      });
      // Already reduced: this is a recovery step (or the floor) failing.
      state.failedProbes = (stryMutAct_9fa48("203") ? state.reducedLimit !== null : stryMutAct_9fa48("202") ? false : stryMutAct_9fa48("201") ? true : (stryCov_9fa48("201", "202", "203"), state.reducedLimit === null)) ? 0 : stryMutAct_9fa48("204") ? Math.max(MAX_FAILED_PROBES, state.failedProbes + 1) : (stryCov_9fa48("204"), Math.min(MAX_FAILED_PROBES, stryMutAct_9fa48("205") ? state.failedProbes - 1 : (stryCov_9fa48("205"), state.failedProbes + 1)));
      state.reducedLimit = lowered;
      state.adjustedAt = now;
      return stryMutAct_9fa48("206") ? {} : (stryCov_9fa48("206"), {
        shrunk: stryMutAct_9fa48("207") ? false : (stryCov_9fa48("207"), true),
        effectiveLimit: lowered
      });
    }
  }
  #nextSlot(group: RequestGroup, now: number): number {
    if (stryMutAct_9fa48("208")) {
      {}
    } else {
      stryCov_9fa48("208");
      const state = this.#state.groups[group];
      const {
        windowMs
      } = this.#limits[group];
      const margin = safetyMarginMs(windowMs);
      this.#prune(group, now);
      const limit = this.effectiveLimit(group, now);
      const {
        sends
      } = state;
      // Slots are handed out in order (never before the last reserved one): then the window
      // that ends at the new slot holds every send that could be affected, and one check
      // suffices.
      // A block further ahead than one window was set by a clock that has since stepped back
      // (or by a version before issue 12): it counts for one window from now, no more.
      let slot = stryMutAct_9fa48("209") ? Math.min(now, Math.min(state.blockedUntil, now + windowMs), sends.at(-1) ?? now) : (stryCov_9fa48("209"), Math.max(now, stryMutAct_9fa48("210") ? Math.max(state.blockedUntil, now + windowMs) : (stryCov_9fa48("210"), Math.min(state.blockedUntil, stryMutAct_9fa48("211") ? now - windowMs : (stryCov_9fa48("211"), now + windowMs))), stryMutAct_9fa48("212") ? sends.at(-1) && now : (stryCov_9fa48("212"), sends.at(stryMutAct_9fa48("213") ? +1 : (stryCov_9fa48("213"), -1)) ?? now)));
      const blocking = sends[stryMutAct_9fa48("214") ? sends.length + limit : (stryCov_9fa48("214"), sends.length - limit)];
      if (stryMutAct_9fa48("217") ? blocking === undefined : stryMutAct_9fa48("216") ? false : stryMutAct_9fa48("215") ? true : (stryCov_9fa48("215", "216", "217"), blocking !== undefined)) slot = stryMutAct_9fa48("218") ? Math.min(slot, blocking + windowMs + margin) : (stryCov_9fa48("218"), Math.max(slot, stryMutAct_9fa48("219") ? blocking + windowMs - margin : (stryCov_9fa48("219"), (stryMutAct_9fa48("220") ? blocking - windowMs : (stryCov_9fa48("220"), blocking + windowMs)) + margin)));
      return slot;
    }
  }
  #recover(group: RequestGroup, now: number): void {
    if (stryMutAct_9fa48("221")) {
      {}
    } else {
      stryCov_9fa48("221");
      const state = this.#state.groups[group];
      if (stryMutAct_9fa48("224") ? state.reducedLimit !== null : stryMutAct_9fa48("223") ? false : stryMutAct_9fa48("222") ? true : (stryCov_9fa48("222", "223", "224"), state.reducedLimit === null)) return;
      const {
        limit,
        windowMs
      } = this.#limits[group];
      const quietPerStep = stryMutAct_9fa48("225") ? windowMs / 2 ** state.failedProbes : (stryCov_9fa48("225"), windowMs * 2 ** state.failedProbes);
      const steps = Math.floor(stryMutAct_9fa48("226") ? (now - state.adjustedAt) * quietPerStep : (stryCov_9fa48("226"), (stryMutAct_9fa48("227") ? now + state.adjustedAt : (stryCov_9fa48("227"), now - state.adjustedAt)) / quietPerStep));
      if (stryMutAct_9fa48("231") ? steps >= 1 : stryMutAct_9fa48("230") ? steps <= 1 : stryMutAct_9fa48("229") ? false : stryMutAct_9fa48("228") ? true : (stryCov_9fa48("228", "229", "230", "231"), steps < 1)) return;
      const raised = stryMutAct_9fa48("232") ? state.reducedLimit - steps * recoveryStep(limit) : (stryCov_9fa48("232"), state.reducedLimit + (stryMutAct_9fa48("233") ? steps / recoveryStep(limit) : (stryCov_9fa48("233"), steps * recoveryStep(limit))));
      state.reducedLimit = (stryMutAct_9fa48("237") ? raised < limit : stryMutAct_9fa48("236") ? raised > limit : stryMutAct_9fa48("235") ? false : stryMutAct_9fa48("234") ? true : (stryCov_9fa48("234", "235", "236", "237"), raised >= limit)) ? null : raised;
      stryMutAct_9fa48("238") ? state.adjustedAt -= steps * quietPerStep : (stryCov_9fa48("238"), state.adjustedAt += stryMutAct_9fa48("239") ? steps / quietPerStep : (stryCov_9fa48("239"), steps * quietPerStep));
      if (stryMutAct_9fa48("242") ? state.reducedLimit !== null : stryMutAct_9fa48("241") ? false : stryMutAct_9fa48("240") ? true : (stryCov_9fa48("240", "241", "242"), state.reducedLimit === null)) state.failedProbes = 0;
    }
  }

  /**
   * Forgets sends that can no longer matter. Two windows are kept rather than one, so that a
   * 429 arriving late (a slow report) can still be compared with the window before its send.
   */
  #prune(group: RequestGroup, now: number): void {
    if (stryMutAct_9fa48("243")) {
      {}
    } else {
      stryCov_9fa48("243");
      const {
        sends
      } = this.#state.groups[group];
      const {
        windowMs
      } = this.#limits[group];
      const keepAfter = stryMutAct_9fa48("244") ? now + 2 * (windowMs + safetyMarginMs(windowMs)) : (stryCov_9fa48("244"), now - (stryMutAct_9fa48("245") ? 2 / (windowMs + safetyMarginMs(windowMs)) : (stryCov_9fa48("245"), 2 * (stryMutAct_9fa48("246") ? windowMs - safetyMarginMs(windowMs) : (stryCov_9fa48("246"), windowMs + safetyMarginMs(windowMs))))));
      let drop = 0;
      while (stryMutAct_9fa48("248") ? drop < sends.length || (sends[drop] ?? 0) <= keepAfter : stryMutAct_9fa48("247") ? false : (stryCov_9fa48("247", "248"), (stryMutAct_9fa48("251") ? drop >= sends.length : stryMutAct_9fa48("250") ? drop <= sends.length : stryMutAct_9fa48("249") ? true : (stryCov_9fa48("249", "250", "251"), drop < sends.length)) && (stryMutAct_9fa48("254") ? (sends[drop] ?? 0) > keepAfter : stryMutAct_9fa48("253") ? (sends[drop] ?? 0) < keepAfter : stryMutAct_9fa48("252") ? true : (stryCov_9fa48("252", "253", "254"), (stryMutAct_9fa48("255") ? sends[drop] && 0 : (stryCov_9fa48("255"), sends[drop] ?? 0)) <= keepAfter)))) stryMutAct_9fa48("256") ? drop-- : (stryCov_9fa48("256"), drop++);
      if (stryMutAct_9fa48("260") ? drop <= 0 : stryMutAct_9fa48("259") ? drop >= 0 : stryMutAct_9fa48("258") ? false : stryMutAct_9fa48("257") ? true : (stryCov_9fa48("257", "258", "259", "260"), drop > 0)) sends.splice(0, drop);
      const state = this.#state.groups[group];
      state.pending = stryMutAct_9fa48("261") ? state.pending : (stryCov_9fa48("261"), state.pending.filter(stryMutAct_9fa48("262") ? () => undefined : (stryCov_9fa48("262"), p => stryMutAct_9fa48("266") ? p.at <= keepAfter : stryMutAct_9fa48("265") ? p.at >= keepAfter : stryMutAct_9fa48("264") ? false : stryMutAct_9fa48("263") ? true : (stryCov_9fa48("263", "264", "265", "266"), p.at > keepAfter))));
    }
  }
}