import { describe, expect, it } from "vitest";
import {
  MAX_WINDOW_DAYS,
  formatIsoDate,
  parseIsoDate,
  rangeDays,
  resolveRange,
  splitIntoWindows,
  utcDay,
  type DateRange,
} from "../../src/domain/date-windows.js";
import { UsageError } from "../../src/errors.js";

// Day numbers computed apart from the module under test (Date.parse of a date-only ISO text is UTC).
const day = (text: string): number => Date.parse(`${text}T00:00:00Z`) / 86_400_000;
const TODAY = day("2026-11-21");
const w = (startDate: string, endDate: string): DateRange => ({ startDate, endDate });

describe("parseIsoDate", () => {
  it.each<[string, number]>([
    ["2024-02-29", 19_782],
    ["2000-02-29", 11_016],
    ["2026-12-31", 20_818],
    ["2026-01-01", 20_454],
    ["1999-06-15", 10_757],
    ["1970-01-01", 0],
  ])("accepts the real date %s, day %i since 1970-01-01, and writes it back", (text, dayNumber) => {
    expect(parseIsoDate(text)).toBe(dayNumber);
    expect(formatIsoDate(dayNumber)).toBe(text);
  });

  it.each([
    "2026-02-29", // not a leap year
    "1900-02-29", // century, not a leap year
    "2026-02-30",
    "2026-04-31",
    "2026-13-01",
    "2026-00-10",
    "2026-01-00",
    "2026-1-01",
    "26-01-01",
    "2026/01/01",
    "2026-01-01T00:00:00Z",
    " 2026-01-01",
    "",
    "0099-01-01",
  ])("rejects %j", (text) => {
    expect(parseIsoDate(text)).toBeUndefined();
  });

  it("counts days across a leap day", () => {
    expect(parseIsoDate("2024-03-01")! - parseIsoDate("2024-02-28")!).toBe(2);
    expect(parseIsoDate("2026-03-01")! - parseIsoDate("2026-02-28")!).toBe(1);
  });

  it("takes the UTC day of an instant, whatever the hour", () => {
    expect(formatIsoDate(utcDay(Date.UTC(2026, 10, 21, 23, 59, 59)))).toBe("2026-11-21");
    expect(formatIsoDate(utcDay(Date.UTC(2026, 10, 22, 0, 0, 0)))).toBe("2026-11-22");
  });
});

describe("splitIntoWindows", () => {
  it.each<[string, DateRange, DateRange[]]>([
    ["a single day", w("2026-05-05", "2026-05-05"), [w("2026-05-05", "2026-05-05")]],
    ["exactly 30 days in one window", w("2026-01-01", "2026-01-30"), [w("2026-01-01", "2026-01-30")]],
    ["31 days in two", w("2026-01-01", "2026-01-31"), [w("2026-01-01", "2026-01-30"), w("2026-01-31", "2026-01-31")]],
    [
      "--month 2026-10 as 10-01..10-30 and 10-31",
      w("2026-10-01", "2026-10-31"),
      [w("2026-10-01", "2026-10-30"), w("2026-10-31", "2026-10-31")],
    ],
    ["February of a leap year in one window", w("2024-02-01", "2024-02-29"), [w("2024-02-01", "2024-02-29")]],
    [
      "2024-02-01..2024-03-31 across the leap day",
      w("2024-02-01", "2024-03-31"),
      [w("2024-02-01", "2024-03-01"), w("2024-03-02", "2024-03-31")],
    ],
    [
      "2026-01-01..2026-03-31 into three windows",
      w("2026-01-01", "2026-03-31"),
      [w("2026-01-01", "2026-01-30"), w("2026-01-31", "2026-03-01"), w("2026-03-02", "2026-03-31")],
    ],
    [
      "2023-12-15..2024-03-15 across a year end and a leap day",
      w("2023-12-15", "2024-03-15"),
      [
        w("2023-12-15", "2024-01-13"),
        w("2024-01-14", "2024-02-12"),
        w("2024-02-13", "2024-03-13"),
        w("2024-03-14", "2024-03-15"),
      ],
    ],
  ])("splits %s", (_name, range, expected) => {
    expect(splitIntoWindows(range)).toEqual(expected);
  });

  it.each<[DateRange, number, DateRange]>([
    [w("2025-01-01", "2025-12-31"), 13, w("2025-12-27", "2025-12-31")],
    [w("2024-01-01", "2024-12-31"), 13, w("2024-12-26", "2024-12-31")], // 366 days
    [w("2025-11-22", "2026-11-21"), 13, w("2026-11-17", "2026-11-21")],
    [w("2024-01-01", "2024-01-01"), 1, w("2024-01-01", "2024-01-01")],
  ])("splits %j into %i windows ending with %j", (range, count, last) => {
    const windows = splitIntoWindows(range);
    expect(windows).toHaveLength(count);
    expect(windows.at(-1)).toEqual(last);
  });

  it.each<[DateRange, number]>([
    [w("2024-02-01", "2024-03-31"), 60],
    [w("2025-01-01", "2025-12-31"), 365],
    [w("2020-02-29", "2024-02-29"), 1462],
    [w("2026-10-01", "2026-10-31"), 31],
  ])("covers %j (%i days) exactly: consecutive, non-overlapping, each at most 30 days inclusive", (range, rangeLength) => {
    const windows = splitIntoWindows(range);
    expect(windows[0]?.startDate).toBe(range.startDate);
    expect(windows.at(-1)?.endDate).toBe(range.endDate);
    let total = 0;
    windows.forEach((window, i) => {
      const days = day(window.endDate) - day(window.startDate) + 1;
      expect(rangeDays(window)).toBe(days);
      expect(days).toBeGreaterThanOrEqual(1);
      expect(days).toBeLessThanOrEqual(MAX_WINDOW_DAYS);
      // endDate − startDate ≤ 29 days (spec §8, counted inclusively)
      expect(day(window.endDate) - day(window.startDate)).toBeLessThanOrEqual(29);
      const next = windows[i + 1];
      if (next) expect(day(next.startDate)).toBe(day(window.endDate) + 1);
      total += days;
    });
    expect(total).toBe(rangeLength);
    expect(rangeDays(range)).toBe(rangeLength);
  });

  it("refuses a reversed range and a bad window size (programming errors, not user input)", () => {
    expect(() => splitIntoWindows(w("2026-02-01", "2026-01-01"))).toThrow(RangeError);
    expect(() => splitIntoWindows(w("2026-01-01", "2026-02-01"), 0)).toThrow(RangeError);
  });
});

