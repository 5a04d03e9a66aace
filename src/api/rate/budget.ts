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
  return Math.max(150, Math.ceil(windowMs * 0.015));
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
  return Math.max(1, Math.ceil(limit / 10));
}

/** At most 2^3 = 8 quiet windows per recovery step (8 min for reports, 40 min for access). */
export const MAX_FAILED_PROBES = 3;

/**
 * Unexpected 429s (ones our budget allowed) within one window before the limit is lowered.
 * One 429 proves little — another client on the same address, a
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
   * Never more than one window ahead (docs/cli-contract.md "Rate limits").
   */
  blockedUntil: number;
  /** Slots reserved and not yet settled or released. */
  pending: PendingReservation[];
  /** Unexpected 429s of the last window: the evidence for lowering the limit. */
  strikes: Strike[];
}

export interface RateBudgetState {
  version: 1;
  groups: Record<RequestGroup, GroupBudgetState>;
}

// The ledger is read by every command that sends a request: checked by hand rather than with a
// zod schema, whose building costs more than the rest of a short command's own work
// (docs/architecture.md, Start-up). What is kept is a fresh copy with only the known fields.

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => Number.isFinite(value);
const isCount = (value: unknown, min: number): value is number => Number.isSafeInteger(value) && (value as number) >= min;

/** Each element read by `read`, or undefined when one cannot be; an absent list (earlier versions) is empty. */
function listOf<T>(value: unknown, read: (item: unknown) => T | undefined, absent?: T[]): T[] | undefined {
  if (value === undefined && absent) return absent;
  if (!Array.isArray(value)) return undefined;
  const out: T[] = [];
  for (const item of value) {
    const got = read(item);
    if (got === undefined) return undefined;
    out.push(got);
  }
  return out;
}

function readGroup(value: unknown): GroupBudgetState | undefined {
  if (!isObject(value)) return undefined;
  const { sends, reducedLimit, adjustedAt, failedProbes, blockedUntil } = value;
  const sendTimes = listOf(sends, (at) => (isNumber(at) ? at : undefined));
  // Absent in ledgers written by earlier versions: read as empty.
  const pending = listOf(
    value.pending,
    (item) =>
      isObject(item) && isNumber(item.at) && typeof item.owner === "string" ? { at: item.at, owner: item.owner } : undefined,
    [],
  );
  const strikes = listOf(
    value.strikes,
    (item) =>
      isObject(item) && isNumber(item.at) && isCount(item.accepted, 0) ? { at: item.at, accepted: item.accepted } : undefined,
    [],
  );
  if (!sendTimes || !pending || !strikes) return undefined;
  if (reducedLimit !== null && !isCount(reducedLimit, 1)) return undefined;
  if (!isNumber(adjustedAt) || !isCount(failedProbes, 0) || !isNumber(blockedUntil)) return undefined;
  return { sends: sendTimes, reducedLimit, adjustedAt, failedProbes, blockedUntil, pending, strikes };
}

/** Validates persisted state; undefined when it is not a state this version understands. */
export function parseRateBudgetState(value: unknown): RateBudgetState | undefined {
  if (!isObject(value) || value.version !== 1 || !isObject(value.groups)) return undefined;
  const reports = readGroup(value.groups.reports);
  const access = readGroup(value.groups.access);
  return reports && access ? { version: 1, groups: { reports, access } } : undefined;
}

