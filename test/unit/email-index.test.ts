import { describe, expect, it } from "vitest";
import { EmailIndex } from "../../src/domain/users-csv/email-index.js";

// The index's growth at a size the mutation runs can afford (the 300,000-address test in
// users-csv.test.ts is left to `npm test`): 5000 addresses of 246 bytes fill more than one
// 1 MiB key page (4245 keys each), grow the row arrays from 1024 entries three times and
// rehash the slot table from 2048 to 16384 — and every address is still found exactly.

const LOCAL = "x".repeat(230);
const address = (i: number): string => `${LOCAL}${i}@example.com`;
const N = 5000;

describe("EmailIndex through growth", () => {
  // One test, not a describe-level setup: Stryker counts code run outside a test as static.
  it("every new address is new; again in other case it names its first row; near misses stay new", () => {
    const index = new EmailIndex();
    const firstAdds = Array.from({ length: N }, (_, i) => index.add(address(i), i + 2));
    expect(firstAdds.filter((first) => first !== 0)).toEqual([]);
    expect(index.size).toBe(5000);

    const again = Array.from({ length: N }, (_, i) => index.add(address(i).toUpperCase(), 1));
    expect(again.every((first, i) => first === i + 2)).toBe(true);
    expect([again[0], again[1023], again[1024], again[4244], again[4245], again[4999]]).toEqual([
      2, 1025, 1026, 4246, 4247, 5001,
    ]);

    // Another last letter, one letter less, one more, an address never added.
    const near = [`${LOCAL}7@example.con`, `${LOCAL}7@example.co`, `${LOCAL}7@example.comm`, `${LOCAL}4300@example.cox`];
    expect(near.map((a, k) => index.add(a, 9000 + k))).toEqual([0, 0, 0, 0]);
    expect(index.size).toBe(5004);
  });
});

describe("EmailIndex: which table an address goes to", () => {
  it("255 characters are packed, 256 go to the exact fallback; both compare ignoring case", () => {
    const index = new EmailIndex();
    const packed = `${"p".repeat(243)}@example.com`;
    const long = `${"l".repeat(244)}@example.com`;
    expect([packed.length, long.length]).toEqual([255, 256]);
    expect([
      index.add(packed, 2),
      index.add(long, 3),
      index.add(packed.toUpperCase(), 4),
      index.add(long.toUpperCase(), 5),
    ]).toEqual([0, 0, 2, 3]);
    expect(index.size).toBe(2);
  });

  it("a non-ASCII address that stays non-ASCII when lowercased meets only its own case variants", () => {
    const index = new EmailIndex();
    expect(index.add("Ærø@example.com", 2)).toBe(0);
    expect(index.add("ærø@example.com", 3)).toBe(2);
    expect(index.add("aero@example.com", 4)).toBe(0);
    expect(index.size).toBe(2);
  });

  it("letters only are folded: @, [ and ` are not the same as their neighbours", () => {
    const index = new EmailIndex();
    expect(["a@x.co", "A@X.CO", "a`x.co", "a[x.co", "z@x.co", "Z@x.co"].map((a, k) => index.add(a, k + 2))).toEqual([
      0, 2, 0, 0, 0, 6,
    ]);
  });
});

describe("EmailIndex: exact at the edges", () => {
  it("an address that is the start of another in the same slot is not its duplicate", () => {
    // Both hash to slot 1123 of the first table (FNV-1a, worked out beforehand).
    const index = new EmailIndex();
    expect(index.add("pat@example.com4286", 2)).toBe(0);
    expect(index.add("pat@example.com", 3)).toBe(0);
    expect(index.add("PAT@example.com", 4)).toBe(3);
  });

  it("a key that does not fit the 255 bytes left in a page goes whole to the next page", () => {
    // 4094 keys of 255 characters (256 bytes with the length byte), then 127 and 128:
    // 1,048,321 bytes of the 1,048,576 used; the next 255-character key needs 256.
    const index = new EmailIndex();
    const rows: number[] = [];
    for (let i = 0; i < 4094; i++) rows.push(index.add(`${String(i).padStart(6, "0")}${"b".repeat(237)}@example.com`, i + 2));
    rows.push(index.add(`${"c".repeat(115)}@example.com`, 5000), index.add(`${"d".repeat(116)}@example.com`, 5001));
    const last = `${"x".repeat(243)}@example.com`;
    expect([rows.filter((r) => r !== 0), last.length]).toEqual([[], 255]);
    expect(index.add(last, 5002)).toBe(0);
    expect(index.add(last.toUpperCase(), 5003)).toBe(5002);
  });

  it("an upper-case Z first: stored folded, found by its lower-case twin", () => {
    const index = new EmailIndex();
    expect(index.add("Zed@y.co", 2)).toBe(0);
    expect(index.add("zed@y.co", 3)).toBe(2);
  });

  it("over-long addresses are folded to lower case: ß and ss stay apart", () => {
    const index = new EmailIndex();
    const pad = "x".repeat(250);
    expect(index.add(`${pad}straße@example.com`, 2)).toBe(0);
    expect(index.add(`${pad}STRASSE@example.com`, 3)).toBe(0);
    expect(index.add(`${pad}STRAßE@example.com`, 4)).toBe(2);
  });
});
