// @ts-nocheck
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
