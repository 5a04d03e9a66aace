// @ts-nocheck
import { createHmac, timingSafeEqual } from "node:crypto";

/** Spec §5 and §8: a user token is valid for 3600 seconds. */
export const USER_TOKEN_TTL_SECONDS = 3600;

// Standard base64 (not base64url) on purpose: the token then carries `+`, `/` and `=`, so a
// client that forgets to URL-encode it in `<deepLink>?token=` is caught by tests. The magic
// prefix bytes encode to "++++////", which guarantees `+` and `/` in every token; the
// 32-byte HMAC always ends in "=".
const MAGIC = Buffer.from([0xfb, 0xef, 0xbe, 0xff, 0xff, 0xff]);

export interface UserTokenClaims {
  organizationId: string;
  userId: string;
  /** Issue and expiry time, milliseconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
}

export type TokenCheck =
  ({ valid: true } & UserTokenClaims) | { valid: false; reason: "malformed" | "bad-signature" | "expired"; expiresAt?: number };

export function signUserToken(secret: Buffer, claims: UserTokenClaims): string {
  const payload = Buffer.concat([
    MAGIC,
    Buffer.from(JSON.stringify({ o: claims.organizationId, u: claims.userId, iat: claims.issuedAt, exp: claims.expiresAt })),
  ]).toString("base64");
  const signature = createHmac("sha256", secret).update(payload).digest("base64");
  return `${payload}.${signature}`;
}

export function verifyUserToken(secret: Buffer, token: string, now: number): TokenCheck {
  const dot = token.indexOf(".");
  if (dot <= 0) return { valid: false, reason: "malformed" };
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(payload).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { valid: false, reason: "bad-signature" };
  }
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64").subarray(MAGIC.length).toString("utf8"));
  } catch {
    return { valid: false, reason: "malformed" };
  }
  if (typeof claims !== "object" || claims === null) return { valid: false, reason: "malformed" };
  const { o, u, iat, exp } = claims as Record<string, unknown>;
  if (typeof o !== "string" || typeof u !== "string" || typeof iat !== "number" || typeof exp !== "number") {
    return { valid: false, reason: "malformed" };
  }
  if (now >= exp) return { valid: false, reason: "expired", expiresAt: exp };
  return { valid: true, organizationId: o, userId: u, issuedAt: iat, expiresAt: exp };
}
