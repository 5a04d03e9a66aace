// Bytes → text for CSV input (docs/cli-contract.md "Users CSV": UTF-8 with or without BOM, UTF-16
// LE/BE with BOM, other encodings with --encoding).
//
// Which encoding a file is read in, in this order:
// 1. A byte-order mark: EF BB BF is UTF-8, FF FE UTF-16LE (Excel's "Unicode Text"), FE FF
//    UTF-16BE. A BOM beats --encoding (a file cannot start with one by accident: its first
//    bytes are a header name), with a note saying so. FF FE 00 00 / 00 00 FE FF is UTF-32,
//    which no spreadsheet writes for CSV and TextDecoder cannot read: a file error.
// 2. --encoding <label>: any label the WHATWG Encoding Standard knows (what TextDecoder
//    takes): windows-1252, latin1, iso-8859-15, utf-16le, macintosh, shift_jis, ...
// 3. No BOM and no --encoding, but the first bytes have the NUL pattern of ASCII text in
//    UTF-16 (`f\0i\0` or `\0f\0i`): UTF-16 without a BOM. Safe to detect, since a users
//    CSV starts with ASCII header names; read as such, with a note.
// 4. Otherwise strict UTF-8: any invalid byte is a file error naming its byte offset and
//    row and suggesting --encoding windows-1252 (Excel's "CSV (Comma delimited)"), never a
//    silent U+FFFD in a name.
//
// UTF-8 stays bytes (csv-parse decodes it, and buffer.isUtf8 checks it far faster than a
// decoder could); every other encoding becomes strings through a streaming decoder.
//
// windows-1252 (which the labels latin1, iso-8859-1, ascii, ... also name) is decoded here
// rather than by TextDecoder: Node 20's TextDecoder decodes it as ISO-8859-1, so the 27
// printable characters at 0x80–0x9F (€ ‚ „ … ’ “ ” – — Š š Ž ž Œ œ Ÿ ™ ...) came out as
// C1 control characters — "O’Brien" would have arrived as "O\u0092Brien".

import { TextDecoder } from "node:util";
import { UsageError } from "../../errors.js";
import { Utf8StreamChecker } from "./utf8.js";

export const UTF8 = "utf-8";
export const WINDOWS_1252 = "windows-1252";