describe("resolveRange", () => {
  it.each<[string, Parameters<typeof resolveRange>[0], DateRange]>([
    ["--from/--to as given", { from: "2026-01-01", to: "2026-03-31" }, w("2026-01-01", "2026-03-31")],
    ["--from/--to of one day", { from: "2026-05-05", to: "2026-05-05" }, w("2026-05-05", "2026-05-05")],
    ["--to today", { from: "2026-11-01", to: "2026-11-21" }, w("2026-11-01", "2026-11-21")],
    ["--month 2026-10", { month: "2026-10" }, w("2026-10-01", "2026-10-31")],
    ["--month 2024-02 (leap year)", { month: "2024-02" }, w("2024-02-01", "2024-02-29")],
    ["--month 2025-02", { month: "2025-02" }, w("2025-02-01", "2025-02-28")],
    ["--month 2025-12", { month: "2025-12" }, w("2025-12-01", "2025-12-31")],
    ["--last 1d as yesterday", { last: "1d" }, w("2026-11-20", "2026-11-20")],
    ["--last 7d ending yesterday", { last: "7d" }, w("2026-11-14", "2026-11-20")],
    ["--last 30d ending yesterday", { last: "30d" }, w("2026-10-22", "2026-11-20")],
    ["--last 365d ending yesterday", { last: "365d" }, w("2025-11-21", "2026-11-20")],
  ])("resolves %s", (_name, options, expected) => {
    expect(resolveRange(options, TODAY)).toEqual(expected);
  });

  it("resolves --last across a leap day", () => {
    expect(resolveRange({ last: "3d" }, day("2024-03-02"))).toEqual(w("2024-02-28", "2024-03-01"));
  });

  it("cuts the current month at today and says so", () => {
    const range = resolveRange({ month: "2026-11" }, TODAY);
    expect(range).toMatchObject(w("2026-11-01", "2026-11-21"));
    expect(range.note).toMatch(/2026-11 is not over yet/);
  });

  it.each<[string, Parameters<typeof resolveRange>[0], RegExp]>([
    ["no range", {}, /a date range is required/],
    ["--from without --to", { from: "2026-01-01" }, /--from needs --to/],
    ["--to without --from", { to: "2026-01-01" }, /--to needs --from/],
    [
      "two kinds of range",
      { from: "2026-01-01", to: "2026-01-02", month: "2026-01" },
      /give one date range, not --from\/--to and --month/,
    ],
    ["--month with --last", { month: "2026-01", last: "7d" }, /not --month and --last/],
    ["a bad --from", { from: "2026-1-1", to: "2026-01-02" }, /--from "2026-1-1": expected YYYY-MM-DD/],
    ["an unreal --to", { from: "2026-01-01", to: "2026-02-30" }, /--to "2026-02-30": not a real calendar date/],
    ["29 February of a common year", { from: "2025-02-29", to: "2025-03-01" }, /--from "2025-02-29": not a real calendar date/],
    ["a reversed range", { from: "2026-03-01", to: "2026-02-01" }, /--from 2026-03-01 is after --to 2026-02-01/],
    [
      "--to in the future",
      { from: "2026-11-01", to: "2026-11-22" },
      /--to 2026-11-22 is in the future \(today is 2026-11-21 UTC\)/,
    ],
    ["a bad --month", { month: "2026-13" }, /--month "2026-13": expected YYYY-MM/],
    ["a --month with a day", { month: "2026-10-01" }, /--month "2026-10-01"/],
    ["a month to come", { month: "2026-12" }, /--month 2026-12 has not begun yet/],
    ["--last without d", { last: "7" }, /--last "7": expected a number of days/],
    ["--last 0d", { last: "0d" }, /--last "0d"/],
    ["--last in weeks", { last: "2w" }, /--last "2w"/],
    ["--last of 100 years", { last: "36500d" }, /from 1 to 3660/],
  ])("refuses %s with a usage error", (_name, options, message) => {
    expect(() => resolveRange(options, TODAY)).toThrow(UsageError);
    expect(() => resolveRange(options, TODAY)).toThrow(message);
  });
});
