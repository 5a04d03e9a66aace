// Secrets (the API key, user tokens) must never reach stderr, logs or error lines unless the
// command's purpose is to print them. Everything main.ts and the HTTP trace write to stderr
// passes through one Redactor that knows the secrets of this run.
export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    // Very short values would redact ordinary words; real keys and tokens are long.
    if (secret && secret.length >= 8) {
      this.secrets.add(secret);
      this.secrets.add(encodeURIComponent(secret));
    }
  }

  apply(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join("[REDACTED]");
    return out;
  }
}

/** "sk_live_…abcd": enough to tell keys apart, not enough to use one. */
export function maskSecret(secret: string): string {
  return secret.length <= 4 ? "****" : `****${secret.slice(-4)}`;
}
