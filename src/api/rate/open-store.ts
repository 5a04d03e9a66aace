import { basename, join } from "node:path";
import type { Clock } from "../../clock.js";
import { UsageError } from "../../errors.js";
import type { BudgetStore, RedisLocation } from "./store.js";
import type { RateBudgetState, RateLimitedOutcome, Reservation } from "./budget.js";
import { RateLedger } from "./file-store.js";
import type { RateLimits, RequestGroup } from "./limits.js";

// SIMADMIN_RATE_STORE (docs/cli-contract.md "Rate limits"): where the rate budget
// lives. Unset or empty: the file ledger in the settings directory, shared by the runs of one
// user. file:///<dir>: the same ledger in a directory the Unix accounts of one host share
// (they share its address, so the service counts them as one client). redis://[user:pass@]host:port[/db] or rediss:// (TLS): Redis, shared by every
// machine that uses it — a CI fleet behind one address. Redis is loaded only then.

const STORE_HINT =
  "use file:///<directory> for a ledger the accounts of one host share, redis://[user:password@]host:port[/db] " +
  "(rediss:// for TLS) for many machines, or unset it for your own budget";

/**
 * SIMADMIN_RATE_STORE=file:///var/lib/simadmin/rate: the directory of a ledger that every
 * Unix account of the host shares (docs/rate-limits.md "Shared hosts"); undefined for any
 * other value. Throws UsageError for a file URL that names no absolute local directory.
 */
export function sharedLedgerDirectory(value: string | undefined): string | undefined {
  const text = value?.trim() ?? "";
  if (!/^file:/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError("SIMADMIN_RATE_STORE: not a URL", { hint: STORE_HINT });
  }
  if (url.hostname !== "" && url.hostname !== "localhost") {
    throw new UsageError(`SIMADMIN_RATE_STORE: a file:// ledger is on this host, not on ${url.hostname}`, { hint: STORE_HINT });
  }
  const path = decodeURIComponent(url.pathname).replace(/\/+$/, "");
  if (path === "")
    throw new UsageError("SIMADMIN_RATE_STORE: file:// needs a directory, e.g. file:///var/lib/simadmin/rate", {
      hint: STORE_HINT,
    });
  return path;
}

/** Parses SIMADMIN_RATE_STORE; undefined for the default (the local ledger) and for file://. Throws UsageError, never echoing a password. */
export function parseRateStore(value: string | undefined): RedisLocation | undefined {
  const text = value?.trim() ?? "";
  if (text === "" || sharedLedgerDirectory(text) !== undefined) return undefined;
  const bad = (why: string): UsageError => new UsageError(`SIMADMIN_RATE_STORE: ${why}`, { hint: STORE_HINT });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad("not a URL");
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw bad(`unsupported scheme "${url.protocol}"`);
  if (url.hostname === "") throw bad("no host");
  const port = url.port === "" ? 6379 : Number(url.port);
  // The slashes that start the path (a redis: path is empty or starts with one); no path is
  // database 0, as Number("") is.
  const path = url.pathname.replace(/\/+/, "");
  const db = Number(path);
  if (!/^\d*$/.test(path) || !Number.isSafeInteger(db)) throw bad("the database after the host must be a number, e.g. /0");
  const tls = url.protocol === "rediss:";
  // An IPv6 host comes in brackets: "[::1]".
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return {
    tls,
    host,
    port,
    db,
    username: url.username === "" ? undefined : decodeURIComponent(url.username),
    password: url.password === "" ? undefined : decodeURIComponent(url.password),
    display: `${url.protocol}//${url.host}/${db}`,
  };
}

export interface RateStoreOptions {
  /** SIMADMIN_RATE_STORE. */
  setting: string | undefined;
  baseUrl: string;
  limits: RateLimits;
  /** The local ledger file: the default, and the fallback when Redis fails. */
  ledgerPath: string;
  clock: Clock;
  signal?: AbortSignal | undefined;
  /** One line on stderr (ctx.warn). */
  warn: (text: string) => void;
  /** --verbose trace. */
  trace?: ((line: string) => void) | undefined;
}

/**
 * The budget store for this run. With a redis:// setting, Redis wrapped so that any failure
 * (unreachable at start, gone mid-run, too slow) costs one warning and this machine's ledger
 * for the rest of the run — never a hang or a crash.
 */
