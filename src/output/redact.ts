// Secrets (the API key, user tokens) must never reach stderr, logs or error lines unless the
// command's purpose is to print them. Everything main.ts and the HTTP trace write to stderr
// passes through one Redactor that knows the secrets of this run.
import { SecretScan } from "./secret-scan.js";
import { utf8ByteText } from "../domain/byte-text.js";

export class Redactor {
  private readonly secrets = new Set<string>();
  /**
   * The first PREFIX characters of each long secret, counted: with many secrets (`links serve`
   * holds a user token per trainee of the last hour) a line is scanned once for any of them
   * instead of once per secret — one request log line per click went through a thousand
   * includes() before.
   */
  private readonly prefixes = new Map<string, number>();
  /** Short secrets and their word-bounded pattern, compiled once (not once per string). */
  private readonly shortSecrets = new Map<string, RegExp>();
  /** The API key alone: redacted from data output too, where a user token may belong. */
  private readonly dataRedactor: Redactor | undefined;

  constructor(options: { forData?: boolean } = {}) {
    this.dataRedactor = options.forData ? undefined : new Redactor({ forData: true });
  }

  /**
   * The API key: never on stderr, and never in data output either — a service that echoes
   * the key inside report data must not put it into an export.
   */
  addKey(key: string | undefined): void {
    this.add(key);
    this.dataRedactor?.add(key);
  }

  /**
   * `value` (records, a service answer) with every occurrence of the API key in its strings
   * and property names replaced by "[REDACTED]"; the value itself when there is none.
   */
  redactData<T>(value: T): T {
    const data = this.dataRedactor;
    if (!data || (data.secrets.size === 0 && data.shortSecrets.size === 0)) return value;
    return data.walk(value) as T;
  }

  /**
   * A scan that proves the secrets redactData removes absent from the JSON text records are
   * parsed from (secret-scan.ts): where it does, the records need no redactData. Undefined
   * when there is no such secret (redactData changes nothing then).
   */
  dataScan(): SecretScan | undefined {
    const data = this.dataRedactor;
    if (!data || (data.secrets.size === 0 && data.shortSecrets.size === 0)) return undefined;
    return new SecretScan([...data.secrets, ...data.shortSecrets.keys()]);
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.apply(value);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const next = this.walk(item);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const name = this.apply(key);
        const next = this.walk(item);
        if (name !== key || next !== item) changed = true;
        out[name] = next;
      }
      return changed ? out : value;
    }
    return value;
  }

  /**
   * Whether a record's JSON text may hold the API key: false lets `reports sync` store the
   * service's own text without walking it. A backslash may escape any character of the key.
   */
  mayHoldSecret(text: string): boolean {
    const data = this.dataRedactor;
    if (!data || (data.secrets.size === 0 && data.shortSecrets.size === 0)) return false;
    if (text.includes("\\")) return true;
    for (const secret of data.secrets) if (text.includes(secret)) return true;
    for (const secret of data.shortSecrets.keys()) if (text.includes(secret)) return true;
    return false;
  }

  /**
   * mayHoldSecret for UTF-8 bytes given one per character (a Buffer read as `latin1`:
   * `reports sync` copies such records into its load file without decoding them).
   */
  mayHoldSecretBytes(bytes: string): boolean {
    const data = this.dataRedactor;
    if (!data || (data.secrets.size === 0 && data.shortSecrets.size === 0)) return false;
    if (bytes.includes("\\")) return true;
    data.secretBytes ??= [...data.secrets, ...data.shortSecrets.keys()].map(utf8ByteText);
    for (const secret of data.secretBytes) if (bytes.includes(secret)) return true;
    return false;
  }

  /** The secrets as UTF-8 bytes, one per character (mayHoldSecretBytes); made when first needed. */
  private secretBytes: string[] | undefined;

  add(secret: string | undefined): void {
    if (!secret) return;
    this.secretBytes = undefined;
    // Whatever its length (docs/cli-contract.md "Secrets"). A short value is only redacted
    // where it stands as a word of its own, so that a 4-character key does not blank out
    // every ordinary word that happens to contain it.
    for (const form of [secret, encodeURIComponent(secret)]) {
      if (secret.length >= 8) {
        if (this.secrets.has(form)) continue;
        this.secrets.add(form);
        const prefix = form.slice(0, PREFIX);
        this.prefixes.set(prefix, (this.prefixes.get(prefix) ?? 0) + 1);
      } else if (!this.shortSecrets.has(form)) {
        const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        this.shortSecrets.set(form, new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, "g"));
      }
    }
  }

  /** A secret no longer needed (an expired user token): a long-running server's set stays small. */
  forget(secret: string): void {
    for (const form of [secret, encodeURIComponent(secret)]) {
      if (this.secrets.delete(form)) {
        const prefix = form.slice(0, PREFIX);
        const left = (this.prefixes.get(prefix) ?? 1) - 1;
        if (left > 0) this.prefixes.set(prefix, left);
        else this.prefixes.delete(prefix);
      }
      this.shortSecrets.delete(form);
    }
  }

  /** Whether some long secret's prefix occurs in `text` (a secret in it implies its prefix). */
  #mayHoldLong(text: string): boolean {
    for (let i = 0; i + PREFIX <= text.length; i++) if (this.prefixes.has(text.slice(i, i + PREFIX))) return true;
    return false;
  }

  apply(text: string): string {
    let out = text;
    // includes() first: nearly every string holds no secret, and then nothing is built.
    if (this.secrets.size > MANY && !this.#mayHoldLong(text)) {
      // No long secret starts anywhere in the text: only the short ones remain to check.
    } else {
      for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join("[REDACTED]");
    }
    for (const [secret, pattern] of this.shortSecrets) if (out.includes(secret)) out = out.replace(pattern, "[REDACTED]");
    return out;
  }
}

/** Long secrets (at least this long) are found by their first PREFIX characters first. */
const PREFIX = 8;
/** Up to this many long secrets, includes() each is quicker than scanning for prefixes. */
const MANY = 16;

/** "sk_live_…abcd": enough to tell keys apart, not enough to use one (a short key shows nothing). */
export function maskSecret(secret: string): string {
  return secret.length < 8 ? "****" : `****${secret.slice(-4)}`;
}
