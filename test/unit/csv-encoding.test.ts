import { describe, expect, it } from "vitest";
import {
  createDecoder,
  type DecodeResult,
  encodingOption,
  resolveEncoding,
  sniffEncoding,
} from "../../src/domain/csv-input/encoding.js";

// Bytes → text for CSV input (docs/cli-contract.md "Users CSV"): which encoding the first bytes
// decide, and where each decoder says the first bad byte is (file offsets, BOM included).

describe("sniffEncoding: the first bytes", () => {
  it.each([
    ["a UTF-16LE BOM alone, at the end", [0xff, 0xfe], { kind: "encoding", encoding: "utf-16le", bomBytes: 2, how: "bom" }],
    ["a UTF-8 BOM alone, at the end", [0xef, 0xbb, 0xbf], { kind: "encoding", encoding: "utf-8", bomBytes: 3, how: "bom" }],
    ["two ASCII bytes, at the end", [0x61, 0x62], { kind: "encoding", encoding: "utf-8", bomBytes: 0, how: "default" }],
    ["three bytes of UTF-16LE text, at the end", [0x61, 0x00, 0x62], { kind: "encoding", encoding: "utf-8", how: "default" }],
    ["three bytes of UTF-16BE text, at the end", [0x00, 0x61, 0x00], { kind: "encoding", encoding: "utf-8", how: "default" }],
  ])("%s", (_, head, want) => {
    expect(sniffEncoding(Uint8Array.from(head), undefined, true)).toEqual({ bomBytes: 0, ...want });
  });

  it.each([
    ["FF FE 00 61: UTF-16LE, not UTF-32", [0xff, 0xfe, 0x00, 0x61], "utf-16le", "bom"],
    ["FF FE 61 00: UTF-16LE", [0xff, 0xfe, 0x61, 0x00], "utf-16le", "bom"],
    ["00 00 FE 00: no BOM", [0x00, 0x00, 0xfe, 0x00], "utf-8", "default"],
    ["EF BB 61: no BOM", [0xef, 0xbb, 0x61, 0x62], "utf-8", "default"],
    ["EF 61 BF: no BOM", [0xef, 0x61, 0xbf, 0x62], "utf-8", "default"],
    ["FF 61: no BOM", [0xff, 0x61, 0x62, 0x63], "utf-8", "default"],
    ["FE 61: no BOM", [0xfe, 0x61, 0x62, 0x63], "utf-8", "default"],
    ["00 00 61 00: not the UTF-16LE pattern", [0x00, 0x00, 0x61, 0x00], "utf-8", "default"],
    ["61 00 00 00: not the UTF-16LE pattern", [0x61, 0x00, 0x00, 0x00], "utf-8", "default"],
    ["61 00 62 63: not the UTF-16LE pattern", [0x61, 0x00, 0x62, 0x63], "utf-8", "default"],
    ["61 62 63 00: not the UTF-16LE pattern", [0x61, 0x62, 0x63, 0x00], "utf-8", "default"],
    ["00 61 62 63: not the UTF-16BE pattern", [0x00, 0x61, 0x62, 0x63], "utf-8", "default"],
    ["00 61 00 00: not the UTF-16BE pattern", [0x00, 0x61, 0x00, 0x00], "utf-8", "default"],
    ["00 00 00 61: not the UTF-16BE pattern", [0x00, 0x00, 0x00, 0x61], "utf-8", "default"],
    ["FF 61 00 00: no BOM", [0xff, 0x61, 0x00, 0x00], "utf-8", "default"],
    ["61 FE 00 00: no BOM", [0x61, 0xfe, 0x00, 0x00], "utf-8", "default"],
    ["61 00 FE FF: no BOM", [0x61, 0x00, 0xfe, 0xff], "utf-8", "default"],
    ["00 61 FE FF: no BOM", [0x00, 0x61, 0xfe, 0xff], "utf-8", "default"],
    ["00 00 61 FF: no BOM", [0x00, 0x00, 0x61, 0xff], "utf-8", "default"],
    ["61 62 FE FF: no BOM", [0x61, 0x62, 0xfe, 0xff], "utf-8", "default"],
    ["61 BB BF: no BOM", [0x61, 0xbb, 0xbf, 0x62], "utf-8", "default"],
    ["61 FE: no BOM", [0x61, 0xfe, 0x62, 0x63], "utf-8", "default"],
    ["61 FF: no BOM", [0x61, 0xff, 0x62, 0x63], "utf-8", "default"],
    ["61 62 00 63: not the UTF-16BE pattern", [0x61, 0x62, 0x00, 0x63], "utf-8", "default"],
  ])("%s", (_, head, encoding, how) => {
    expect(sniffEncoding(Uint8Array.from(head), undefined, false)).toMatchObject({ kind: "encoding", encoding, how });
  });

  it("refuses UTF-32BE by its BOM, even with --encoding", () => {
    expect(sniffEncoding(Uint8Array.of(0, 0, 0xfe, 0xff), "windows-1252", false)).toEqual({
      kind: "unsupported",
      name: "UTF-32BE",
    });
  });
});