export async function createRateStore(options: RateStoreOptions): Promise<BudgetStore> {
  const location = parseRateStore(options.setting);
  const shared = sharedLedgerDirectory(options.setting);
  const local = new RateLedger({
    limits: options.limits,
    clock: options.clock,
    // The same file name (one ledger per service address), in the host's shared directory.
    path: shared === undefined ? options.ledgerPath : join(shared, basename(options.ledgerPath)),
    shared: shared !== undefined,
    signal: options.signal,
    warn: options.warn,
  });
  if (location === undefined) return local;
  const { RedisBudgetStore } = await import("./redis-store.js");
  const fallback = new FallbackBudgetStore(local, options.clock, (reason) =>
    options.warn(
      `the shared rate budget at ${location.display} cannot be used (${redactPassword(reason, location)}); ` +
        `this run keeps this machine's own budget instead`,
    ),
  );
  try {
    const redis = await RedisBudgetStore.connect({ location, baseUrl: options.baseUrl, limits: options.limits });
    options.trace?.(`rate budget: ${redis.description}`);
    fallback.usePrimary(redis);
  } catch (error) {
    fallback.primaryFailed(error);
  }
  return fallback;
}

function redactPassword(text: string, location: RedisLocation): string {
  const { password } = location;
  if (password === undefined) return text;
  return text.replaceAll(password, "[REDACTED]").replaceAll(encodeURIComponent(password), "[REDACTED]");
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Stryker disable next-line OptionalChaining: split() always gives at least one element; the ?. is for the type checker
  return text.split("\n")[0]?.slice(0, 200) || "unknown error";
}

/**
 * Redis first; after its first failure, the local ledger for the rest of the run. Slots are
 * handles of the store that gave them: a slot Redis handed out before it failed is settled
 * in the local ledger as a send happening now (its Redis time means nothing here).
 */
export class FallbackBudgetStore implements BudgetStore {
  #primary: BudgetStore | undefined;
  readonly #local: BudgetStore;
  readonly #clock: Clock;
  readonly #onFailure: (reason: string) => void;
  /** `${group}:${time}` of slots and sends that Redis handed out. */
  readonly #fromPrimary = new Set<string>();

  constructor(local: BudgetStore, clock: Clock, onFailure: (reason: string) => void) {
    this.#local = local;
    this.#clock = clock;
    this.#onFailure = onFailure;
  }

  usePrimary(primary: BudgetStore): void {
    this.#primary = primary;
  }

  primaryFailed(error: unknown): void {
    const primary = this.#primary;
    this.#primary = undefined;
    this.#onFailure(reasonOf(error));
    void primary?.close().catch(() => undefined);
  }

  get description(): string {
    return (this.#primary ?? this.#local).description;
  }

  get usingPrimary(): boolean {
    return this.#primary !== undefined;
  }

  /** The primary's answer, or undefined when there is no primary (any more). */
  async #withPrimary<T>(call: (primary: BudgetStore) => Promise<T>): Promise<{ value: T } | undefined> {
    const primary = this.#primary;
    if (primary === undefined) return undefined;
    try {
      return { value: await call(primary) };
    } catch (error) {
      if (this.#primary === primary) this.primaryFailed(error);
      return undefined;
    }
  }

  async reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation> {
    const remote = await this.#withPrimary((p) => p.reserve(group, maxWaitMs));
    if (remote) {
      if (remote.value.reserved) this.#fromPrimary.add(`${group}:${remote.value.slotAt}`);
      return remote.value;
    }
    return this.#local.reserve(group, maxWaitMs);
  }

  async settle(group: RequestGroup, slotAt: number, startedLateMs?: number): Promise<number> {
    const handle = `${group}:${slotAt}`;
    if (this.#fromPrimary.delete(handle)) {
      const remote = await this.#withPrimary((p) => p.settle(group, slotAt, startedLateMs));
      if (remote) {
        this.#fromPrimary.add(`${group}:${remote.value}`);
        return remote.value;
      }
      // Sent through Redis's slot, which is gone now: the local budget counts it from now.
      return this.#local.settle(group, this.#clock.now());
    }
    return this.#local.settle(group, slotAt, startedLateMs);
  }

  async release(group: RequestGroup, slotAt: number): Promise<void> {
    if (this.#fromPrimary.delete(`${group}:${slotAt}`)) {
      await this.#withPrimary((p) => p.release(group, slotAt));
      return;
    }
    await this.#local.release(group, slotAt);
  }

  async noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome> {
    if (this.#fromPrimary.delete(`${group}:${sentAt}`)) {
      const remote = await this.#withPrimary((p) => p.noteRateLimited(group, sentAt, retryAfterMs));
      if (remote) return remote.value;
      // The local budget never held this send: only the Retry-After can still be shared.
      return this.#local.noteRateLimited(group, Number.NEGATIVE_INFINITY, retryAfterMs);
    }
    return this.#local.noteRateLimited(group, sentAt, retryAfterMs);
  }

  async snapshot(): Promise<RateBudgetState> {
    const remote = await this.#withPrimary((p) => p.snapshot());
    return remote ? remote.value : this.#local.snapshot();
  }

  async close(): Promise<void> {
    const primary = this.#primary;
    this.#primary = undefined;
    await Promise.all([primary?.close(), this.#local.close()]);
  }
}
