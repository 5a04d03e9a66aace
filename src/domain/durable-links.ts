import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { UsageError } from "../errors.js";
import { parseDuration } from "./durations.js";

// Durable links (docs/cli-contract.md "Durable links", docs/links.md): the id in
// `<links-url>/l/<id>` is a signed, self-contained claim "this user may start this
// simulation of this organization on this service until then". The link service checks it
// without asking anything, so a mail scanner opening it costs nothing.
//
// Format, version 1 — bytes, then base64url without padding:
//   [0]      version (1)
//   [1..4]   issued-at, seconds since the epoch (uint32 big-endian; good until 2106)
//   [5..8]   expiry, seconds since the epoch (uint32)
//   [9]      length of the user id in bytes (1..255), then the id, UTF-8
//   [..]     length of the simulation id, then the id
//   [-16..]  HMAC-SHA-256, first 16 bytes
// The MAC covers a domain label, the service (normalized base URL) and organization — bound
// but not carried, so a link never shows them and a link made for another service or
// organization simply fails to verify (404) — and every byte before the MAC. 128 bits of
// MAC leave forgery at 2^-128 per try; a short link matters in mails. The version byte lets
// the format change: a verifier refuses versions it does not know.
//
// Pure: no clock (times are passed in), no file, no network.

const VERSION = 1;
const MAC_BYTES = 16;
const HEADER_BYTES = 9;
const MAX_ID_BYTES = 255;
/** The link key is at least this long (bytes); a generated one is 32 random bytes. */
export const MIN_LINK_KEY_BYTES = 32;
const DOMAIN_LABEL = "simadmin durable link";

/** 365 days: the longest a durable link may live (docs/cli-contract.md). */
export const MAX_LINK_VALIDITY_MS = 365 * 86_400_000;
/** 30 days: the default of --valid-for. */
export const DEFAULT_LINK_VALIDITY_MS = 30 * 86_400_000;

/** What a link is bound to: the tenant of the state store (service and organization). */
export interface LinkScope {
  /** The normalized base URL (or "sandbox"). */
  service: string;
  organizationId: string;
}

export interface LinkClaims {
  userId: string;
  simulationId: string;
  /** Milliseconds since the epoch, whole seconds. */
  issuedAt: number;
  expiresAt: number;
}

export type LinkCheck =
  { ok: true; claims: LinkClaims; ref: string } | { ok: false; reason: "malformed" | "signature" | "version" };

function mac(key: Uint8Array, scope: LinkScope, body: Uint8Array): Buffer {
  const hmac = createHmac("sha256", key);
  // NUL separates the parts: none of them can hold a NUL that would shift the boundary
  // (a URL cannot; an organization id with one would only ever fail to verify).
  hmac.update(`${DOMAIN_LABEL}\0${scope.service}\0${scope.organizationId}\0`);
  hmac.update(body);
  return hmac.digest().subarray(0, MAC_BYTES);
}

function idBytes(value: string, what: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length === 0 || bytes.length > MAX_ID_BYTES) {
    throw new RangeError(`${what} must be 1 to ${MAX_ID_BYTES} bytes of UTF-8`);
  }
  return bytes;
}

function seconds(ms: number, what: string): number {
  const value = Math.floor(ms / 1000);
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) throw new RangeError(`${what} is out of range`);
  return value;
}

/** The signed id of a durable link. Throws RangeError on ids too long or times out of range. */
export function signLinkId(key: Uint8Array, scope: LinkScope, claims: LinkClaims): string {
  const user = idBytes(claims.userId, "the user id");
  const sim = idBytes(claims.simulationId, "the simulation id");
  const body = Buffer.alloc(HEADER_BYTES + 1 + user.length + 1 + sim.length);
  body.writeUInt8(VERSION, 0);
  body.writeUInt32BE(seconds(claims.issuedAt, "the issue time"), 1);
  body.writeUInt32BE(seconds(claims.expiresAt, "the expiry"), 5);
  let at = HEADER_BYTES;
  body.writeUInt8(user.length, at++);
  at += user.copy(body, at);
  body.writeUInt8(sim.length, at++);
  sim.copy(body, at);
  return Buffer.concat([body, mac(key, scope, body)]).toString("base64url");
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Checks a link id's signature for this scope and reads its claims. Expiry and revocation
 * are the caller's (they need the clock and the store). `ref` is a short, stable handle of
 * the link (linkRef) for revocations and logs.
 */
export function verifyLinkId(key: Uint8Array, scope: LinkScope, id: string): LinkCheck {
  // Buffer.from(…, "base64url") skips characters it does not know: a strict alphabet and a
  // round trip make sure one link has exactly one spelling.
  if (id.length > 1024 || !BASE64URL.test(id)) return { ok: false, reason: "malformed" };
  const bytes = Buffer.from(id, "base64url");
  if (bytes.toString("base64url") !== id) return { ok: false, reason: "malformed" };
  if (bytes.length < HEADER_BYTES + 2 + MAC_BYTES) return { ok: false, reason: "malformed" };
  if (bytes[0] !== VERSION) return { ok: false, reason: "version" };
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  const given = bytes.subarray(bytes.length - MAC_BYTES);
  if (!timingSafeEqual(given, mac(key, scope, body))) return { ok: false, reason: "signature" };
  // The MAC holds: the layout is ours, but read it defensively all the same.
  let at = HEADER_BYTES;
  const userLength = body[at++] ?? 0;
  const userId = body.subarray(at, at + userLength).toString("utf8");
  at += userLength;
  const simLength = body[at++] ?? 0;
  const simulationId = body.subarray(at, at + simLength).toString("utf8");
  if (userLength === 0 || simLength === 0 || at + simLength !== body.length) return { ok: false, reason: "malformed" };
  return {
    ok: true,
    ref: linkRef(id),
    claims: {
      userId,
      simulationId,
      issuedAt: body.readUInt32BE(1) * 1000,
      expiresAt: body.readUInt32BE(5) * 1000,
    },
  };
}

/**
 * A short, stable, non-reversible handle of a link id (16 hex digits of SHA-256): what logs
 * show instead of the id and what a per-link revocation is kept under. Whoever holds a
 * revocation list learns no working link from it.
 */
export function linkRef(id: string): string {
  return createHash("sha256").update(id).digest("hex").slice(0, 16);
}

/** `<links-url>/l/<id>`: the links URL may carry a path (a reverse proxy's prefix). */
export function durableLinkUrl(linksUrl: string, id: string): string {
  return `${linksUrl.replace(/\/+$/, "")}/l/${id}`;
}

/**
 * The id in a durable link or a bare id, for `links revoke`: the last path segment after
 * `/l/`. Returns undefined when the text is neither.
 */
export function linkIdOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (BASE64URL.test(trimmed)) return trimmed;
  const match = /\/l\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(trimmed);
  return match?.[1];
}

