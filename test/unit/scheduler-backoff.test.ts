import { describeWait } from "../../src/api/rate/scheduler.js";
import { describe, expect, it } from "vitest";
import { backoffDelayMs, parseRetryAfter } from "../../src/api/rate/backoff.js";

describe("backoffDelayMs", () => {
  it("doubles the ceiling each retry and caps it at 30 s", () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 10].map((retry) => backoffDelayMs(retry, 0.999_999));
    expect(ceilings).toEqual([999, 1_999, 3_999, 7_999, 15_999, 29_999, 29_999, 29_999]);
  });

  it("draws the whole delay at random (full jitter)", () => {
    expect(backoffDelayMs(3, 0)).toBe(0);
    expect(backoffDelayMs(3, 0.25)).toBe(1_000);
    expect(backoffDelayMs(3, 0.5)).toBe(2_000);
  });

  it("takes base and cap from the caller", () => {
    expect(backoffDelayMs(1, 0.5, 200, 1_000)).toBe(100);
    expect(backoffDelayMs(8, 0.5, 200, 1_000)).toBe(500);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2026, 10, 21, 12, 0, 0);

  it.each([
    ["7", 7_000],
    [" 0 ", 0],
    ["120", 120_000],
    ["Sat, 21 Nov 2026 12:00:30 GMT", 30_000],
    ["Sat, 21 Nov 2026 11:59:00 GMT", 0],
  ])("reads %j as %i ms", (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  // An ISO 8601 time is no HTTP date (RFC 9110 §5.6.7), though Date.parse would read it.
  it.each([undefined, null, "", "soon", "1.5", "-3", "2026-11-21T12:00:30Z"])("ignores %j", (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });

  it("measures an HTTP date against the response's Date header, not our clock", () => {
    const skewedNow = now - 45_000; // our clock is 45 s behind the service's
    expect(parseRetryAfter("Sat, 21 Nov 2026 12:00:30 GMT", skewedNow, "Sat, 21 Nov 2026 12:00:00 GMT")).toBe(30_000);
    // Without a readable Date header, our own clock.
    expect(parseRetryAfter("Sat, 21 Nov 2026 12:00:30 GMT", skewedNow, "yesterday")).toBe(75_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 12:00:30 GMT", skewedNow, null)).toBe(75_000);
  });
});

describe("describeWait (what a long wait on a terminal says it waits for)", () => {
  it("names the budget or the retry, the wait and the request", () => {
    expect(describeWait({ group: "access", reason: "budget", waitMs: 42_000, attempt: 1, label: "token" })).toBe(
      "waiting 42s for the access rate budget before token",
    );
    expect(describeWait({ group: "reports", reason: "retry", waitMs: 3_000, attempt: 3, label: "report syms" })).toBe(
      "waiting 3s before retry 2 of report syms",
    );
    // Written as every other duration is (domain/durations.ts), not in a style of its own.
    expect(describeWait({ group: "reports", reason: "budget", waitMs: 589_000, attempt: 1, label: "report syms" })).toBe(
      "waiting 9m 49s for the reports rate budget before report syms",
    );
  });
});
