// Streaming UTF-8 validation. csv-parse decodes invalid bytes to U+FFFD without a word, and
// a name silently turned into "Jos�" would be uploaded; so every byte is checked before
// the parser sees it. buffer.isUtf8 (simdutf) keeps the check far below parsing cost; the
// byte-by-byte scan below runs only to locate an error already known to exist.

import { isUtf8 } from "node:buffer";

/**
 * Offset of the first byte that starts an invalid or truncated UTF-8 sequence in `bytes`,
 * or -1 when all of it is valid. Overlong forms, surrogates and code points above U+10FFFF
 * are invalid (RFC 3629), as for isUtf8.
 */
export function findInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) {
      need = 2;
      lo = 0xa0;
    } else if (b === 0xed) {
      need = 2;
      hi = 0x9f;
    } else if (b >= 0xe1 && b <= 0xef) need = 2;
    else if (b === 0xf0) {
      need = 3;
      lo = 0x90;
    } else if (b === 0xf4) {
      need = 3;
      hi = 0x8f;
    } else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else return i;
    if (i + need >= n) return i;
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** Length of the sequence a lead byte announces; 0 for ASCII (nothing to wait for), a continuation or an invalid byte. */
function sequenceLength(b: number): number {
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

export type Utf8Result =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; validPrefix: Uint8Array; offset: number; /** The first bad byte. */ byte: number };

/**
 * Validates a byte stream chunk by chunk. A multi-byte character split across chunks is
 * held back (at most 3 bytes) until the next chunk completes it.
 */
export class Utf8StreamChecker {
  private carry: Uint8Array | undefined;
  /** File offset of the first byte not yet returned as valid. */
  private offset = 0;

  /** The validated bytes to pass on, or where the first invalid byte is. */
  push(chunk: Uint8Array): Utf8Result {
    let bytes = chunk;
    if (this.carry !== undefined) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry, 0);
      bytes.set(chunk, this.carry.length);
      this.carry = undefined;
    }
    const cut = completePrefixLength(bytes);
    const complete = bytes.subarray(0, cut);
    if (!isUtf8(complete)) {
      const at = findInvalidUtf8(complete);
      // isUtf8 and the scan agree on every input; should they ever not (-1), blame the chunk start.
      const local = Math.max(0, at);
      return { ok: false, validPrefix: complete.subarray(0, local), offset: this.offset + local, byte: complete[local] ?? 0 };
    }
    if (cut < bytes.length) this.carry = bytes.slice(cut);
    this.offset += cut;
    return { ok: true, bytes: complete };
  }

  /** At the end of the stream: -1, or the offset of a character cut off by the end. */
  end(): number {
    return this.carry === undefined ? -1 : this.offset;
  }
}

/**
 * Bytes at the start of `bytes` that do not end inside a multi-byte sequence. Looks back
 * at most 3 bytes for the last lead byte; anything malformed is left to isUtf8.
 */
function completePrefixLength(bytes: Uint8Array): number {
  const n = bytes.length;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the bounds only save work; looking further back finds a lead byte of length <= 4 <= back, or nothing, and answers n either way
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for its lead byte
    const len = sequenceLength(b);
    return len > back ? n - back : n;
  }
  return n;
}
