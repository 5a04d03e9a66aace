// @ts-nocheck
import { describe, expect, it } from "vitest";
import { RateLimiter, retryAfterSeconds } from "../../src/sandbox/rate-limit.js";

describe("RateLimiter (sliding)", () => {
  it("allows `limit` requests per window and tells when the next slot frees", () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 1000 });
    expect(limiter.tryAcquire("a", 0)).toEqual({ allowed: true, remaining: 2 });
    expect(limiter.tryAcquire("a", 100)).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.tryAcquire("a", 200)).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.tryAcquire("a", 300)).toEqual({ allowed: false, retryAfterMs: 700 });
    expect(limiter.tryAcquire("a", 999)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect(limiter.tryAcquire("a", 1000)).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.tryAcquire("a", 1050)).toEqual({ allowed: false, retryAfterMs: 50 });
  });

  it("does not count refused requests", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
    limiter.tryAcquire("a", 0);
    for (let t = 1; t < 1000; t += 100) expect(limiter.tryAcquire("a", t).allowed).toBe(false);
    expect(limiter.tryAcquire("a", 1000).allowed).toBe(true);
  });

  it("keeps one budget per key", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
    expect(limiter.tryAcquire("a", 0).allowed).toBe(true);
    expect(limiter.tryAcquire("b", 0).allowed).toBe(true);
    expect(limiter.tryAcquire("a", 0).allowed).toBe(false);
    expect(limiter.remaining("b", 500)).toBe(0);
    expect(limiter.remaining("c", 500)).toBe(1);
  });

  it("never lets more than `limit` through in any window of windowMs", () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 1000 });
    const accepted: number[] = [];
    for (let t = 0; t < 10_000; t += 37) if (limiter.tryAcquire("a", t).allowed) accepted.push(t);
    for (const start of accepted) expect(accepted.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(5);
    expect(accepted.length).toBeGreaterThanOrEqual(45);
  });
});

describe("RateLimiter (fixed)", () => {
  it("resets at window boundaries", () => {
    const limiter = new RateLimiter({ limit: 2, windowMs: 1000 }, "fixed");
    expect(limiter.tryAcquire("a", 900).allowed).toBe(true);
    expect(limiter.tryAcquire("a", 950).allowed).toBe(true);
    expect(limiter.tryAcquire("a", 960)).toEqual({ allowed: false, retryAfterMs: 40 });
    expect(limiter.tryAcquire("a", 1000).allowed).toBe(true);
    expect(limiter.remaining("a", 1500)).toBe(1);
  });
});

describe("RateLimiter arguments", () => {
  it.each([[{ limit: 0, windowMs: 1000 }], [{ limit: 1.5, windowMs: 1000 }], [{ limit: 1, windowMs: 0 }]])(
    "rejects %j",
    (rule) => {
      expect(() => new RateLimiter(rule)).toThrow(RangeError);
    },
  );
});

describe("retryAfterSeconds", () => {
  it.each([
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [59_999, 60],
    [0, 1],
  ])("%i ms → %i s", (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });
});
