import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/text/sha256.js";

// The rate ledger's file and Redis key are named by SHA-256 of the service's host, computed
// without node:crypto (start-up): the very digest node:crypto gives, so names stay as they were.
describe("sha256Hex", () => {
  it("gives FIPS 180-4's digests of the empty text and of abc", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it.each([
    ["a host", "api.example.com"],
    ["a host and port", "127.0.0.1:8787"],
    ["55 bytes: one block", "x".repeat(55)],
    ["56 bytes: the length spills into a second block", "x".repeat(56)],
    ["64 bytes", "y".repeat(64)],
    ["several blocks", "z".repeat(1000)],
    ["text beyond ASCII, as UTF-8", "bücher.例え.テスト:443 😀"],
  ])("gives node:crypto's digest of %s", (_name, text) => {
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
  });
});
