// A text as its UTF-8 bytes, one character per byte (what a Buffer read as `latin1` gives):
// `reports sync` scans and copies answers in that form without decoding them
// (docs/reports-sync.md, "Windows, and why a killed run is harmless"), so the keys, secrets and records it
// compares with them must be in the same form.

/** The UTF-8 bytes of `text`, one character per byte. */
export function utf8ByteText(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}
