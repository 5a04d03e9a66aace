import { describe, expect, it } from "vitest";
import { Redactor } from "../../src/output/redact.js";
import { SecretScan } from "../../src/output/secret-scan.js";

// The proof that lets an export skip the redaction walk (secret-scan.ts): it may fail to
// prove (the records are then walked), never claim absence of a secret that is there.

const KEY = "sk_test_Zq9x/7+Lm";
const url = encodeURIComponent(KEY);
const escapeAll = (text: string): string =>
  [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

function scanOf(chunks: string[], secrets = [KEY, url]): boolean {
  const scan = new SecretScan(secrets);
  for (const chunk of chunks) scan.feed(chunk);
  return scan.absent;
}

describe("SecretScan", () => {
  it("proves absence in text without the key, escapes of other characters included", () => {
    expect(scanOf(['{"data":[{"name":"caf\\u00e9\\n","path":"a\\\\b","q":"\\"x\\""}]}'])).toBe(true);
  });

  it.each([
    ["plain", `{"a":"Bearer ${KEY}"}`],
    ["as a property name", `{"${KEY}":1}`],
    ["URL-encoded", `{"a":"https://x/?key=${url}"}`],
    ["JSON-escaped, every character", `{"a":"${escapeAll(KEY)}"}`],
    ["JSON-escaped, one character", `{"a":"sk_test_\\u005aq9x/7+Lm"}`],
    ["with its slash escaped", `{"a":"sk_test_Zq9x\\/7+Lm"}`],
    ["JSON-escaped in upper-case hex", `{"a":"sk_test_\\u005Aq9x/7+Lm"}`],
  ])("does not prove absence of the key %s", (_name, text) => {
    expect(scanOf([text])).toBe(false);
  });

  it("finds the key split across two chunks, at every place it can be cut", () => {
    const text = `{"data":[{"pad":"xxxxxxxx","k":"${KEY}","after":"yyyy"}]}`;
    const start = text.indexOf(KEY);
    for (let cut = start + 1; cut < start + KEY.length; cut++) {
      expect(scanOf([text.slice(0, cut), text.slice(cut)]), `cut at ${cut - start}`).toBe(false);
    }
  });

  it("finds the URL-encoded key split across two chunks, at every place it can be cut", () => {
    const text = `{"data":[{"pad":"xxxxxxxx","u":"https://x/?k=${url}","after":"yyyy"}]}`;
    const start = text.indexOf(url);
    for (let cut = start + 1; cut < start + url.length; cut++) {
      expect(scanOf([text.slice(0, cut), text.slice(cut)]), `cut at ${cut - start}`).toBe(false);
    }
  });

  it("finds the key spread over three chunks, the middle one shorter than the key", () => {
    expect(scanOf(['{"a":"Bearer sk_te', "st_Zq", '9x/7+Lm"}'])).toBe(false);
  });

  it("gives up on an escape cut by a chunk's end (it may stand for a key character)", () => {
    expect(scanOf(['{"a":"sk_test_\\u00', '5aq9x/7+Lm"}'])).toBe(false);
    expect(scanOf(['{"a":"x\\', 'n"}'])).toBe(false);
  });

  it("stays unproven once a key was seen", () => {
    const scan = new SecretScan([KEY]);
    scan.feed(KEY);
    scan.feed("clean text");
    expect(scan.absent).toBe(false);
  });

  it("proves absence of a short key only where the text lacks it altogether", () => {
    expect(scanOf(['{"word":"abcdefg"}'], ["k3y"])).toBe(true);
    expect(scanOf(['{"word":"xk3yx"}'], ["k3y"])).toBe(false);
  });
});

describe("Redactor.dataScan", () => {
  it("scans for the API key and its URL-encoded form, and for nothing without a key", () => {
    const redactor = new Redactor();
    expect(redactor.dataScan()).toBeUndefined();
    redactor.addKey(KEY);
    for (const text of [KEY, url]) {
      const scan = redactor.dataScan()!;
      scan.feed(`{"a":"${text}"}`);
      expect(scan.absent).toBe(false);
    }
    const clean = redactor.dataScan()!;
    clean.feed('{"a":"nothing"}');
    expect(clean.absent).toBe(true);
  });

  it("leaves user tokens, which data may hold, out of the data scan", () => {
    const redactor = new Redactor();
    redactor.addKey(KEY);
    redactor.add("user-token-123456");
    const scan = redactor.dataScan()!;
    scan.feed('{"token":"user-token-123456"}');
    expect(scan.absent).toBe(true);
  });
});
