import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import {
  durableLinkUrl,
  linkExpiry,
  linkIdOf,
  linkRef,
  linkStanding,
  parseValidFor,
  signLinkId,
  verifyLinkId,
  type LinkClaims,
} from "../../src/domain/durable-links.js";

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const SCOPE = { service: "https://api.example.com", organizationId: "org-1" };
const CLAIMS: LinkClaims = {
  userId: "user-ä1",
  simulationId: "sim-001",
  issuedAt: Date.UTC(2026, 10, 27, 20, 0, 0),
  expiresAt: Date.UTC(2026, 11, 27, 20, 0, 0),
};
const DAY = 86_400_000;

describe("signLinkId / verifyLinkId", () => {
  const id = signLinkId(KEY, SCOPE, CLAIMS);

  it("reads back the claims of a link it signed, in a URL-safe id without padding", () => {
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    const check = verifyLinkId(KEY, SCOPE, id);
    expect(check).toEqual({ ok: true, claims: CLAIMS, ref: linkRef(id) });
  });

  it("is HMAC-SHA-256 over label, service, organization and the body, its first 16 bytes", () => {
    const bytes = Buffer.from(id, "base64url");
    const body = bytes.subarray(0, bytes.length - 16);
    const expected = createHmac("sha256", KEY)
      .update(`simadmin durable link\0${SCOPE.service}\0${SCOPE.organizationId}\0`)
      .update(body)
      .digest()
      .subarray(0, 16);
    expect(bytes.subarray(bytes.length - 16).equals(expected)).toBe(true);
    expect(body[0]).toBe(1); // version
  });

  it.each([
    ["another key", OTHER_KEY, SCOPE],
    ["another service", KEY, { ...SCOPE, service: "https://api.example.org" }],
    ["another organization", KEY, { ...SCOPE, organizationId: "org-2" }],
  ])("refuses a link checked with %s", (_what, key, scope) => {
    expect(verifyLinkId(key, scope, id)).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses any single flipped byte", () => {
    const bytes = Buffer.from(id, "base64url");
    for (let i = 1; i < bytes.length; i++) {
      const tampered = Buffer.from(bytes);
      tampered[i]! ^= 0x01;
      expect(verifyLinkId(KEY, SCOPE, tampered.toString("base64url")).ok, `byte ${i}`).toBe(false);
    }
  });

  it("refuses a later expiry written into a genuine link", () => {
    const bytes = Buffer.from(id, "base64url");
    bytes.writeUInt32BE(bytes.readUInt32BE(5) + 365 * 86_400, 5);
    expect(verifyLinkId(KEY, SCOPE, bytes.toString("base64url"))).toEqual({ ok: false, reason: "signature" });
  });

  it.each([
    ["empty", ""],
    ["padding", `${id}=`],
    ["a character outside base64url", `${id.slice(0, 10)}+${id.slice(11)}`],
    ["a second spelling (non-canonical last character)", id.slice(0, -1) + (id.endsWith("A") ? "B" : "A")],
    ["too short", id.slice(0, 20)],
    ["too long", "A".repeat(2000)],
  ])("refuses %s", (_what, text) => {
    expect(verifyLinkId(KEY, SCOPE, text).ok).toBe(false);
  });

  it("refuses a version it does not know", () => {
    const bytes = Buffer.from(id, "base64url");
    bytes[0] = 2;
    expect(verifyLinkId(KEY, SCOPE, bytes.toString("base64url"))).toEqual({ ok: false, reason: "version" });
  });

  it("refuses ids of more than 255 bytes and times before 1970", () => {
    expect(() => signLinkId(KEY, SCOPE, { ...CLAIMS, userId: "u".repeat(256) })).toThrow(RangeError);
    expect(() => signLinkId(KEY, SCOPE, { ...CLAIMS, simulationId: "" })).toThrow(RangeError);
    expect(() => signLinkId(KEY, SCOPE, { ...CLAIMS, issuedAt: -5000 })).toThrow(RangeError);
  });
});

describe("durableLinkUrl and linkIdOf", () => {
  it.each([
    ["https://links.example.com", "https://links.example.com/l/abc_-9"],
    ["https://links.example.com/", "https://links.example.com/l/abc_-9"],
    ["https://example.com/training/", "https://example.com/training/l/abc_-9"],
  ])("puts the id under /l/ of %s", (base, url) => {
    expect(durableLinkUrl(base, "abc_-9")).toBe(url);
    expect(linkIdOf(url)).toBe("abc_-9");
  });

  it("takes a bare id as it is and refuses what is neither", () => {
    expect(linkIdOf(" abc_-9 ")).toBe("abc_-9");
    expect(linkIdOf("https://links.example.com/x/abc")).toBeUndefined();
    expect(linkIdOf("not an id!")).toBeUndefined();
  });

  it("gives every link a 16-hex ref that differs between links", () => {
    const a = signLinkId(KEY, SCOPE, CLAIMS);
    const b = signLinkId(KEY, SCOPE, { ...CLAIMS, simulationId: "sim-002" });
    expect(linkRef(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(linkRef(a)).not.toBe(linkRef(b));
  });
});

describe("linkStanding", () => {
  const none = { linkRevoked: false, userRevokedBefore: undefined };
  it.each([
    ["valid before expiry", CLAIMS.expiresAt - 1, none, "valid"],
    ["expired at its expiry", CLAIMS.expiresAt, none, "expired"],
    ["revoked by id", CLAIMS.issuedAt, { ...none, linkRevoked: true }, "revoked"],
    ["revoked: user revoked after issue", CLAIMS.issuedAt, { ...none, userRevokedBefore: CLAIMS.issuedAt + 1 }, "revoked"],
    ["valid: user revoked before issue", CLAIMS.issuedAt, { ...none, userRevokedBefore: CLAIMS.issuedAt - 1000 }, "valid"],
    ["revoked wins over expired", CLAIMS.expiresAt + 1, { ...none, linkRevoked: true }, "revoked"],
  ] as const)("%s", (_what, now, revoked, standing) => {
    expect(linkStanding(CLAIMS, now, revoked)).toBe(standing);
  });
});

describe("parseValidFor", () => {
  it.each([
    ["30d", 30 * DAY],
    ["2w", 14 * DAY],
    ["365d", 365 * DAY],
    ["12h", 12 * 3_600_000],
    ["90m", 90 * 60_000],
  ])("reads %j", (text, ms) => {
    expect(parseValidFor(text)).toBe(ms);
  });

  it.each([["366d"], ["53w"], ["0d"], ["30"], ["soon"]])("refuses %j with a usage error", (text) => {
    expect(() => parseValidFor(text)).toThrow(UsageError);
  });
});

describe("linkExpiry", () => {
  const now = Date.UTC(2026, 10, 27, 20, 0, 0);
  // A fixed zone of UTC+2 stands for "the machine's local time".
  const plusTwo = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d + 1) - 2 * 3_600_000;

  it("adds --valid-for to now", () => {
    expect(linkExpiry({ validFor: DAY }, now, plusTwo)).toBe(now + DAY);
  });

  it("keeps a --valid-until link working through that whole local day", () => {
    expect(linkExpiry({ validUntil: "2026-12-04" }, now, plusTwo)).toBe(Date.UTC(2026, 11, 4, 22, 0, 0));
  });

  it.each([
    ["2026-02-30", "not a date"],
    ["2026-1-5", "not a date"],
    ["2026-11-26", "has passed"],
    ["2027-12-31", "more than 365 days"],
  ])("refuses --valid-until %s (%s)", (date, why) => {
    expect(() => linkExpiry({ validUntil: date }, now, plusTwo)).toThrow(why);
  });
});