describe("--encoding", () => {
  it("an unknown name is a usage error naming it, with examples", () => {
    expect(() => encodingOption("klingon")).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: '--encoding: unknown encoding "klingon"',
        hint: "use a WHATWG encoding name such as utf-8, windows-1252, latin1, iso-8859-15, utf-16le, utf-16be, macintosh",
      }),
    );
    expect(() => encodingOption("  ")).toThrow(
      expect.objectContaining({ exitCode: 2, message: '--encoding: unknown encoding "  "' }),
    );
    expect(resolveEncoding("\tutf8 ")).toBe("utf-8");
  });
});

/** Pushes every chunk; the text decoded and the first failure. */
function decode(encoding: string, bomBytes: number, chunks: number[][], end = true): { text: string; failure?: DecodeResult } {
  const decoder = createDecoder(encoding, bomBytes);
  expect(decoder.encoding).toBe(encoding);
  let text = "";
  const out = (r: DecodeResult): string => (typeof r.out === "string" ? r.out : r.out.toString("utf8"));
  for (const chunk of chunks) {
    const r = decoder.push(Uint8Array.from(chunk));
    text += out(r);
    if (!r.ok) return { text, failure: { ...r, out: out(r) } };
  }
  if (!end) return { text };
  const r = decoder.end();
  text += out(r);
  return r.ok ? { text } : { text, failure: { ...r, out: out(r) } };
}

const le = (...units: number[]): number[] => units.flatMap((u) => [u & 0xff, u >> 8]);
const be = (...units: number[]): number[] => units.flatMap((u) => [u >> 8, u & 0xff]);