/** The WHATWG name for an --encoding label (e.g. "latin1" → "windows-1252"), or undefined if unknown. */
export function resolveEncoding(label: string): string | undefined {
  try {
    // TextDecoder trims the label itself, and refuses an empty one like any unknown one.
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** A few labels to suggest when an --encoding name is unknown. */
export const ENCODING_EXAMPLES = ["utf-8", "windows-1252", "latin1", "iso-8859-15", "utf-16le", "utf-16be", "macintosh"];

/**
 * The `--encoding <name>` option of a command that reads a CSV: undefined when not given,
 * else the resolved name; an unknown name is a usage error (exit 2), raised before the file
 * is read or anything is sent.
 */
export function encodingOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const resolved = resolveEncoding(String(value));
  if (resolved === undefined) {
    throw new UsageError(`--encoding: unknown encoding ${JSON.stringify(String(value))}`, {
      hint: `use a WHATWG encoding name such as ${ENCODING_EXAMPLES.join(", ")}`,
    });
  }
  return resolved;
}

export type Sniffed =
  | { kind: "encoding"; encoding: string; bomBytes: number; how: "bom" | "nul-pattern" | "option" | "default" }
  | { kind: "unsupported"; name: string }
  | { kind: "need-more" };

/**
 * Decides the encoding from the first bytes of the file (see the rules at the top).
 * `atEnd`: `head` is the whole file, so no more bytes can change the answer.
 */
export function sniffEncoding(head: Uint8Array, option: string | undefined, atEnd: boolean): Sniffed {
  const [b0, b1, b2, b3] = head;
  if (head.length < 4 && !atEnd) return { kind: "need-more" };
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return { kind: "unsupported", name: "UTF-32LE" };
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return { kind: "unsupported", name: "UTF-32BE" };
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { kind: "encoding", encoding: UTF8, bomBytes: 3, how: "bom" };
  if (b0 === 0xff && b1 === 0xfe) return { kind: "encoding", encoding: "utf-16le", bomBytes: 2, how: "bom" };
  if (b0 === 0xfe && b1 === 0xff) return { kind: "encoding", encoding: "utf-16be", bomBytes: 2, how: "bom" };
  if (option !== undefined) return { kind: "encoding", encoding: option, bomBytes: 0, how: "option" };
  if (head.length >= 4) {
    if (b0 !== 0 && b1 === 0 && b2 !== 0 && b3 === 0)
      return { kind: "encoding", encoding: "utf-16le", bomBytes: 0, how: "nul-pattern" };
    if (b0 === 0 && b1 !== 0 && b2 === 0 && b3 !== 0)
      return { kind: "encoding", encoding: "utf-16be", bomBytes: 0, how: "nul-pattern" };
  }
  return { kind: "encoding", encoding: UTF8, bomBytes: 0, how: "default" };
}

/** Decoded output: UTF-8 bytes (checked) or text. */
export type Decoded = Buffer | string;

export type DecodeResult =
  | { ok: true; out: Decoded }
  | {
      ok: false;
      /** Everything decodable before the problem, to parse so that its row is known. */
      out: Decoded;
      /** File offset of the first bad byte (or, when not `exact`, of the chunk holding it). */
      offset: number;
      exact: boolean;
      /** What is wrong there, e.g. "byte 0xE9" or "a lone surrogate". */
      what: string;
    };

/** Turns the file's bytes (after any BOM) into parser input, chunk by chunk. */
export interface StreamDecoder {
  readonly encoding: string;
  push(chunk: Uint8Array): DecodeResult;
  end(): DecodeResult;
}

/**
 * The decoder for `encoding` (a resolved WHATWG name). `startOffset` is the file offset of
 * the first byte it will see (the BOM's length), so that its offsets are file offsets.
 */
export function createDecoder(encoding: string, startOffset: number): StreamDecoder {
  if (encoding === UTF8) return new Utf8Passthrough(startOffset);
  if (encoding === WINDOWS_1252) return new Windows1252Decoder();
  if (encoding === "utf-16le" || encoding === "utf-16be") return new Utf16Decoder(encoding, startOffset);
  return new GenericDecoder(encoding, startOffset);
}

/** A Buffer view of the same bytes (no copy). */
function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** A bad byte (0x80 and up) or UTF-16 code unit in hex: always two digits or more. */
const hex = (b: number): string => `0x${b.toString(16).toUpperCase()}`;

/** UTF-8: validated, passed on as bytes. */
class Utf8Passthrough implements StreamDecoder {
  readonly encoding = UTF8;
  private readonly checker = new Utf8StreamChecker();
  /** The checker counts from 0; the BOM (if any) came before. */
  constructor(private readonly base: number) {}

  push(chunk: Uint8Array): DecodeResult {
    const r = this.checker.push(chunk);
    if (r.ok) return { ok: true, out: toBuffer(r.bytes) };
    return { ok: false, out: toBuffer(r.validPrefix), offset: this.base + r.offset, exact: true, what: `byte ${hex(r.byte)}` };
  }

  end(): DecodeResult {
    const truncated = this.checker.end();
    if (truncated < 0) return { ok: true, out: Buffer.alloc(0) };
    return {
      ok: false,
      out: Buffer.alloc(0),
      offset: this.base + truncated,
      exact: true,
      what: "a character cut off by the end of the file",
    };
  }
}

/** windows-1252 → the 32 characters at 0x80–0x9F (WHATWG index; the 5 unassigned bytes map to C1 controls). */
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
const C1 = /[\x80-\x9f]/g;

/** Decodes windows-1252 bytes: latin1 for everything, then the 0x80–0x9F block by table. */
export function decodeWindows1252(bytes: Uint8Array): string {
  // replace() with a global regex starts at 0 and gives back the same string when nothing matches.
  return toBuffer(bytes)
    .toString("latin1")
    .replace(C1, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/** windows-1252: one byte, one character, every byte defined; nothing can fail. */
class Windows1252Decoder implements StreamDecoder {
  readonly encoding = WINDOWS_1252;
  push(chunk: Uint8Array): DecodeResult {
    return { ok: true, out: decodeWindows1252(chunk) };
  }
  end(): DecodeResult {
    return { ok: true, out: "" };
  }
}

/**
 * UTF-16 through TextDecoder (streaming, fatal). When it fails, the bad code unit is found
 * by a scan from the last byte it decoded, so the error names the exact byte and row.
 */
class Utf16Decoder implements StreamDecoder {
  private readonly decoder: TextDecoder;
  /** Bytes fed so far, and code units returned so far (each took 2 bytes). */
  private fed = 0;
  private units = 0;
  /** The last bytes fed, which the decoder may still hold (at most 3). */
  private tail = new Uint8Array(0);

  constructor(
    readonly encoding: "utf-16le" | "utf-16be",
    private readonly base: number,
  ) {
    // The BOM was already taken off; a U+FEFF after it is content.
    this.decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  }

  push(chunk: Uint8Array): DecodeResult {
    try {
      const out = this.decoder.decode(chunk, { stream: true });
      this.fed += chunk.length;
      this.units += out.length;
      // Stryker disable next-line MethodExpression: keeping more than the last 3 bytes changes nothing but memory
      this.tail = concat(this.tail, chunk.subarray(Math.max(0, chunk.length - 3))).slice(-3);
      return { ok: true, out };
    } catch {
      return this.locate(chunk);
    }
  }

  end(): DecodeResult {
    try {
      return { ok: true, out: this.decoder.decode() };
    } catch {
      return this.locate(new Uint8Array(0));
    }
  }

  /**
   * Finds the first bad code unit in the held bytes plus `chunk`. A high surrogate at the very
   * end is one: while streaming, the decoder holds such a unit back instead of failing, so a
   * failure in mid-stream always lies before it.
   */
  private locate(chunk: Uint8Array): DecodeResult {
    const held = this.fed - 2 * this.units;
    const bytes = concat(this.tail.subarray(this.tail.length - held), chunk);
    const le = this.encoding === "utf-16le";
    const unit = (i: number): number => (le ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
    let i = 0;
    let what = "an odd number of bytes (a character cut off by the end of the file)";
    for (; i + 1 < bytes.length; i += 2) {
      const u = unit(i);
      if (u >= 0xdc00 && u <= 0xdfff) {
        what = `a lone low surrogate ${hex(u)}`;
        break;
      }
      if (u >= 0xd800 && u <= 0xdbff) {
        // Past the end both bytes read as 0, which is no low surrogate.
        const next = unit(i + 2);
        if (next >= 0xdc00 && next <= 0xdfff) {
          i += 2;
          continue;
        }
        what = `a lone high surrogate ${hex(u)}`;
        break;
      }
    }
    const out = new TextDecoder(this.encoding, { ignoreBOM: true }).decode(bytes.subarray(0, i));
    return { ok: false, out, offset: this.base + 2 * this.units + i, exact: true, what };
  }
}

/** Any other encoding TextDecoder knows (streaming, fatal); a failure is located to its chunk. */
class GenericDecoder implements StreamDecoder {
  private readonly decoder: TextDecoder;
  private fed = 0;
  constructor(
    readonly encoding: string,
    private readonly base: number,
  ) {
    // (Never UTF-8 or UTF-16, the only encodings with a BOM to ignore.)
    this.decoder = new TextDecoder(encoding, { fatal: true });
  }
  push(chunk: Uint8Array): DecodeResult {
    try {
      const out = this.decoder.decode(chunk, { stream: true });
      this.fed += chunk.length;
      return { ok: true, out };
    } catch {
      return { ok: false, out: "", offset: this.base + this.fed, exact: false, what: "a byte sequence that is not valid" };
    }
  }
  end(): DecodeResult {
    try {
      return { ok: true, out: this.decoder.decode() };
    } catch {
      return {
        ok: false,
        out: "",
        offset: this.base + this.fed,
        exact: false,
        what: "a character cut off by the end of the file",
      };
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  return Buffer.concat([a, b]);
}
