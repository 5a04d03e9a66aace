import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { formatDuration, formatSeconds, parseDuration, parsePositiveDuration } from "../../src/domain/durations.js";

describe("parseDuration", () => {
  it.each([
    ["90s", 90_000],
    ["5m", 300_000],
    ["2h", 7_200_000],
    ["1h30m", 5_400_000],
    ["1h30m15s", 5_415_000],
    ["250ms", 250],
    ["1s500ms", 1_500],
    ["0s", 0],
    [" 2H ", 7_200_000],
  ])("reads %j as %d ms", (text, ms) => {
    expect(parseDuration(text, "--interval")).toBe(ms);
  });

  it.each([
    ["", "not a duration"],
    ["30", "a unit is needed"],
    ["abc", "not a duration"],
    ["5x", "not a duration"],
    ["1h30", "not a duration"],
    ["30m1h", "largest to smallest"],
    ["5m5m", "largest to smallest"],
    ["-5m", "not a duration"],
    ["1.5h", "not a duration"],
    ["5 m", "not a duration"],
  ])("refuses %j with a usage error naming the flag (%s)", (text, why) => {
    expect(() => parseDuration(text, "--wait-timeout")).toThrow(UsageError);
    expect(() => parseDuration(text, "--wait-timeout")).toThrow(/^--wait-timeout: /);
    expect(() => parseDuration(text, "--wait-timeout")).toThrow(why);
  });

  it("refuses zero where a positive duration is needed", () => {
    expect(() => parsePositiveDuration("0s", "--interval")).toThrow(/--interval: must be longer than zero/);
    expect(parsePositiveDuration("1s", "--interval")).toBe(1000);
  });
});

describe("formatDuration / formatSeconds", () => {
  it.each([
    [0, "0s"],
    [250, "250ms"],
    [45_000, "45s"],
    [702_000, "11m 42s"],
    [3_600_000, "1h"],
    [5_400_000, "1h 30m"],
    [3_725_000, "1h 2m"],
  ])("shows %d ms as %j", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("shows completionTime seconds readably and keeps null empty", () => {
    expect(formatSeconds(702)).toBe("11m 42s");
    expect(formatSeconds(null)).toBeNull();
    expect(formatSeconds(undefined)).toBeNull();
  });
});

describe("parseDuration: exact messages and edges", () => {
  it.each([
    ["", '--interval: "" is not a duration; use e.g. 30s, 5m, 2h or 1h30m'],
    ["30", '--interval: "30" is not a duration (a unit is needed); use e.g. 30s, 5m, 2h or 1h30m'],
    ["1h30", '--interval: "1h30" is not a duration; use e.g. 30s, 5m, 2h or 1h30m'],
    ["x5m", '--interval: "x5m" is not a duration; use e.g. 30s, 5m, 2h or 1h30m'],
    [
      "30m1h",
      '--interval: "30m1h" is not a duration (units go from largest to smallest, each once); use e.g. 30s, 5m, 2h or 1h30m',
    ],
    [
      "1s1s",
      '--interval: "1s1s" is not a duration (units go from largest to smallest, each once); use e.g. 30s, 5m, 2h or 1h30m',
    ],
    ["9999999999999h", '--interval: "9999999999999h" is not a duration (too long); use e.g. 30s, 5m, 2h or 1h30m'],
  ])("refuses %j with the message %j", (text, message) => {
    expect(() => parseDuration(text, "--interval")).toThrow(new UsageError(message));
  });

  it("quotes the text as typed, not as normalised", () => {
    expect(() => parseDuration(" 5X ", "--interval")).toThrow(
      new UsageError('--interval: " 5X " is not a duration; use e.g. 30s, 5m, 2h or 1h30m'),
    );
  });

  it("reads the largest safe duration and every unit once, in order", () => {
    expect(parseDuration("2501999792h", "--interval")).toBe(9_007_199_251_200_000);
    expect(parseDuration("1h1m1s1ms", "--interval")).toBe(3_661_001);
  });

  it("a refusal in the middle of a text leaves nothing behind for the next one", () => {
    expect(() => parseDuration("30m1h", "--interval")).toThrow(UsageError);
    expect(parseDuration("5m", "--interval")).toBe(300_000);
    expect(() => parseDuration("1h1h", "--interval")).toThrow(UsageError);
    expect(parseDuration("90s", "--interval")).toBe(90_000);
  });

  it("parsePositiveDuration's refusal names the flag and the examples", () => {
    expect(() => parsePositiveDuration("0ms", "--wait-timeout")).toThrow(
      new UsageError("--wait-timeout: must be longer than zero; use e.g. 30s, 5m, 2h or 1h30m"),
    );
    expect(parsePositiveDuration("1ms", "--wait-timeout")).toBe(1);
  });
});

describe("formatDuration: edges", () => {
  it.each([
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [-5, "-5"],
    [1, "1ms"],
    [250.4, "250ms"],
    [999, "999ms"],
    [1000, "1s"],
    [1499, "1s"],
    [1500, "2s"],
    [59_499, "59s"],
    [60_000, "1m"],
    [3_599_500, "1h"],
    [3_605_000, "1h"],
    [7_203_000, "2h"],
    [90_061_000, "25h 1m"],
  ])("shows %d ms as %j", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("formatSeconds: zero is 0s, what is not a finite number stays empty", () => {
    expect(formatSeconds(0)).toBe("0s");
    expect(formatSeconds(1.5)).toBe("2s");
    expect(formatSeconds(Number.NaN)).toBeNull();
    expect(formatSeconds(Number.POSITIVE_INFINITY)).toBeNull();
  });
});
