// @ts-nocheck
// Secrets (the API key, user tokens) must never reach stderr, logs or error lines unless the
// command's purpose is to print them. Everything main.ts and the HTTP trace write to stderr
// passes through one Redactor that knows the secrets of this run.
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
export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly shortSecrets = new Set<string>();
  /** The API key alone: redacted from data output too, where a user token may belong. */
  private readonly dataRedactor: Redactor | undefined;
  constructor(options: {
    forData?: boolean;
  } = {}) {
    if (stryMutAct_9fa48("6656")) {
      {}
    } else {
      stryCov_9fa48("6656");
      this.dataRedactor = options.forData ? undefined : new Redactor(stryMutAct_9fa48("6657") ? {} : (stryCov_9fa48("6657"), {
        forData: stryMutAct_9fa48("6658") ? false : (stryCov_9fa48("6658"), true)
      }));
    }
  }

  /**
   * The API key: never on stderr, and never in data output either — a service that echoes
   * the key inside report data must not put it into an export (issue 22 item 6).
   */
  addKey(key: string | undefined): void {
    if (stryMutAct_9fa48("6659")) {
      {}
    } else {
      stryCov_9fa48("6659");
      this.add(key);
      stryMutAct_9fa48("6660") ? this.dataRedactor.add(key) : (stryCov_9fa48("6660"), this.dataRedactor?.add(key));
    }
  }

  /**
   * `value` (records, a service answer) with every occurrence of the API key in its strings
   * and property names replaced by "[REDACTED]"; the value itself when there is none.
   */
  redactData<T>(value: T): T {
    if (stryMutAct_9fa48("6661")) {
      {}
    } else {
      stryCov_9fa48("6661");
      const data = this.dataRedactor;
      if (stryMutAct_9fa48("6664") ? !data && data.secrets.size === 0 && data.shortSecrets.size === 0 : stryMutAct_9fa48("6663") ? false : stryMutAct_9fa48("6662") ? true : (stryCov_9fa48("6662", "6663", "6664"), (stryMutAct_9fa48("6665") ? data : (stryCov_9fa48("6665"), !data)) || (stryMutAct_9fa48("6667") ? data.secrets.size === 0 || data.shortSecrets.size === 0 : stryMutAct_9fa48("6666") ? false : (stryCov_9fa48("6666", "6667"), (stryMutAct_9fa48("6669") ? data.secrets.size !== 0 : stryMutAct_9fa48("6668") ? true : (stryCov_9fa48("6668", "6669"), data.secrets.size === 0)) && (stryMutAct_9fa48("6671") ? data.shortSecrets.size !== 0 : stryMutAct_9fa48("6670") ? true : (stryCov_9fa48("6670", "6671"), data.shortSecrets.size === 0)))))) return value;
      return data.walk(value) as T;
    }
  }
  private walk(value: unknown): unknown {
    if (stryMutAct_9fa48("6672")) {
      {}
    } else {
      stryCov_9fa48("6672");
      if (stryMutAct_9fa48("6675") ? typeof value !== "string" : stryMutAct_9fa48("6674") ? false : stryMutAct_9fa48("6673") ? true : (stryCov_9fa48("6673", "6674", "6675"), typeof value === (stryMutAct_9fa48("6676") ? "" : (stryCov_9fa48("6676"), "string")))) return this.apply(value);
      if (stryMutAct_9fa48("6678") ? false : stryMutAct_9fa48("6677") ? true : (stryCov_9fa48("6677", "6678"), Array.isArray(value))) {
        if (stryMutAct_9fa48("6679")) {
          {}
        } else {
          stryCov_9fa48("6679");
          let changed = stryMutAct_9fa48("6680") ? true : (stryCov_9fa48("6680"), false);
          const out = value.map(item => {
            if (stryMutAct_9fa48("6681")) {
              {}
            } else {
              stryCov_9fa48("6681");
              const next = this.walk(item);
              if (stryMutAct_9fa48("6684") ? next === item : stryMutAct_9fa48("6683") ? false : stryMutAct_9fa48("6682") ? true : (stryCov_9fa48("6682", "6683", "6684"), next !== item)) changed = stryMutAct_9fa48("6685") ? false : (stryCov_9fa48("6685"), true);
              return next;
            }
          });
          return changed ? out : value;
        }
      }
      if (stryMutAct_9fa48("6688") ? value !== null && typeof value === "object" || Object.getPrototypeOf(value) === Object.prototype : stryMutAct_9fa48("6687") ? false : stryMutAct_9fa48("6686") ? true : (stryCov_9fa48("6686", "6687", "6688"), (stryMutAct_9fa48("6690") ? value !== null || typeof value === "object" : stryMutAct_9fa48("6689") ? true : (stryCov_9fa48("6689", "6690"), (stryMutAct_9fa48("6692") ? value === null : stryMutAct_9fa48("6691") ? true : (stryCov_9fa48("6691", "6692"), value !== null)) && (stryMutAct_9fa48("6694") ? typeof value !== "object" : stryMutAct_9fa48("6693") ? true : (stryCov_9fa48("6693", "6694"), typeof value === (stryMutAct_9fa48("6695") ? "" : (stryCov_9fa48("6695"), "object")))))) && (stryMutAct_9fa48("6697") ? Object.getPrototypeOf(value) !== Object.prototype : stryMutAct_9fa48("6696") ? true : (stryCov_9fa48("6696", "6697"), Object.getPrototypeOf(value) === Object.prototype)))) {
        if (stryMutAct_9fa48("6698")) {
          {}
        } else {
          stryCov_9fa48("6698");
          let changed = stryMutAct_9fa48("6699") ? true : (stryCov_9fa48("6699"), false);
          const out: Record<string, unknown> = {};
          for (const [key, item] of Object.entries(value)) {
            if (stryMutAct_9fa48("6700")) {
              {}
            } else {
              stryCov_9fa48("6700");
              const name = this.apply(key);
              const next = this.walk(item);
              if (stryMutAct_9fa48("6703") ? name !== key && next !== item : stryMutAct_9fa48("6702") ? false : stryMutAct_9fa48("6701") ? true : (stryCov_9fa48("6701", "6702", "6703"), (stryMutAct_9fa48("6705") ? name === key : stryMutAct_9fa48("6704") ? false : (stryCov_9fa48("6704", "6705"), name !== key)) || (stryMutAct_9fa48("6707") ? next === item : stryMutAct_9fa48("6706") ? false : (stryCov_9fa48("6706", "6707"), next !== item)))) changed = stryMutAct_9fa48("6708") ? false : (stryCov_9fa48("6708"), true);
              out[name] = next;
            }
          }
          return changed ? out : value;
        }
      }
      return value;
    }
  }
  add(secret: string | undefined): void {
    if (stryMutAct_9fa48("6709")) {
      {}
    } else {
      stryCov_9fa48("6709");
      if (stryMutAct_9fa48("6712") ? false : stryMutAct_9fa48("6711") ? true : stryMutAct_9fa48("6710") ? secret : (stryCov_9fa48("6710", "6711", "6712"), !secret)) return;
      // Whatever its length (docs/cli-contract.md "Secrets"). A short value is only redacted
      // where it stands as a word of its own, so that a 4-character key does not blank out
      // every ordinary word that happens to contain it.
      const target = (stryMutAct_9fa48("6716") ? secret.length < 8 : stryMutAct_9fa48("6715") ? secret.length > 8 : stryMutAct_9fa48("6714") ? false : stryMutAct_9fa48("6713") ? true : (stryCov_9fa48("6713", "6714", "6715", "6716"), secret.length >= 8)) ? this.secrets : this.shortSecrets;
      target.add(secret);
      target.add(encodeURIComponent(secret));
    }
  }
  apply(text: string): string {
    if (stryMutAct_9fa48("6717")) {
      {}
    } else {
      stryCov_9fa48("6717");
      let out = text;
      for (const secret of this.secrets) out = out.split(secret).join(stryMutAct_9fa48("6718") ? "" : (stryCov_9fa48("6718"), "[REDACTED]"));
      for (const secret of this.shortSecrets) {
        if (stryMutAct_9fa48("6719")) {
          {}
        } else {
          stryCov_9fa48("6719");
          const escaped = secret.replace(stryMutAct_9fa48("6720") ? /[^.*+?^${}()|[\]\\]/g : (stryCov_9fa48("6720"), /[.*+?^${}()|[\]\\]/g), stryMutAct_9fa48("6721") ? "" : (stryCov_9fa48("6721"), "\\$&"));
          out = out.replace(new RegExp(stryMutAct_9fa48("6722") ? `` : (stryCov_9fa48("6722"), `(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`), stryMutAct_9fa48("6723") ? "" : (stryCov_9fa48("6723"), "g")), stryMutAct_9fa48("6724") ? "" : (stryCov_9fa48("6724"), "[REDACTED]"));
        }
      }
      return out;
    }
  }
}

/** "sk_live_…abcd": enough to tell keys apart, not enough to use one (a short key shows nothing). */
export function maskSecret(secret: string): string {
  if (stryMutAct_9fa48("6725")) {
    {}
  } else {
    stryCov_9fa48("6725");
    return (stryMutAct_9fa48("6729") ? secret.length >= 8 : stryMutAct_9fa48("6728") ? secret.length <= 8 : stryMutAct_9fa48("6727") ? false : stryMutAct_9fa48("6726") ? true : (stryCov_9fa48("6726", "6727", "6728", "6729"), secret.length < 8)) ? stryMutAct_9fa48("6730") ? "" : (stryCov_9fa48("6730"), "****") : stryMutAct_9fa48("6731") ? `` : (stryCov_9fa48("6731"), `****${stryMutAct_9fa48("6732") ? secret : (stryCov_9fa48("6732"), secret.slice(stryMutAct_9fa48("6733") ? +4 : (stryCov_9fa48("6733"), -4)))}`);
  }
}