import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/client.js";
import { readUserToken } from "../../src/api/endpoints.js";
import { UserToken } from "../../src/api/schemas.js";
import { UserTokens } from "../../src/api/user-tokens.js";
import type { Clock } from "../../src/clock.js";
import { NotFoundError } from "../../src/errors.js";

// The one user-token policy (services.userTokens()): minted through user/token, redacted at
// once, expiry from the clock read before the request, a token of the same user reused while
// at least ten minutes of it remain (docs/cli-contract.md "Durable links"), never stored.

const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);
const ORG = "org-1";

interface Asked {
  body: Record<string, unknown>;
  at: number;
}

/** A client that answers user/token with the next answer, and a clock the requests move on. */
function setup(answers: (() => unknown)[], requestMs = 0) {
  let now = T0;
  const clock: Clock = { now: () => now, sleep: async () => undefined, random: () => 0 };
  const asked: Asked[] = [];
  const redacted: string[] = [];
  const forgotten: string[] = [];
  let next = 0;
  const client = {
    postJson: async (endpoint: { path: string }, body: Record<string, unknown>) => {
      expect(endpoint.path).toBe("/access-api/user/token");
      asked.push({ body, at: now });
      now += requestMs;
      await Promise.resolve();
      return answers[next++]!();
    },
  } as unknown as ApiClient;
  const tokens = new UserTokens({
    client: async () => client,
    clock,
    redact: (secret) => redacted.push(secret),
    forget: (secret) => forgotten.push(secret),
  });
  return {
    tokens,
    asked,
    redacted,
    forgotten,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("UserTokens", () => {
  it("mints a token, redacts it, and dates its expiry from before the request", async () => {
    // The request takes 2 s: expiresAt counts from when it was sent, so it errs early.
    const { tokens, asked, redacted } = setup([() => ({ token: "tok-a", expiresIn: 1800 })], 2_000);
    const grant = await tokens.get({ organizationId: ORG, userId: "u1" });
    expect(asked.map((a) => a.body)).toEqual([{ organizationId: ORG, userId: "u1" }]);
    expect(grant).toEqual({
      token: "tok-a",
      expiresAtMs: T0 + 1_800_000,
      expiresAt: "2026-11-27T09:30:00.000Z",
      expiresIn: 1800,
      reused: false,
    });
    expect(redacted).toEqual(["tok-a"]);
    expect(tokens.minted).toBe(1);
  });

  it("takes the spec's 3600 s when the answer has no expiresIn", async () => {
    const { tokens } = setup([() => ({ token: "tok-a" })]);
    const grant = await tokens.get({ organizationId: ORG, userId: "u1" });
    expect(grant.expiresIn).toBe(3600);
    expect(grant.expiresAt).toBe("2026-11-27T10:00:00.000Z");
  });

  it("hands the same user's token out again while ten minutes of it remain, with the seconds left", async () => {
    const { tokens, asked, advance } = setup([() => ({ token: "tok-a", expiresIn: 3600 })]);
    await tokens.get({ organizationId: ORG, userId: "u1" });
    advance(50 * 60_000); // exactly ten minutes left
    const again = await tokens.get({ organizationId: ORG, userId: "u1" });
    expect(again).toMatchObject({ token: "tok-a", reused: true, expiresIn: 600, expiresAt: "2026-11-27T10:00:00.000Z" });
    expect(asked).toHaveLength(1);
    expect(tokens.reused).toBe(1);
  });

  it("mints a new one when less than ten minutes remain", async () => {
    const { tokens, asked, advance, redacted } = setup([
      () => ({ token: "tok-a", expiresIn: 3600 }),
      () => ({ token: "tok-b", expiresIn: 3600 }),
    ]);
    await tokens.get({ organizationId: ORG, userId: "u1" });
    advance(50 * 60_000 + 1);
    const fresh = await tokens.get({ organizationId: ORG, userId: "u1" });
    expect(fresh).toMatchObject({ token: "tok-b", reused: false, expiresIn: 3600 });
    expect(asked).toHaveLength(2);
    expect(redacted).toEqual(["tok-a", "tok-b"]);
    // The new one is what is handed out from now on.
    expect((await tokens.get({ organizationId: ORG, userId: "u1" })).token).toBe("tok-b");
  });

  it("keeps users and organizations apart", async () => {
    const { tokens, asked } = setup([
      () => ({ token: "tok-1", expiresIn: 3600 }),
      () => ({ token: "tok-2", expiresIn: 3600 }),
      () => ({ token: "tok-3", expiresIn: 3600 }),
    ]);
    expect((await tokens.get({ organizationId: ORG, userId: "u1" })).token).toBe("tok-1");
    expect((await tokens.get({ organizationId: ORG, userId: "u2" })).token).toBe("tok-2");
    expect((await tokens.get({ organizationId: "org-2", userId: "u1" })).token).toBe("tok-3");
    expect(asked.map((a) => a.body)).toEqual([
      { organizationId: ORG, userId: "u1" },
      { organizationId: ORG, userId: "u2" },
      { organizationId: "org-2", userId: "u1" },
    ]);
  });

  it("two asks for the same user at once share one request", async () => {
    const { tokens, asked } = setup([() => ({ token: "tok-a", expiresIn: 3600 })]);
    const [a, b] = await Promise.all([
      tokens.get({ organizationId: ORG, userId: "u1" }),
      tokens.get({ organizationId: ORG, userId: "u1" }),
    ]);
    expect(asked).toHaveLength(1);
    expect([a.token, b.token]).toEqual(["tok-a", "tok-a"]);
    expect([a.reused, b.reused]).toEqual([false, true]);
  });

  it("a refused request is not remembered: the next ask tries again", async () => {
    const { tokens, asked } = setup([
      () => {
        throw new NotFoundError("user token: user not found (404)");
      },
      () => ({ token: "tok-a", expiresIn: 3600 }),
    ]);
    await expect(tokens.get({ organizationId: ORG, userId: "u1" })).rejects.toThrow("user token: user not found (404)");
    expect((await tokens.get({ organizationId: ORG, userId: "u1" })).token).toBe("tok-a");
    expect(asked).toHaveLength(2);
    expect(tokens.minted).toBe(1);
  });

  it("lets an expired token go, from memory and from the redactor, and only once it has expired (links serve runs for weeks)", async () => {
    const { tokens, asked, advance, forgotten } = setup([
      () => ({ token: "tok-1", expiresIn: 3600 }),
      () => ({ token: "tok-2", expiresIn: 3600 }),
      () => ({ token: "tok-3", expiresIn: 3600 }),
      () => ({ token: "tok-4", expiresIn: 3600 }),
    ]);
    await tokens.get({ organizationId: ORG, userId: "u1" });
    advance(30 * 60_000);
    await tokens.get({ organizationId: ORG, userId: "u2" });
    expect(forgotten).toEqual([]);
    advance(30 * 60_000); // u1's token has just expired, u2's has 30 minutes left
    await tokens.get({ organizationId: ORG, userId: "u3" });
    expect(forgotten).toEqual(["tok-1"]);
    // u2's token is still handed out; u1 gets a new one.
    expect((await tokens.get({ organizationId: ORG, userId: "u2" })).token).toBe("tok-2");
    expect((await tokens.get({ organizationId: ORG, userId: "u1" })).token).toBe("tok-4");
    expect(asked).toHaveLength(4);
  });
});

// The answer is read by hand (start-up) and by UserToken only when that refuses it: what the
// hand takes is what the schema returns, and nothing the schema refuses is taken.
describe("readUserToken agrees with the UserToken schema", () => {
  it.each<[string, unknown]>([
    ["token and lifetime", { token: "t", expiresIn: 3600 }],
    ["no lifetime", { token: "t" }],
    ["more fields", { token: "t", expiresIn: 60, scope: ["a"] }],
    ["an empty token", { token: "", expiresIn: 60 }],
    ["a numeric token", { token: 5 }],
    ["no token", { expiresIn: 60 }],
    ["a zero lifetime", { token: "t", expiresIn: 0 }],
    ["a fractional lifetime", { token: "t", expiresIn: 1.5 }],
    ["a lifetime as text", { token: "t", expiresIn: "60" }],
    ["a null lifetime", { token: "t", expiresIn: null }],
    ["a list", [{ token: "t" }]],
    ["null", null],
  ])("%s", (_name, body) => {
    const parsed = UserToken.safeParse(body);
    const read = readUserToken(body);
    if (!parsed.success) expect(read).toBeUndefined();
    else expect(read).toStrictEqual(parsed.data);
  });
});