export function emptyRateBudgetState(): RateBudgetState {
  const empty = (): GroupBudgetState => ({
    sends: [],
    reducedLimit: null,
    adjustedAt: 0,
    failedProbes: 0,
    blockedUntil: 0,
    pending: [],
    strikes: [],
  });
  return { version: 1, groups: { reports: empty(), access: empty() } };
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
    this.#limits = limits;
    this.#state = state ? structuredClone(state) : emptyRateBudgetState();
    for (const group of REQUEST_GROUPS) this.#state.groups[group].sends.sort((a, b) => a - b);
  }

  /** A copy of the state, for the ledger to write. */
  toState(): RateBudgetState {
    return structuredClone(this.#state);
  }

  /** The limit in force at `now`: the configured one, or lower after an unpredicted 429. */
  effectiveLimit(group: RequestGroup, now: number): number {
    this.#recover(group, now);
    const { limit } = this.#limits[group];
    const reduced = this.#state.groups[group].reducedLimit;
    return reduced === null ? limit : Math.min(limit, reduced);
  }

  /** How long from `now` until a send in this group may go, without recording anything. */
  waitMs(group: RequestGroup, now: number): number {
    return this.#nextSlot(group, now) - now;
  }

  /**
   * Takes the next free slot and records it as a send. The caller sleeps `waitMs` and then
   * sends. With `maxWaitMs` (the request's deadline), a slot further away is not taken.
   */
  reserve(group: RequestGroup, now: number, maxWaitMs = Number.POSITIVE_INFINITY, owner?: string): Reservation {
    const slotAt = this.#nextSlot(group, now);
    const waitMs = slotAt - now;
    if (waitMs > maxWaitMs) return { waitMs, slotAt, reserved: false };
    this.record(group, slotAt);
    if (owner !== undefined) this.#state.groups[group].pending.push({ at: slotAt, owner });
    return { waitMs, slotAt, reserved: true };
  }

  /**
   * The request that reserved `slotAt` was never sent (Ctrl-C during its wait, a refused
   * connection, a check that failed after the reservation): its slot is free again, so the
   * next run does not wait for a request that does not exist.
   */
  release(group: RequestGroup, slotAt: number): void {
    const state = this.#state.groups[group];
    const index = state.sends.indexOf(slotAt);
    if (index >= 0) state.sends.splice(index, 1);
    this.#dropPending(group, slotAt);
  }

  /**
   * Frees the future slots of owners that no longer exist (a run killed while it waited):
   * such a slot was never sent. A slot already due is kept — the request may have gone out.
   */
  releaseAbandoned(now: number, isAlive: (owner: string) => boolean): void {
    for (const group of REQUEST_GROUPS) {
      const state = this.#state.groups[group];
      const alive = new Map<string, boolean>();
      state.pending = state.pending.filter((p) => {
        let ownerAlive = alive.get(p.owner);
        if (ownerAlive === undefined) alive.set(p.owner, (ownerAlive = isAlive(p.owner)));
        if (ownerAlive) return true;
        if (p.at > now) {
          const index = state.sends.indexOf(p.at);
          if (index >= 0) state.sends.splice(index, 1);
        }
        return false;
      });
    }
  }

  #dropPending(group: RequestGroup, slotAt: number): void {
    const { pending } = this.#state.groups[group];
    const index = pending.findIndex((p) => p.at === slotAt);
    if (index >= 0) pending.splice(index, 1);
  }

  /** Records a send at `at` (kept in order). */
  record(group: RequestGroup, at: number): void {
    const { sends } = this.#state.groups[group];
    sends.push(at);
    // Nearly always already the newest (a settle moves one send back among the others):
    // sorting a sorted array of at most two windows of sends is one linear pass.
    sends.sort((a, b) => a - b);
  }

  /**
   * The attempt that took the slot at `slotAt` has ended at `endedAt`: its arrival at the
   * service lies between the two, so the send is moved to `endedAt`, by at most
   * MAX_ARRIVAL_DELAY_MS (see there) after it really started. Returns the send's new time.
   * `startedLateMs`: how long after its slot the send started, as the scheduler measured it
   * — a process whose event loop is busy (a burst of 100 sends at once in `links serve`)
   * starts sends late, and a send that started 1.5 s after its slot may arrive then: the cap
   * counted from the slot recorded it 0.5 s early, and the next window's sends drew 429s
   * (docs/rate-limits.md). A slot no longer found (pruned, or the ledger was lost meanwhile)
   * is recorded anew: the request did go out.
   */
  settle(group: RequestGroup, slotAt: number, endedAt: number, startedLateMs = 0): number {
    const startedAt = slotAt + Math.max(0, startedLateMs);
    const at = Math.max(slotAt, Math.min(endedAt, startedAt + MAX_ARRIVAL_DELAY_MS));
    const { sends } = this.#state.groups[group];
    const index = sends.indexOf(slotAt);
    if (index >= 0) sends.splice(index, 1);
    this.#dropPending(group, slotAt);
    this.record(group, at);
    return at;
  }

  /**
   * The service answered 429 to the send recorded at `sentAt`.
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
    const state = this.#state.groups[group];
    const { windowMs } = this.#limits[group];
    const refused = state.sends.indexOf(sentAt);
    if (refused >= 0) state.sends.splice(refused, 1);
    this.#dropPending(group, sentAt);
    const blockMs = Math.min(retryAfterMs ?? 0, windowMs);
    if (blockMs > 0) state.blockedUntil = Math.max(state.blockedUntil, now + blockMs);
    const current = this.effectiveLimit(group, now);
    const horizon = windowMs + safetyMarginMs(windowMs);
    // Sends in the window that ends at the refused one (which is no longer among them).
    const accepted = state.sends.filter((s) => s > sentAt - horizon && s <= sentAt).length;
    if (accepted >= current) return { shrunk: false, effectiveLimit: current };
    state.strikes = state.strikes.filter((strike) => strike.at > now - horizon);
    state.strikes.push({ at: now, accepted });
    if (state.strikes.length < STRIKES_TO_LOWER) return { shrunk: false, effectiveLimit: current };
    const lowered = Math.max(1, ...state.strikes.map((strike) => strike.accepted));
    state.strikes = [];
    if (lowered >= current) return { shrunk: false, effectiveLimit: current };
    // Already reduced: this is a recovery step (or the floor) failing.
    state.failedProbes = state.reducedLimit === null ? 0 : Math.min(MAX_FAILED_PROBES, state.failedProbes + 1);
    state.reducedLimit = lowered;
    state.adjustedAt = now;
    return { shrunk: true, effectiveLimit: lowered };
  }

  #nextSlot(group: RequestGroup, now: number): number {
    const state = this.#state.groups[group];
    const { windowMs } = this.#limits[group];
    const margin = safetyMarginMs(windowMs);
    this.#prune(group, now);
    const limit = this.effectiveLimit(group, now);
    const { sends } = state;
    // Slots are handed out in order (never before the last reserved one): then the window
    // that ends at the new slot holds every send that could be affected, and one check
    // suffices.
    // A block further ahead than one window was set by a clock that has since stepped back
    // (or by an earlier version that did not record it): it counts for one window from now, no more.
    let slot = Math.max(now, Math.min(state.blockedUntil, now + windowMs), sends.at(-1) ?? now);
    const blocking = sends[sends.length - limit];
    if (blocking !== undefined) slot = Math.max(slot, blocking + windowMs + margin);
    return slot;
  }

  #recover(group: RequestGroup, now: number): void {
    const state = this.#state.groups[group];
    if (state.reducedLimit === null) return;
    const { limit, windowMs } = this.#limits[group];
    const quietPerStep = windowMs * 2 ** state.failedProbes;
    const steps = Math.floor((now - state.adjustedAt) / quietPerStep);
    if (steps < 1) return;
    const raised = state.reducedLimit + steps * recoveryStep(limit);
    state.reducedLimit = raised >= limit ? null : raised;
    state.adjustedAt += steps * quietPerStep;
    if (state.reducedLimit === null) state.failedProbes = 0;
  }

  /**
   * Forgets sends that can no longer matter. Two windows are kept rather than one, so that a
   * 429 arriving late (a slow report) can still be compared with the window before its send.
   */
  #prune(group: RequestGroup, now: number): void {
    const state = this.#state.groups[group];
    const { windowMs } = this.#limits[group];
    const keepAfter = now - 2 * (windowMs + safetyMarginMs(windowMs));
    state.sends = state.sends.filter((s) => s > keepAfter);
    state.pending = state.pending.filter((p) => p.at > keepAfter);
  }
}
