import { describe, expect, it } from "vitest";
import { maskSecret, Redactor } from "../../src/output/redact.js";

// Secrets never appear on stderr, whatever their length (docs/cli-contract.md "Secrets").

describe("Redactor", () => {
  it("redacts a long key wherever it appears", () => {
    const r = new Redactor();
    r.add("sk_live_0123456789");
    expect(r.apply("Bearer sk_live_0123456789, x=sk_live_0123456789z")).toBe("Bearer [REDACTED], x=[REDACTED]z");
  });

  it.each(["k3y", "abc12", "s3cr3t!"])("redacts a key shorter than 8 characters (%s) where it stands as a word", (key) => {
    const r = new Redactor();
    r.add(key);
    expect(r.apply(`key ${key} refused; Bearer ${key}`)).toBe("key [REDACTED] refused; Bearer [REDACTED]");
  });

  it("does not blank out ordinary words that merely contain a short key", () => {
    const r = new Redactor();
    r.add("port");
    expect(r.apply("report users: port 8080 and passport")).toBe("report users: [REDACTED] 8080 and passport");
  });

  it("redacts the URL-encoded form too", () => {
    const r = new Redactor();
    r.add("a b/c");
    expect(r.apply("token=a%20b%2Fc")).toBe("token=[REDACTED]");
  });
});

describe("maskSecret", () => {
  it.each([
    ["sk_live_0123456789", "****6789"],
    ["abcdefgh", "****efgh"],
    ["abcdefg", "****"],
    ["abc", "****"],
  ])("%s → %s", (secret, masked) => {
    expect(maskSecret(secret)).toBe(masked);
  });
});

// The API key is redacted from data output too (issue 22 item 6); other secrets (a user token
// the command exists to print) only from stderr.
describe("Redactor.redactData", () => {
  const KEY = "sk_live_0123456789";

  it("replaces the key in strings and property names at any depth, keeping everything else", () => {
    const r = new Redactor();
    r.addKey(KEY);
    const value = {
      id: 7,
      note: `echo ${KEY}!`,
      [KEY]: true,
      list: ["plain", `x${KEY}`, null, 3],
      nested: { deep: { text: KEY, n: 1.5 } },
    };
    expect(r.redactData(value)).toEqual({
      id: 7,
      note: "echo [REDACTED]!",
      "[REDACTED]": true,
      list: ["plain", "x[REDACTED]", null, 3],
      nested: { deep: { text: "[REDACTED]", n: 1.5 } },
    });
    // The input is not changed in place.
    expect(value.note).toBe(`echo ${KEY}!`);
  });

  it("returns the very same objects where nothing changed", () => {
    const r = new Redactor();
    r.addKey(KEY);
    const untouched = { a: "b", list: ["c", 1], inner: { d: "e" } };
    expect(r.redactData(untouched)).toBe(untouched);
    const mixed = { keep: { same: "x" }, keepList: ["y"], hit: KEY };
    const out = r.redactData(mixed);
    expect(out).not.toBe(mixed);
    expect(out.keep).toBe(mixed.keep);
    expect(out.keepList).toBe(mixed.keepList);
    expect(out.hit).toBe("[REDACTED]");
  });

  it("a key only in a property name or in one array item still yields a new value", () => {
    const r = new Redactor();
    r.addKey(KEY);
    const named = { [KEY]: 1 };
    expect(r.redactData(named)).toEqual({ "[REDACTED]": 1 });
    expect(named).toEqual({ [KEY]: 1 });
    const list = ["a", KEY];
    expect(r.redactData(list)).toEqual(["a", "[REDACTED]"]);
    expect(list).toEqual(["a", KEY]);
  });

  it("leaves class instances, dates and other non-plain objects as they are", () => {
    const r = new Redactor();
    r.addKey(KEY);
    const date = new Date(0);
    const holder = new (class Holder {
      text = KEY;
    })();
    expect(r.redactData(date)).toBe(date);
    expect(r.redactData(holder)).toBe(holder);
    expect(holder.text).toBe(KEY);
    expect(r.redactData(null)).toBeNull();
    expect(r.redactData(42)).toBe(42);
  });

  it("a short key is redacted in data where it stands as a word", () => {
    const r = new Redactor();
    r.addKey("k3y");
    expect(r.redactData({ a: "the k3y here", b: "monk3ys" })).toEqual({ a: "the [REDACTED] here", b: "monk3ys" });
  });

  it("other secrets (user tokens) stay in data but not on stderr; no key leaves data alone", () => {
    const r = new Redactor();
    r.add("tok_abcdefgh1234");
    const value = { token: "tok_abcdefgh1234" };
    expect(r.redactData(value)).toBe(value);
    expect(r.apply("token tok_abcdefgh1234")).toBe("token [REDACTED]");
    r.addKey(undefined);
    r.addKey("");
    expect(r.redactData(value)).toBe(value);
    r.addKey(KEY);
    expect(r.apply(`${KEY} tok_abcdefgh1234`)).toBe("[REDACTED] [REDACTED]");
    expect(r.redactData({ token: "tok_abcdefgh1234", key: KEY })).toEqual({ token: "tok_abcdefgh1234", key: "[REDACTED]" });
  });

  it("a data redactor has no data redactor of its own", () => {
    const r = new Redactor({ forData: true });
    r.addKey(KEY);
    const value = { key: KEY };
    expect(r.redactData(value)).toBe(value);
    expect(r.apply(KEY)).toBe("[REDACTED]");
  });

  it("escapes regular-expression characters in a short key", () => {
    const r = new Redactor();
    r.add("a.b");
    expect(r.apply("a.b axb")).toBe("[REDACTED] axb");
    const s = new Redactor();
    s.add("(x)");
    expect(s.apply("f (x) y")).toBe("f [REDACTED] y");
  });

  it("a secret of exactly 8 characters is redacted inside words too", () => {
    const r = new Redactor();
    r.add("abcd1234");
    expect(r.apply("xabcd1234y")).toBe("x[REDACTED]y");
  });
});

