// Proving the API key absent from report text before its records are parsed, so that they
// need no redaction walk (docs/architecture.md, Exports; docs/cli-contract.md "Secrets"). The walk looks at every string and
// property name of every record: a fifth of an export's CPU. One indexOf per secret over the
// raw text does the same job for a window without the key — and the proof must be exact:
//
// - a secret split across two chunks is found (the last characters of one chunk are searched
//   together with the start of the next);
// - JSON may write any character as an escape (`\u0061`, `\/`): a secret written with escapes
//   is not its plain text in the raw bytes. Every escape in the text is decoded; one that
//   stands for a character some secret contains ends the proof (the records are walked), as
//   does an escape cut by a chunk boundary. Escapes of other characters (`\n`, `\u00e9`)
//   cannot be part of a secret and are passed over;
// - the URL-encoded form is one of the secrets the redactor holds (redact.ts).
//
// Once a secret or such an escape is seen, `absent` stays false for the rest of the text.

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

export class SecretScan {
  private seen = false;
  private tail = "";
  private readonly overlap: number;
  private readonly chars: ReadonlySet<string>;

  constructor(private readonly secrets: readonly string[]) {
    this.overlap = Math.max(0, ...secrets.map((secret) => secret.length - 1));
    this.chars = new Set(secrets.flatMap((secret) => [...secret.split("")]));
  }

  /** False once the text read so far may hold a secret (plain, split, or written with escapes). */
  get absent(): boolean {
    return !this.seen;
  }

  /** Proves nothing for this text (it is read some other way than through feed()). */
  giveUp(): void {
    this.seen = true;
  }

  /** The next chunk of the text, in order. */
  feed(chunk: string): void {
    if (this.seen) return;
    const edge = this.tail.length > 0 ? this.tail + chunk.slice(0, this.overlap) : "";
    for (const secret of this.secrets) {
      if (chunk.includes(secret) || edge.includes(secret)) {
        this.seen = true;
        return;
      }
    }
    if (this.escapesSecretChar(chunk)) {
      this.seen = true;
      return;
    }
    if (this.overlap > 0) {
      this.tail = chunk.length >= this.overlap ? chunk.slice(-this.overlap) : (this.tail + chunk).slice(-this.overlap);
    }
  }

  /** Whether an escape in `chunk` stands for a character of a secret, or is cut by the chunk's end. */
  private escapesSecretChar(chunk: string): boolean {
    for (let at = chunk.indexOf("\\"); at !== -1;) {
      const kind = chunk[at + 1];
      if (kind === undefined) return true;
      if (kind === "u") {
        if (at + 6 > chunk.length) return true;
        const code = Number.parseInt(chunk.slice(at + 2, at + 6), 16);
        if (Number.isNaN(code) || this.chars.has(String.fromCharCode(code))) return true;
        at = chunk.indexOf("\\", at + 6);
      } else {
        const char = ESCAPES[kind];
        if (char === undefined || this.chars.has(char)) return true;
        at = chunk.indexOf("\\", at + 2);
      }
    }
    return false;
  }
}
