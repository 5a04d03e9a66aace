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
import { UsageError } from "../../errors.js";
import type { BudgetStore, RedisLocation } from "./store.js";
import type { RateBudgetState, RateLimitedOutcome, Reservation } from "./budget.js";
import { RateLedger } from "./file-store.js";
import type { RateLimits, RequestGroup } from "./limits.js";

// SIMADMIN_RATE_STORE (docs/cli-contract.md "Rate limits", issue 17): where the rate budget
// lives. Unset or empty: the file ledger in the settings directory, shared by the runs of one
// machine. redis://[user:pass@]host:port[/db] or rediss:// (TLS): Redis, shared by every
// machine that uses it — a CI fleet behind one address. Redis is loaded only then.

/** Parses SIMADMIN_RATE_STORE; undefined for the default (the local ledger). Throws UsageError, never echoing a password. */
export function parseRateStore(value: string | undefined): RedisLocation | undefined {
  if (stryMutAct_9fa48("581")) {
    {}
  } else {
    stryCov_9fa48("581");
    const text = stryMutAct_9fa48("582") ? value?.trim() && "" : (stryCov_9fa48("582"), (stryMutAct_9fa48("584") ? value.trim() : stryMutAct_9fa48("583") ? value : (stryCov_9fa48("583", "584"), value?.trim())) ?? (stryMutAct_9fa48("585") ? "Stryker was here!" : (stryCov_9fa48("585"), "")));
    if (stryMutAct_9fa48("588") ? text !== "" : stryMutAct_9fa48("587") ? false : stryMutAct_9fa48("586") ? true : (stryCov_9fa48("586", "587", "588"), text === (stryMutAct_9fa48("589") ? "Stryker was here!" : (stryCov_9fa48("589"), "")))) return undefined;
    const bad = stryMutAct_9fa48("590") ? () => undefined : (stryCov_9fa48("590"), (() => {
      const bad = (why: string): UsageError => new UsageError(stryMutAct_9fa48("591") ? `` : (stryCov_9fa48("591"), `SIMADMIN_RATE_STORE: ${why}`), stryMutAct_9fa48("592") ? {} : (stryCov_9fa48("592"), {
        hint: stryMutAct_9fa48("593") ? "" : (stryCov_9fa48("593"), "use redis://[user:password@]host:port[/db] or rediss://… for TLS, or unset it for this machine's own budget")
      }));
      return bad;
    })());
    let url: URL;
    try {
      if (stryMutAct_9fa48("594")) {
        {}
      } else {
        stryCov_9fa48("594");
        url = new URL(text);
      }
    } catch {
      if (stryMutAct_9fa48("595")) {
        {}
      } else {
        stryCov_9fa48("595");
        throw bad(stryMutAct_9fa48("596") ? "" : (stryCov_9fa48("596"), "not a URL"));
      }
    }
    if (stryMutAct_9fa48("599") ? url.protocol !== "redis:" || url.protocol !== "rediss:" : stryMutAct_9fa48("598") ? false : stryMutAct_9fa48("597") ? true : (stryCov_9fa48("597", "598", "599"), (stryMutAct_9fa48("601") ? url.protocol === "redis:" : stryMutAct_9fa48("600") ? true : (stryCov_9fa48("600", "601"), url.protocol !== (stryMutAct_9fa48("602") ? "" : (stryCov_9fa48("602"), "redis:")))) && (stryMutAct_9fa48("604") ? url.protocol === "rediss:" : stryMutAct_9fa48("603") ? true : (stryCov_9fa48("603", "604"), url.protocol !== (stryMutAct_9fa48("605") ? "" : (stryCov_9fa48("605"), "rediss:")))))) throw bad(stryMutAct_9fa48("606") ? `` : (stryCov_9fa48("606"), `unsupported scheme "${url.protocol}"`));
    if (stryMutAct_9fa48("609") ? url.hostname !== "" : stryMutAct_9fa48("608") ? false : stryMutAct_9fa48("607") ? true : (stryCov_9fa48("607", "608", "609"), url.hostname === (stryMutAct_9fa48("610") ? "Stryker was here!" : (stryCov_9fa48("610"), "")))) throw bad(stryMutAct_9fa48("611") ? "" : (stryCov_9fa48("611"), "no host"));
    const port = (stryMutAct_9fa48("614") ? url.port !== "" : stryMutAct_9fa48("613") ? false : stryMutAct_9fa48("612") ? true : (stryCov_9fa48("612", "613", "614"), url.port === (stryMutAct_9fa48("615") ? "Stryker was here!" : (stryCov_9fa48("615"), "")))) ? 6379 : Number(url.port);
    const path = url.pathname.replace(stryMutAct_9fa48("617") ? /^\// : stryMutAct_9fa48("616") ? /\/+/ : (stryCov_9fa48("616", "617"), /^\/+/), stryMutAct_9fa48("618") ? "Stryker was here!" : (stryCov_9fa48("618"), ""));
    const db = (stryMutAct_9fa48("621") ? path !== "" : stryMutAct_9fa48("620") ? false : stryMutAct_9fa48("619") ? true : (stryCov_9fa48("619", "620", "621"), path === (stryMutAct_9fa48("622") ? "Stryker was here!" : (stryCov_9fa48("622"), "")))) ? 0 : Number(path);
    if (stryMutAct_9fa48("625") ? (!Number.isSafeInteger(db) || db < 0) && !/^\d*$/.test(path) : stryMutAct_9fa48("624") ? false : stryMutAct_9fa48("623") ? true : (stryCov_9fa48("623", "624", "625"), (stryMutAct_9fa48("627") ? !Number.isSafeInteger(db) && db < 0 : stryMutAct_9fa48("626") ? false : (stryCov_9fa48("626", "627"), (stryMutAct_9fa48("628") ? Number.isSafeInteger(db) : (stryCov_9fa48("628"), !Number.isSafeInteger(db))) || (stryMutAct_9fa48("631") ? db >= 0 : stryMutAct_9fa48("630") ? db <= 0 : stryMutAct_9fa48("629") ? false : (stryCov_9fa48("629", "630", "631"), db < 0)))) || (stryMutAct_9fa48("632") ? /^\d*$/.test(path) : (stryCov_9fa48("632"), !(stryMutAct_9fa48("636") ? /^\D*$/ : stryMutAct_9fa48("635") ? /^\d$/ : stryMutAct_9fa48("634") ? /^\d*/ : stryMutAct_9fa48("633") ? /\d*$/ : (stryCov_9fa48("633", "634", "635", "636"), /^\d*$/)).test(path))))) throw bad(stryMutAct_9fa48("637") ? "" : (stryCov_9fa48("637"), "the database after the host must be a number, e.g. /0"));
    const tls = stryMutAct_9fa48("640") ? url.protocol !== "rediss:" : stryMutAct_9fa48("639") ? false : stryMutAct_9fa48("638") ? true : (stryCov_9fa48("638", "639", "640"), url.protocol === (stryMutAct_9fa48("641") ? "" : (stryCov_9fa48("641"), "rediss:")));
    const host = url.hostname.replace(stryMutAct_9fa48("644") ? /^\[(.)\]$/ : stryMutAct_9fa48("643") ? /^\[(.*)\]/ : stryMutAct_9fa48("642") ? /\[(.*)\]$/ : (stryCov_9fa48("642", "643", "644"), /^\[(.*)\]$/), stryMutAct_9fa48("645") ? "" : (stryCov_9fa48("645"), "$1"));
    return stryMutAct_9fa48("646") ? {} : (stryCov_9fa48("646"), {
      tls,
      host,
      port,
      db,
      username: (stryMutAct_9fa48("649") ? url.username !== "" : stryMutAct_9fa48("648") ? false : stryMutAct_9fa48("647") ? true : (stryCov_9fa48("647", "648", "649"), url.username === (stryMutAct_9fa48("650") ? "Stryker was here!" : (stryCov_9fa48("650"), "")))) ? undefined : decodeURIComponent(url.username),
      password: (stryMutAct_9fa48("653") ? url.password !== "" : stryMutAct_9fa48("652") ? false : stryMutAct_9fa48("651") ? true : (stryCov_9fa48("651", "652", "653"), url.password === (stryMutAct_9fa48("654") ? "Stryker was here!" : (stryCov_9fa48("654"), "")))) ? undefined : decodeURIComponent(url.password),
      display: stryMutAct_9fa48("655") ? `` : (stryCov_9fa48("655"), `${url.protocol}//${url.host}/${db}`)
    });
  }
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
 * for the rest of the run — never a hang or a crash (issue 17 item 3).
 */
export async function createRateStore(options: RateStoreOptions): Promise<BudgetStore> {
  if (stryMutAct_9fa48("656")) {
    {}
  } else {
    stryCov_9fa48("656");
    const location = parseRateStore(options.setting);
    const local = new RateLedger(stryMutAct_9fa48("657") ? {} : (stryCov_9fa48("657"), {
      limits: options.limits,
      clock: options.clock,
      path: options.ledgerPath,
      signal: options.signal
    }));
    if (stryMutAct_9fa48("660") ? location !== undefined : stryMutAct_9fa48("659") ? false : stryMutAct_9fa48("658") ? true : (stryCov_9fa48("658", "659", "660"), location === undefined)) return local;
    const {
      RedisBudgetStore
    } = await import("./redis-store.js");
    const fallback = new FallbackBudgetStore(local, options.clock, stryMutAct_9fa48("661") ? () => undefined : (stryCov_9fa48("661"), reason => options.warn((stryMutAct_9fa48("662") ? `` : (stryCov_9fa48("662"), `the shared rate budget at ${location.display} cannot be used (${redactPassword(reason, location)}); `)) + (stryMutAct_9fa48("663") ? `` : (stryCov_9fa48("663"), `this run keeps this machine's own budget instead`)))));
    try {
      if (stryMutAct_9fa48("664")) {
        {}
      } else {
        stryCov_9fa48("664");
        const redis = await RedisBudgetStore.connect(stryMutAct_9fa48("665") ? {} : (stryCov_9fa48("665"), {
          location,
          baseUrl: options.baseUrl,
          limits: options.limits
        }));
        stryMutAct_9fa48("666") ? options.trace(`rate budget: ${redis.description}`) : (stryCov_9fa48("666"), options.trace?.(stryMutAct_9fa48("667") ? `` : (stryCov_9fa48("667"), `rate budget: ${redis.description}`)));
        fallback.usePrimary(redis);
      }
    } catch (error) {
      if (stryMutAct_9fa48("668")) {
        {}
      } else {
        stryCov_9fa48("668");
        fallback.primaryFailed(error);
      }
    }
    return fallback;
  }
}
function redactPassword(text: string, location: RedisLocation): string {
  if (stryMutAct_9fa48("669")) {
    {}
  } else {
    stryCov_9fa48("669");
    let out = text;
    for (const secret of stryMutAct_9fa48("670") ? [] : (stryCov_9fa48("670"), [location.password, stryMutAct_9fa48("673") ? location.password || encodeURIComponent(location.password) : stryMutAct_9fa48("672") ? false : stryMutAct_9fa48("671") ? true : (stryCov_9fa48("671", "672", "673"), location.password && encodeURIComponent(location.password))])) {
      if (stryMutAct_9fa48("674")) {
        {}
      } else {
        stryCov_9fa48("674");
        if (stryMutAct_9fa48("676") ? false : stryMutAct_9fa48("675") ? true : (stryCov_9fa48("675", "676"), secret)) out = out.split(secret).join(stryMutAct_9fa48("677") ? "" : (stryCov_9fa48("677"), "[REDACTED]"));
      }
    }
    return out;
  }
}
function reasonOf(error: unknown): string {
  if (stryMutAct_9fa48("678")) {
    {}
  } else {
    stryCov_9fa48("678");
    const text = error instanceof Error ? error.message : String(error);
    return stryMutAct_9fa48("681") ? text.split("\n")[0]?.slice(0, 200) && "unknown error" : stryMutAct_9fa48("680") ? false : stryMutAct_9fa48("679") ? true : (stryCov_9fa48("679", "680", "681"), (stryMutAct_9fa48("683") ? text.split("\n")[0].slice(0, 200) : stryMutAct_9fa48("682") ? text.split("\n")[0] : (stryCov_9fa48("682", "683"), text.split(stryMutAct_9fa48("684") ? "" : (stryCov_9fa48("684"), "\n"))[0]?.slice(0, 200))) || (stryMutAct_9fa48("685") ? "" : (stryCov_9fa48("685"), "unknown error")));
  }
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
    if (stryMutAct_9fa48("686")) {
      {}
    } else {
      stryCov_9fa48("686");
      this.#local = local;
      this.#clock = clock;
      this.#onFailure = onFailure;
    }
  }
  usePrimary(primary: BudgetStore): void {
    if (stryMutAct_9fa48("687")) {
      {}
    } else {
      stryCov_9fa48("687");
      this.#primary = primary;
    }
  }
  primaryFailed(error: unknown): void {
    if (stryMutAct_9fa48("688")) {
      {}
    } else {
      stryCov_9fa48("688");
      const primary = this.#primary;
      this.#primary = undefined;
      this.#onFailure(reasonOf(error));
      void (stryMutAct_9fa48("689") ? primary.close().catch(() => undefined) : (stryCov_9fa48("689"), primary?.close().catch(() => undefined)));
    }
  }
  get description(): string {
    if (stryMutAct_9fa48("690")) {
      {}
    } else {
      stryCov_9fa48("690");
      return (stryMutAct_9fa48("691") ? this.#primary && this.#local : (stryCov_9fa48("691"), this.#primary ?? this.#local)).description;
    }
  }
  get usingPrimary(): boolean {
    if (stryMutAct_9fa48("692")) {
      {}
    } else {
      stryCov_9fa48("692");
      return stryMutAct_9fa48("695") ? this.#primary === undefined : stryMutAct_9fa48("694") ? false : stryMutAct_9fa48("693") ? true : (stryCov_9fa48("693", "694", "695"), this.#primary !== undefined);
    }
  }
  async #withPrimary<T>(call: (primary: BudgetStore) => Promise<T>): Promise<{
    ok: true;
    value: T;
  } | {
    ok: false;
  }> {
    if (stryMutAct_9fa48("696")) {
      {}
    } else {
      stryCov_9fa48("696");
      const primary = this.#primary;
      if (stryMutAct_9fa48("699") ? primary !== undefined : stryMutAct_9fa48("698") ? false : stryMutAct_9fa48("697") ? true : (stryCov_9fa48("697", "698", "699"), primary === undefined)) return stryMutAct_9fa48("700") ? {} : (stryCov_9fa48("700"), {
        ok: stryMutAct_9fa48("701") ? true : (stryCov_9fa48("701"), false)
      });
      try {
        if (stryMutAct_9fa48("702")) {
          {}
        } else {
          stryCov_9fa48("702");
          return stryMutAct_9fa48("703") ? {} : (stryCov_9fa48("703"), {
            ok: stryMutAct_9fa48("704") ? false : (stryCov_9fa48("704"), true),
            value: await call(primary)
          });
        }
      } catch (error) {
        if (stryMutAct_9fa48("705")) {
          {}
        } else {
          stryCov_9fa48("705");
          if (stryMutAct_9fa48("708") ? this.#primary !== primary : stryMutAct_9fa48("707") ? false : stryMutAct_9fa48("706") ? true : (stryCov_9fa48("706", "707", "708"), this.#primary === primary)) this.primaryFailed(error);
          return stryMutAct_9fa48("709") ? {} : (stryCov_9fa48("709"), {
            ok: stryMutAct_9fa48("710") ? true : (stryCov_9fa48("710"), false)
          });
        }
      }
    }
  }
  async reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation> {
    if (stryMutAct_9fa48("711")) {
      {}
    } else {
      stryCov_9fa48("711");
      const remote = await this.#withPrimary(stryMutAct_9fa48("712") ? () => undefined : (stryCov_9fa48("712"), p => p.reserve(group, maxWaitMs)));
      if (stryMutAct_9fa48("714") ? false : stryMutAct_9fa48("713") ? true : (stryCov_9fa48("713", "714"), remote.ok)) {
        if (stryMutAct_9fa48("715")) {
          {}
        } else {
          stryCov_9fa48("715");
          if (stryMutAct_9fa48("717") ? false : stryMutAct_9fa48("716") ? true : (stryCov_9fa48("716", "717"), remote.value.reserved)) this.#fromPrimary.add(stryMutAct_9fa48("718") ? `` : (stryCov_9fa48("718"), `${group}:${remote.value.slotAt}`));
          return remote.value;
        }
      }
      return this.#local.reserve(group, maxWaitMs);
    }
  }
  async settle(group: RequestGroup, slotAt: number): Promise<number> {
    if (stryMutAct_9fa48("719")) {
      {}
    } else {
      stryCov_9fa48("719");
      const handle = stryMutAct_9fa48("720") ? `` : (stryCov_9fa48("720"), `${group}:${slotAt}`);
      if (stryMutAct_9fa48("722") ? false : stryMutAct_9fa48("721") ? true : (stryCov_9fa48("721", "722"), this.#fromPrimary.delete(handle))) {
        if (stryMutAct_9fa48("723")) {
          {}
        } else {
          stryCov_9fa48("723");
          const remote = await this.#withPrimary(stryMutAct_9fa48("724") ? () => undefined : (stryCov_9fa48("724"), p => p.settle(group, slotAt)));
          if (stryMutAct_9fa48("726") ? false : stryMutAct_9fa48("725") ? true : (stryCov_9fa48("725", "726"), remote.ok)) {
            if (stryMutAct_9fa48("727")) {
              {}
            } else {
              stryCov_9fa48("727");
              this.#fromPrimary.add(stryMutAct_9fa48("728") ? `` : (stryCov_9fa48("728"), `${group}:${remote.value}`));
              return remote.value;
            }
          }
          // Sent through Redis's slot, which is gone now: the local budget counts it from now.
          return this.#local.settle(group, this.#clock.now());
        }
      }
      return this.#local.settle(group, slotAt);
    }
  }
  async release(group: RequestGroup, slotAt: number): Promise<void> {
    if (stryMutAct_9fa48("729")) {
      {}
    } else {
      stryCov_9fa48("729");
      if (stryMutAct_9fa48("731") ? false : stryMutAct_9fa48("730") ? true : (stryCov_9fa48("730", "731"), this.#fromPrimary.delete(stryMutAct_9fa48("732") ? `` : (stryCov_9fa48("732"), `${group}:${slotAt}`)))) {
        if (stryMutAct_9fa48("733")) {
          {}
        } else {
          stryCov_9fa48("733");
          await this.#withPrimary(stryMutAct_9fa48("734") ? () => undefined : (stryCov_9fa48("734"), p => p.release(group, slotAt)));
          return;
        }
      }
      await this.#local.release(group, slotAt);
    }
  }
  async noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome> {
    if (stryMutAct_9fa48("735")) {
      {}
    } else {
      stryCov_9fa48("735");
      if (stryMutAct_9fa48("737") ? false : stryMutAct_9fa48("736") ? true : (stryCov_9fa48("736", "737"), this.#fromPrimary.delete(stryMutAct_9fa48("738") ? `` : (stryCov_9fa48("738"), `${group}:${sentAt}`)))) {
        if (stryMutAct_9fa48("739")) {
          {}
        } else {
          stryCov_9fa48("739");
          const remote = await this.#withPrimary(stryMutAct_9fa48("740") ? () => undefined : (stryCov_9fa48("740"), p => p.noteRateLimited(group, sentAt, retryAfterMs)));
          if (stryMutAct_9fa48("742") ? false : stryMutAct_9fa48("741") ? true : (stryCov_9fa48("741", "742"), remote.ok)) return remote.value;
          // The local budget never held this send: only the Retry-After can still be shared.
          return this.#local.noteRateLimited(group, Number.NEGATIVE_INFINITY, retryAfterMs);
        }
      }
      return this.#local.noteRateLimited(group, sentAt, retryAfterMs);
    }
  }
  async snapshot(): Promise<RateBudgetState> {
    if (stryMutAct_9fa48("743")) {
      {}
    } else {
      stryCov_9fa48("743");
      const remote = await this.#withPrimary(stryMutAct_9fa48("744") ? () => undefined : (stryCov_9fa48("744"), p => p.snapshot()));
      return remote.ok ? remote.value : this.#local.snapshot();
    }
  }
  async close(): Promise<void> {
    if (stryMutAct_9fa48("745")) {
      {}
    } else {
      stryCov_9fa48("745");
      const primary = this.#primary;
      this.#primary = undefined;
      await Promise.all(stryMutAct_9fa48("746") ? [] : (stryCov_9fa48("746"), [stryMutAct_9fa48("747") ? primary.close() : (stryCov_9fa48("747"), primary?.close()), this.#local.close()]));
    }
  }
}