describe("Redactor with many secrets (links serve's user tokens)", () => {
  it("finds each of 40 tokens anywhere in a line, a short secret too, and stops at a token forgotten", () => {
    const redactor = new Redactor();
    const tokens = Array.from({ length: 40 }, (_, i) => `tok-${String(i).padStart(3, "0")}-Zq9vX2mLp8Rw`);
    for (const token of tokens) redactor.add(token);
    redactor.add("k7x");
    for (const token of tokens) {
      expect(redactor.apply(`POST /l/#ab12 303 → https://app.example/s?token=${token}&x=1`)).toBe(
        "POST /l/#ab12 303 → https://app.example/s?token=[REDACTED]&x=1",
      );
    }
    expect(redactor.apply(`${tokens[7]}`)).toBe("[REDACTED]");
    expect(redactor.apply("key k7x here")).toBe("key [REDACTED] here");
    expect(redactor.apply("GET /l/#ab12 200 0 ms")).toBe("GET /l/#ab12 200 0 ms");
    redactor.forget(tokens[3]!);
    expect(redactor.apply(`token=${tokens[3]}`)).toBe(`token=${tokens[3]}`);
    expect(redactor.apply(`token=${tokens[4]}`)).toBe("token=[REDACTED]");
  });
});

describe("Redactor.mayHoldSecretBytes (reports sync's records as UTF-8 bytes, one per character)", () => {
  const asBytes = (text: string): string => Buffer.from(text, "utf8").toString("latin1");

  it("finds the key and its URL-encoded form as bytes, a backslash anywhere, a key added later; nothing without a key", () => {
    const r = new Redactor();
    expect(r.mayHoldSecretBytes(asBytes('{"k":"clé-0123456789"}'))).toBe(false);
    r.addKey("clé-0123456789");
    expect(r.mayHoldSecretBytes(asBytes('{"k":"x clé-0123456789"}'))).toBe(true);
    // The key's text is not its bytes: "é" is two of them.
    expect(r.mayHoldSecretBytes('{"k":"clé-0123456789"}')).toBe(false);
    expect(r.mayHoldSecretBytes(asBytes(`{"k":"${encodeURIComponent("clé-0123456789")}"}`))).toBe(true);
    expect(r.mayHoldSecretBytes(asBytes('{"k":"cl\\u00e9-0123456789"}'))).toBe(true);
    expect(r.mayHoldSecretBytes(asBytes('{"k":"other"}'))).toBe(false);
    r.addKey("k3y");
    expect(r.mayHoldSecretBytes(asBytes('{"k":"a k3y"}'))).toBe(true);
  });
});