/** Whether a verified link may still be used at `now`: its expiry, and the revocations kept. */
export function linkStanding(
  claims: LinkClaims,
  now: number,
  revoked: { linkRevoked: boolean; userRevokedBefore: number | undefined },
): "valid" | "expired" | "revoked" {
  if (revoked.linkRevoked) return "revoked";
  // "every link of that user made before now": issued at or before the revocation's time.
  if (revoked.userRevokedBefore !== undefined && claims.issuedAt <= revoked.userRevokedBefore) return "revoked";
  if (now >= claims.expiresAt) return "expired";
  return "valid";
}

/** How long a new durable link lives: --valid-for, or --valid-until (a date). */
export type LinkValidity = { validFor: number } | { validUntil: string };

/**
 * --valid-for: days or weeks (`30d`, `2w`) or a shorter duration (`12h`, `90m`), more than
 * zero and at most 365 days.
 */
export function parseValidFor(text: string): number {
  const flag = "--valid-for";
  const match = /^\s*(\d+)\s*(d|w)\s*$/i.exec(text);
  const ms = match ? Number(match[1]) * (match[2]!.toLowerCase() === "w" ? 7 : 1) * 86_400_000 : parseDuration(text, flag);
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new UsageError(`${flag}: must be longer than zero, e.g. 30d, 2w or 12h`);
  if (ms > MAX_LINK_VALIDITY_MS)
    throw new UsageError(`${flag}: ${text.trim()} is longer than 365 days, the most a durable link may live`);
  return ms;
}

/**
 * When a link made at `now` expires. `--valid-until <YYYY-MM-DD>` is valid through that whole
 * day in `localMidnightAfter`'s time zone (the caller's: the machine's local time), so a link
 * "valid until Friday" still works on Friday evening.
 */
export function linkExpiry(
  validity: LinkValidity,
  now: number,
  localMidnightAfter: (year: number, month: number, day: number) => number,
): number {
  if ("validFor" in validity) return now + validity.validFor;
  const date = validity.validUntil.trim();
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const [year, month, day] = parts ? [Number(parts[1]), Number(parts[2]), Number(parts[3])] : [0, 0, 0];
  // A real calendar date: 2026-02-30 is refused, not read as March 2nd.
  if (!parts || new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10) !== date) {
    throw new UsageError(`--valid-until: ${JSON.stringify(validity.validUntil)} is not a date; use YYYY-MM-DD`);
  }
  const expiresAt = localMidnightAfter(year, month, day);
  if (expiresAt <= now) throw new UsageError(`--valid-until: ${date} has passed; give a later date`);
  if (expiresAt - now > MAX_LINK_VALIDITY_MS) {
    throw new UsageError(`--valid-until: ${date} is more than 365 days away, the most a durable link may live`);
  }
  return expiresAt;
}

/**
 * A resume ticket: handed out with a 503 ("the budget is full, this page continues by
 * itself") so that the page's automatic reload — a GET, the only thing a meta refresh can do —
 * may finish the click the trainee already made. Only a POST gets one, so a scanner that
 * fetches links never holds one. It names the link (its ref) and an expiry, signed with the
 * link key under another label than link ids.
 */
export function signResumeTicket(key: Uint8Array, ref: string, expiresAt: number): string {
  const expiry = seconds(expiresAt, "the ticket's expiry").toString(36);
  const tag = createHmac("sha256", key).update(`simadmin resume\0${ref}\0${expiry}`).digest().subarray(0, 12);
  return `${expiry}.${tag.toString("base64url")}`;
}

export function verifyResumeTicket(key: Uint8Array, ref: string, ticket: string, now: number): boolean {
  const match = /^([0-9a-z]{1,8})\.([A-Za-z0-9_-]{16})$/.exec(ticket);
  if (!match) return false;
  const expiresAt = parseInt(match[1]!, 36) * 1000;
  if (!(now < expiresAt)) return false;
  const given = Buffer.from(match[2]!, "base64url");
  const expected = createHmac("sha256", key).update(`simadmin resume\0${ref}\0${match[1]!}`).digest().subarray(0, 12);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
