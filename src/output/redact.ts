// Secrets (the API key, user tokens) must never reach stderr, logs or error lines unless the
// command's purpose is to print them. Everything main.ts and the HTTP trace write to stderr
// passes through one Redactor that knows the secrets of this run.
export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly shortSecrets = new Set<string>();

  add(secret: string | undefined): void {
    if (!secret) return;
    // Whatever its length (docs/cli-contract.md "Secrets"). A short value is only redacted
    // where it stands as a word of its own, so that a 4-character key does not blank out
    // every ordinary word that happens to contain it.
    const target = secret.length >= 8 ? this.secrets : this.shortSecrets;
    target.add(secret);
    target.add(encodeURIComponent(secret));
  }

  apply(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join("[REDACTED]");
    for (const secret of this.shortSecrets) {
      const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, "g"), "[REDACTED]");
    }
    return out;
  }
}

/** "sk_live_…abcd": enough to tell keys apart, not enough to use one (a short key shows nothing). */
export function maskSecret(secret: string): string {
  return secret.length < 8 ? "****" : `****${secret.slice(-4)}`;
}
