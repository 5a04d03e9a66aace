import { describe, expect, it } from "vitest";
import {
  MAX_LAST_DAYS,
  parseIsoDate,
  rangeDays,
  resolveRange,
  splitIntoWindows,
  type DateRange,
} from "../../src/domain/date-windows.js";
import { UsageError } from "../../src/errors.js";

// The edges of the date flags (issue 27 item 3: survivors of `npm run mutate` on
// src/domain/date-windows.ts): month 00 and 13, the year 1000, a range ending or a month
// starting exactly today, --last 0d / 1d / 3660d / 3661d, the exact messages, anchors.
// Expectations are written out, never computed with the module under test.

const TODAY = Date.UTC(2026, 10, 21) / 86_400_000; // 2026-11-21
const w = (startDate: string, endDate: string): DateRange => ({ startDate, endDate });

function usageMessage(options: Parameters<typeof resolveRange>[0], today = TODAY): string {
  try {
    resolveRange(options, today);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("--month limits", () => {
  it.each([
    ["2026-13", '--month "2026-13": expected YYYY-MM, e.g. 2026-10'],
    ["2026-00", '--month "2026-00": expected YYYY-MM, e.g. 2026-10'],
    ["0999-12", '--month "0999-12": expected YYYY-MM, e.g. 2026-10'],
    ["2026-1", '--month "2026-1": expected YYYY-MM, e.g. 2026-10'],
    ["x2026-10", '--month "x2026-10": expected YYYY-MM, e.g. 2026-10'],
    ["2026-10x", '--month "2026-10x": expected YYYY-MM, e.g. 2026-10'],
    ["20261-10", '--month "20261-10": expected YYYY-MM, e.g. 2026-10'],
    ["abcd-10", '--month "abcd-10": expected YYYY-MM, e.g. 2026-10'],
    ["2026-ab", '--month "2026-ab": expected YYYY-MM, e.g. 2026-10'],
  ])("refuses --month %s with the exact message", (month, message) => {
    expect(usageMessage({ month })).toBe(message);
  });

  it("accepts months 01 and 12 and the year 1000", () => {
    expect(resolveRange({ month: "2026-01" }, TODAY)).toEqual(w("2026-01-01", "2026-01-31"));
    expect(resolveRange({ month: "1000-12" }, TODAY)).toEqual(w("1000-12-01", "1000-12-31"));
  });

  it("trims blanks around the month, and names it trimmed", () => {
    expect(resolveRange({ month: " 2026-10 " }, TODAY)).toEqual(w("2026-10-01", "2026-10-31"));
    expect(usageMessage({ month: " 2026-12 " })).toBe("--month 2026-12 has not begun yet (today is 2026-11-21 UTC)");
  });

  it("a month that begins today is this month so far: one day, with its note", () => {
    const firstOfMonth = Date.UTC(2026, 11, 1) / 86_400_000;
    expect(resolveRange({ month: "2026-12" }, firstOfMonth)).toEqual({
      ...w("2026-12-01", "2026-12-01"),
      note: "2026-12 is not over yet: reporting 2026-12-01..2026-12-01 (today, UTC, is partial)",
    });
    expect(usageMessage({ month: "2027-01" }, firstOfMonth)).toBe("--month 2027-01 has not begun yet (today is 2026-12-01 UTC)");
  });

  it("a month whose last day is today is whole: no note", () => {
    const lastOfMonth = Date.UTC(2026, 10, 30) / 86_400_000;
    expect(resolveRange({ month: "2026-11" }, lastOfMonth)).toEqual(w("2026-11-01", "2026-11-30"));
  });

  it("the note of a month in progress names both ends", () => {
    expect(resolveRange({ month: "2026-11" }, TODAY).note).toBe(
      "2026-11 is not over yet: reporting 2026-11-01..2026-11-21 (today, UTC, is partial)",
    );
  });
});

describe("--last limits", () => {
  const expected = `expected a number of days from 1 to ${MAX_LAST_DAYS} written Nd, e.g. 7d`;
  it.each([["0d"], ["3661d"], ["7"], ["d"], ["x7d"], ["7dd"], ["-1d"], ["1.5d"], ["99999999999999999999d"]])(
    "refuses --last %s with the exact message",
    (last) => {
      expect(usageMessage({ last })).toBe(`--last ${JSON.stringify(last)}: ${expected}`);
    },
  );

  it("accepts 3660d, the longest, ending yesterday", () => {
    expect(MAX_LAST_DAYS).toBe(3660);
    expect(resolveRange({ last: "3660d" }, TODAY)).toEqual(w("2016-11-13", "2026-11-20"));
  });

  it("accepts blanks around the value", () => {
    expect(resolveRange({ last: " 2d " }, TODAY)).toEqual(w("2026-11-19", "2026-11-20"));
  });

  it("accepts a number with more digits than one", () => {
    expect(resolveRange({ last: "12d" }, TODAY)).toEqual(w("2026-11-09", "2026-11-20"));
  });
});

describe("--from/--to messages and today", () => {
  it("--to today is allowed, --to tomorrow is not", () => {
    expect(resolveRange({ from: "2026-11-21", to: "2026-11-21" }, TODAY)).toEqual(w("2026-11-21", "2026-11-21"));
    expect(usageMessage({ from: "2026-11-21", to: "2026-11-22" })).toBe(
      "--to 2026-11-22 is in the future (today is 2026-11-21 UTC)",
    );
  });

  it("trims the dates and explains a malformed one", () => {
    expect(resolveRange({ from: " 2026-01-01 ", to: "2026-01-02 " }, TODAY)).toEqual(w("2026-01-01", "2026-01-02"));
    expect(usageMessage({ from: "2026-01-01x", to: "2026-01-02" })).toBe(
      '--from "2026-01-01x": expected YYYY-MM-DD, e.g. 2026-10-01',
    );
    expect(usageMessage({ from: "2026-01-01", to: " 2026-02-30 " })).toBe('--to " 2026-02-30 ": not a real calendar date');
  });

  it("the exact messages when no range or two ranges are given", () => {
    expect(usageMessage({})).toBe("a date range is required: --from <date> --to <date>, --month <YYYY-MM> or --last <N>d");
    expect(() => resolveRange({}, TODAY)).toThrow(expect.objectContaining({ hint: "e.g. --month 2026-10 or --last 7d" }));
    expect(usageMessage({ last: "1d", month: "2026-01", from: "2026-01-01" })).toBe(
      "give one date range, not --from/--to and --month and --last",
    );
  });
});

describe("parseIsoDate edges", () => {
  it.each([
    ["x2026-01-01"],
    ["2026-01-01x"],
    ["20261-01-01"],
    ["2026-001-01"],
    ["2026-01-001"],
    ["abcd-01-01"],
    ["2026-ab-01"],
    ["2026-01-ab"],
    ["2026-13-01"],
    ["2026-04-31"],
    ["0999-12-31"],
  ])("%s is not a date", (text) => {
    expect(parseIsoDate(text)).toBeUndefined();
  });

  it("1000-01-01 is the first date accepted", () => {
    expect(parseIsoDate("1000-01-01")).toBe(Date.UTC(1000, 0, 1) / 86_400_000);
  });
});

describe("rangeDays and splitIntoWindows on bad input", () => {
  it("names the bad end, quoted", () => {
    expect(() => rangeDays(w("2026-01-01", "2026-02-30"))).toThrow(
      new RangeError('endDate must be a real date YYYY-MM-DD, got "2026-02-30"'),
    );
    expect(() => rangeDays(w("nope", "2026-01-01"))).toThrow(
      new RangeError('startDate must be a real date YYYY-MM-DD, got "nope"'),
    );
  });

  it("a window of one day is allowed; zero and fractions are not, with the exact message", () => {
    expect(splitIntoWindows(w("2026-01-01", "2026-01-02"), 1)).toEqual([
      w("2026-01-01", "2026-01-01"),
      w("2026-01-02", "2026-01-02"),
    ]);
    expect(() => splitIntoWindows(w("2026-01-01", "2026-01-02"), 0)).toThrow(
      new RangeError("window size must be a positive whole number of days, not 0"),
    );
    expect(() => splitIntoWindows(w("2026-01-01", "2026-01-02"), 1.5)).toThrow(
      new RangeError("window size must be a positive whole number of days, not 1.5"),
    );
    expect(() => splitIntoWindows(w("2026-01-03", "2026-01-02"))).toThrow(
      new RangeError("startDate 2026-01-03 is after endDate 2026-01-02"),
    );
  });
});

describe("the last survivors of date-windows.ts (issue 27 item 3)", () => {
  it.each([["0050-01-01"], ["0000-01-01"], ["2026-00-00"], ["2026-01-32"], ["2026-02-99"], ["2026-99-01"], ["2026-12-00"]])(
    "%s, rolled over by Date.UTC, is not a date",
    (text) => {
      expect(parseIsoDate(text)).toBeUndefined();
    },
  );

  it("the note of a month in progress names the month trimmed", () => {
    expect(resolveRange({ month: " 2026-11 " }, TODAY).note).toBe(
      "2026-11 is not over yet: reporting 2026-11-01..2026-11-21 (today, UTC, is partial)",
    );
  });

  it("splitIntoWindows names the end that is not a date", () => {
    expect(() => splitIntoWindows(w("2026-02-30", "2026-03-01"))).toThrow(
      new RangeError('startDate must be a real date YYYY-MM-DD, got "2026-02-30"'),
    );
    expect(() => splitIntoWindows(w("2026-03-01", "2026-13-01"))).toThrow(
      new RangeError('endDate must be a real date YYYY-MM-DD, got "2026-13-01"'),
    );
  });
});
