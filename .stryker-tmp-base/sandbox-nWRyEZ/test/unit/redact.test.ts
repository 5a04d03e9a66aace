// @ts-nocheck
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
