import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { DEFAULT_RATE_LIMITS, formatRateLimit, parseRateLimits } from "../../src/api/rate/limits.js";

describe("parseRateLimits", () => {
  it("gives the published limits when SIMADMIN_RATE_LIMITS is unset or empty", () => {
    expect(parseRateLimits(undefined)).toEqual({
      reports: { limit: 10, windowMs: 60_000 },
      access: { limit: 100, windowMs: 300_000 },
    });
    expect(parseRateLimits("  ")).toEqual(DEFAULT_RATE_LIMITS);
  });

  it.each([
    ["reports=10/60s,access=100/300s", { limit: 10, windowMs: 60_000 }, { limit: 100, windowMs: 300_000 }],
    ["reports=10/10s", { limit: 10, windowMs: 10_000 }, { limit: 100, windowMs: 300_000 }],
    ["access=5/1m", { limit: 10, windowMs: 60_000 }, { limit: 5, windowMs: 60_000 }],
    [" access = 20 / 500ms , reports=3/2.5s ", { limit: 3, windowMs: 2_500 }, { limit: 20, windowMs: 500 }],
    ["REPORTS=1/1S", { limit: 1, windowMs: 1_000 }, { limit: 100, windowMs: 300_000 }],
  ])("parses %j", (text, reports, access) => {
    expect(parseRateLimits(text)).toEqual({ reports, access });
  });

  it.each([
    ["reports=10", /"reports=10" is not <group>=<count>\/<duration>/],
    ["reports=10/60", /"reports=10\/60" is not/],
    ["reports=10/60h", /"reports=10\/60h" is not/],
    ["reports=-1/60s", /"reports=-1\/60s" is not/],
    ["reports=0/60s", /count in "reports=0\/60s" must be a whole number/],
    ["reports=10/0s", /duration in "reports=10\/0s" must be longer than 0/],
    ["report=10/60s", /unknown group "report"/],
    ["reports=10/60s,reports=5/60s", /"reports" is given more than once/],
    ["reports=10/60s,", /"" is not/],
    ["reports=10/60s;access=100/300s", /is not/],
  ])("rejects %j with a usage error naming the bad part", (text, message) => {
    expect(() => parseRateLimits(text)).toThrow(UsageError);
    expect(() => parseRateLimits(text)).toThrow(message);
  });

  it("does not let one parse change the defaults of the next", () => {
    const limits = parseRateLimits(undefined);
    limits.reports.limit = 1;
    expect(parseRateLimits(undefined).reports.limit).toBe(10);
    expect(DEFAULT_RATE_LIMITS.reports.limit).toBe(10);
  });

  it("formats a limit for messages", () => {
    expect(formatRateLimit({ limit: 10, windowMs: 60_000 })).toBe("10/60s");
    expect(formatRateLimit({ limit: 20, windowMs: 500 })).toBe("20/500ms");
  });
});