describe("UTF-16: the exact offset of the first bad code unit", () => {
  it.each([
    ["a lone high surrogate before a letter", le(0x61, 0xd800, 0x62), "a", 4, "a lone high surrogate 0xD800"],
    ["the last high surrogate before a letter", le(0xdbff, 0x62), "", 2, "a lone high surrogate 0xDBFF"],
    ["the last low surrogate alone", le(0x61, 0x62, 0xdfff), "ab", 6, "a lone low surrogate 0xDFFF"],
    ["a lone low surrogate after a pair", le(0xd83d, 0xde00, 0xdc00), "😀", 6, "a lone low surrogate 0xDC00"],
    ["a lone low surrogate after the last pair", le(0xdbff, 0xdfff, 0xdc00), "\u{10ffff}", 6, "a lone low surrogate 0xDC00"],
    [
      "a lone low surrogate after the first pair",
      le(0xd800, 0xdc00, 0x61, 0xdc00),
      "\u{10000}a",
      8,
      "a lone low surrogate 0xDC00",
    ],
    [
      "a lone low surrogate after characters above the surrogates",
      le(0xe000, 0xfffd, 0xdc00),
      "\ue000\ufffd",
      6,
      "a lone low surrogate 0xDC00",
    ],
    ["a high surrogate before a character above the surrogates", le(0xd800, 0xe000), "", 2, "a lone high surrogate 0xD800"],
    ["a U+FEFF after the BOM is content", le(0xfeff, 0x61, 0xdc00), "\ufeffa", 6, "a lone low surrogate 0xDC00"],
  ])("%s", (_, bytes, text, offset, what) => {
    expect(decode("utf-16le", 2, [bytes])).toEqual({ text, failure: { ok: false, out: text, offset, exact: true, what } });
  });

  it("big-endian alike", () => {
    expect(decode("utf-16be", 2, [be(0x61, 0xdc00)])).toEqual({
      text: "a",
      failure: { ok: false, out: "a", offset: 4, exact: true, what: "a lone low surrogate 0xDC00" },
    });
  });

  it("a high surrogate at the end of one chunk, not followed by a low one in the next", () => {
    expect(decode("utf-16le", 2, [le(0x61, 0xd83d), le(0x41)])).toEqual({
      text: "a",
      failure: { ok: false, out: "", offset: 4, exact: true, what: "a lone high surrogate 0xD83D" },
    });
    expect(
      decode("utf-16le", 0, [
        [0x61, 0x00, 0x3d],
        [0xd8, 0x41, 0x00],
      ]),
    ).toEqual({
      text: "a",
      failure: { ok: false, out: "", offset: 2, exact: true, what: "a lone high surrogate 0xD83D" },
    });
  });

  it("keeps a U+FEFF after the BOM as content", () => {
    expect(decode("utf-16le", 2, [le(0xfeff, 0x61)])).toEqual({ text: "\ufeffa" });
  });

  it("a pair split between chunks is one character", () => {
    expect(
      decode("utf-16le", 2, [
        [0x61, 0x00, 0x3d],
        [0xd8, 0x00],
        [0xde, 0x62, 0x00],
      ]),
    ).toEqual({ text: "a😀b" });
  });

  it("at the end: a high surrogate or an odd byte cut off by the end of the file", () => {
    expect(decode("utf-16le", 2, [le(0x61, 0xd83d)])).toEqual({
      text: "a",
      failure: { ok: false, out: "", offset: 4, exact: true, what: "a lone high surrogate 0xD83D" },
    });
    expect(decode("utf-16le", 2, [[0x61, 0x00, 0x62]])).toEqual({
      text: "a",
      failure: {
        ok: false,
        out: "",
        offset: 4,
        exact: true,
        what: "an odd number of bytes (a character cut off by the end of the file)",
      },
    });
  });
});

describe("the other decoders", () => {
  it("UTF-8: the bad byte's file offset after the BOM, in hex", () => {
    expect(decode("utf-8", 3, [[0x61], [0x62, 0xe9, 0x63]])).toEqual({
      text: "ab",
      failure: { ok: false, out: "b", offset: 5, exact: true, what: "byte 0xE9" },
    });
    expect(decode("utf-8", 0, [[0xe2, 0x82]])).toEqual({
      text: "",
      failure: { ok: false, out: "", offset: 0, exact: true, what: "a character cut off by the end of the file" },
    });
    expect(decode("utf-8", 3, [[0x61, 0xe2, 0x82]])).toEqual({
      text: "a",
      failure: { ok: false, out: "", offset: 4, exact: true, what: "a character cut off by the end of the file" },
    });
  });

  it("windows-1252: every byte is a character", () => {
    expect(
      decode("windows-1252", 0, [
        [0x4f, 0x92],
        [0x80, 0x81],
      ]),
    ).toEqual({ text: "O’€\u0081" });
  });

  it("another encoding: the failure is placed at the start of its chunk, not exactly", () => {
    expect(
      decode("windows-1253", 0, [
        [0x61, 0x62],
        [0x63, 0xd2],
      ]),
    ).toEqual({
      text: "ab",
      failure: { ok: false, out: "", offset: 2, exact: false, what: "a byte sequence that is not valid" },
    });
    expect(decode("shift_jis", 3, [[0x61], [0x82]])).toEqual({
      text: "a",
      failure: { ok: false, out: "", offset: 5, exact: false, what: "a character cut off by the end of the file" },
    });
    expect(decode("shift_jis", 0, [[0x61, 0x82], [0xa0]])).toEqual({ text: "aあ" });
  });
});
