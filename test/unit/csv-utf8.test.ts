import { isUtf8 } from "node:buffer";
import { describe, expect, it } from "vitest";
import { findInvalidUtf8, Utf8StreamChecker } from "../../src/domain/csv-input/utf8.js";

// The UTF-8 check in front of the CSV parser: where the first bad byte is (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), and the streaming checker that holds
// back a character split between chunks.

describe("findInvalidUtf8 at the edges of each lead byte's range", () => {
  it.each([
    ["U+0080, the first 2-byte character", [0xc2, 0x80], -1],
    ["U+07FF, the last 2-byte character", [0xdf, 0xbf], -1],
    ["C1, an overlong 2-byte lead", [0xc1, 0xbf], 0],
    ["U+0800, the first 3-byte character (E0 needs A0..BF)", [0xe0, 0xa0, 0x80], -1],
    ["E0 9F, an overlong 3-byte form", [0xe0, 0x9f, 0xbf], 0],
    ["U+1000 (E1)", [0xe1, 0x80, 0x80], -1],
    ["U+D7FF, the last before the surrogates (ED needs 80..9F)", [0xed, 0x9f, 0xbf], -1],
    ["U+E000 (EE)", [0xee, 0x80, 0x80], -1],
    ["U+FFFF (EF)", [0xef, 0xbf, 0xbf], -1],
    ["U+10000, the first 4-byte character (F0 needs 90..BF)", [0xf0, 0x90, 0x80, 0x80], -1],
    ["F0 8F, an overlong 4-byte form", [0xf0, 0x8f, 0xbf, 0xbf], 0],
    ["U+40000 (F1)", [0xf1, 0x80, 0x80, 0x80], -1],
    ["U+FFFFF (F3)", [0xf3, 0xbf, 0xbf, 0xbf], -1],
    ["U+10FFFF, the last code point (F4 needs 80..8F)", [0xf4, 0x8f, 0xbf, 0xbf], -1],
    ["F5, a lead byte past U+10FFFF", [0xf5, 0x80, 0x80, 0x80], 0],
    ["a 3-byte character whose third byte is ASCII", [0x61, 0xe2, 0x82, 0x41], 1],
    ["a 3-byte character whose third byte is a lead byte", [0xe2, 0x82, 0xc0], 0],
    ["a 4-byte character whose last byte is ASCII", [0xf0, 0x9f, 0x98, 0x41], 0],
    ["a 4-byte character whose last byte is a lead byte", [0xf0, 0x9f, 0x98, 0xc0], 0],
    ["continuation bytes without a lead byte", [0x80, 0x80, 0x80, 0x80], 0],
    ["C0 followed by continuation bytes", [0xc0, 0x80, 0x80, 0x80], 0],
    ["a 2-byte character cut by the end", [0x61, 0x62, 0xc3], 2],
    ["a 4-byte character cut after 3 bytes", [0xf0, 0x9f, 0x98], 0],
    ["a bad byte after a good 2-byte character", [0xc3, 0xa9, 0xff], 2],
    ["a bad byte after a good 4-byte character", [0xf0, 0x9f, 0x98, 0x80, 0x61, 0xff], 5],
  ])("%s", (_, bytes, at) => {
    const buf = Uint8Array.from(bytes);
    expect(findInvalidUtf8(buf)).toBe(at);
    expect(isUtf8(buf)).toBe(at === -1);
  });
});

interface Run {
  text: string;
  failure?: { ok: false; offset: number; byte: number; prefix: string };
  end?: number;
}

/** Pushes each chunk: the text of the valid parts, then the first failure or what end() says. */
function run(chunks: number[][]): Run {
  const checker = new Utf8StreamChecker();
  const passed: Uint8Array[] = [];
  const text = (): string => Buffer.concat(passed).toString("utf8");
  for (const chunk of chunks) {
    const r = checker.push(Uint8Array.from(chunk));
    if (!r.ok) {
      const prefix = Buffer.from(r.validPrefix).toString("utf8");
      return { text: text(), failure: { ok: false, offset: r.offset, byte: r.byte, prefix } };
    }
    passed.push(r.bytes);
  }
  return { text: text(), end: checker.end() };
}

describe("Utf8StreamChecker", () => {
  it("passes a chunk that ends on a whole character through as it is", () => {
    const checker = new Utf8StreamChecker();
    const r = checker.push(Uint8Array.of(0x61, 0xc3, 0xa9));
    expect(r).toEqual({ ok: true, bytes: Uint8Array.of(0x61, 0xc3, 0xa9) });
    expect(checker.end()).toBe(-1);
  });

  it("holds back a character split between chunks until the next chunk completes it", () => {
    const checker = new Utf8StreamChecker();
    expect(checker.push(Uint8Array.of(0x61, 0xf0, 0x9f, 0x98))).toEqual({ ok: true, bytes: Uint8Array.of(0x61) });
    expect(checker.push(Uint8Array.of(0x80, 0x62))).toEqual({ ok: true, bytes: Uint8Array.of(0xf0, 0x9f, 0x98, 0x80, 0x62) });
    expect(checker.end()).toBe(-1);
  });

  // Every split of every character length, at the edges of the lead bytes' ranges.
  it.each([
    ["© (C2 A9)", "a©b"],
    ["߿ (DF BF)", "a\u07ffb"],
    ["ࠀ (E0 A0 80)", "a\u0800b"],
    ["\uFFFF (EF BF BF)", "a\uffffb"],
    ["😀 (F0 9F 98 80)", "a😀b"],
    ["U+10FFFF (F4 8F BF BF)", "a\u{10ffff}b"],
  ])("reads %s split at every byte, and byte by byte", (_, text) => {
    const bytes = [...Buffer.from(text)];
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(run([bytes.slice(0, cut), bytes.slice(cut)])).toEqual({ text, end: -1 });
    }
    expect(run(bytes.map((b) => [b]))).toEqual({ text, end: -1 });
  });

  it("gives the file offset of the first bad byte, counting the chunks before it", () => {
    expect(
      run([
        [0x61, 0x62],
        [0x63, 0xc3],
        [0xa9, 0x64, 0xff, 0x65],
      ]),
    ).toEqual({
      text: "abc",
      failure: { ok: false, offset: 6, byte: 0xff, prefix: "éd" },
    });
    expect(run([[0x61], [0x80]])).toEqual({ text: "a", failure: { ok: false, offset: 1, byte: 0x80, prefix: "" } });
  });

  it("does not wait for more after a byte that can start no character", () => {
    for (const bad of [0xc0, 0xc1, 0xf5, 0xff]) {
      expect(run([[0x61, bad]])).toEqual({ text: "", failure: { ok: false, offset: 1, byte: bad, prefix: "a" } });
    }
  });

  it("at the end, gives the offset of a character the end cut off", () => {
    expect(
      run([
        [0x61, 0x62],
        [0x63, 0xe2, 0x82],
      ]),
    ).toEqual({ text: "abc", end: 3 });
    expect(run([[0x61, 0xf0]])).toEqual({ text: "a", end: 1 });
  });
});
