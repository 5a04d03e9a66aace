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

  it("accepts the shortest window, 1 ms", () => {
    expect(parseRateLimits("reports=1/1ms").reports).toEqual({ limit: 1, windowMs: 1 });
  });

  it.each([
    [
      "a count beyond a safe integer",
      "reports=9007199254740993/60s",
      /count in "reports=9007199254740993\/60s" must be a whole number/,
    ],
    ["a window that rounds to 0 ms", "reports=1/0.4ms", /duration in "reports=1\/0.4ms" must be longer than 0/],
    [
      "a window too long to be a number",
      `reports=1/${"9".repeat(400)}s`,
      /the duration in "reports=1\/9+s" must be longer than 0/,
    ],
  ])("rejects %s", (_name, text, message) => {
    expect(() => parseRateLimits(text)).toThrow(message);
  });

  it("says how a part must look", () => {
    expect(() => parseRateLimits("reports")).toThrow(
      expect.objectContaining({
        message: 'SIMADMIN_RATE_LIMITS: "reports" is not <group>=<count>/<duration>, e.g. "reports=10/60s"',
        hint: 'groups: reports, access; duration units: ms, s, m; e.g. "reports=10/60s,access=100/300s"',
      }),
    );
    expect(() => parseRateLimits("report=1/1s")).toThrow(
      'SIMADMIN_RATE_LIMITS: unknown group "report" in "report=1/1s"; known groups: reports, access',
    );
    expect(() => parseRateLimits("access=1/1s,ACCESS=2/1s")).toThrow(
      'SIMADMIN_RATE_LIMITS: group "access" is given more than once',
    );
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
