// @ts-nocheck
import { describe, expect, it } from "vitest";
import { daysBetween, parseIsoDate } from "../../src/sandbox/dates.js";
import { REPORT_KINDS, generateReport, reportResponseChunks } from "../../src/sandbox/reports.js";

describe("generateReport", () => {
  it.each(REPORT_KINDS)("%s: records per day, in date order, with unique ids", (kind) => {
    const records = generateReport(kind, "2026-01-30", "2026-02-02", 1);
    expect(records).toHaveLength(4 * 3);
    expect(records.map((r) => r["date"])).toEqual(
      ["2026-01-30", "2026-01-31", "2026-02-01", "2026-02-02"].flatMap((d) => [d, d, d]),
    );
    expect(new Set(records.map((r) => r["recordId"])).size).toBe(records.length);
    expect(records.some((r) => Object.values(r).some((v) => typeof v === "object" && v !== null))).toBe(true);
  });

  it.each(REPORT_KINDS)("%s: a day's records do not depend on the range around it", (kind) => {
    const whole = generateReport(kind, "2026-03-01", "2026-03-10", 2);
    const parts = [
      ...generateReport(kind, "2026-03-01", "2026-03-04", 2),
      ...generateReport(kind, "2026-03-05", "2026-03-10", 2),
    ];
    expect(parts).toEqual(whole);
  });

  it.each(REPORT_KINDS)("%s: v2 records keep every v1 field and add some", (kind) => {
    const v1 = generateReport(kind, "2026-05-01", "2026-05-02", 1);
    const v2 = generateReport(kind, "2026-05-01", "2026-05-02", 2);
    v1.forEach((record, i) => {
      expect(v2[i]).toMatchObject(record);
      expect(Object.keys(v2[i] ?? {}).length).toBeGreaterThan(Object.keys(record).length);
    });
  });

  it("honours recordsPerDay", () => {
    expect(generateReport("users", "2026-01-01", "2026-01-01", 1, 250)).toHaveLength(250);
    expect(generateReport("users", "2026-01-01", "2026-01-01", 1, 0)).toEqual([]);
  });

  it("differs between kinds and days", () => {
    const a = generateReport("users", "2026-01-01", "2026-01-01", 1);
    const b = generateReport("users", "2026-01-02", "2026-01-02", 1);
    expect(a.map((r) => r["metrics"])).not.toEqual(b.map((r) => r["metrics"]));
  });

  it("rejects dates that are not real", () => {
    expect(() => generateReport("users", "2026-02-29", "2026-03-01", 1)).toThrow(RangeError);
  });
});

describe("reportResponseChunks", () => {
  it("streams one JSON object whose data equals generateReport (v1 and v2)", () => {
    const v1 = JSON.parse(
      [...reportResponseChunks("syms", "2026-01-01", "2026-01-30", 1, 100, "2026-06-01T00:00:00.000Z")].join(""),
    );
    expect(v1).toEqual({ data: generateReport("syms", "2026-01-01", "2026-01-30", 1, 100) });
    const chunks = [...reportResponseChunks("syms", "2026-01-01", "2026-01-30", 2, 100, "2026-06-01T00:00:00.000Z")];
    expect(chunks.length).toBeGreaterThan(10);
    const v2 = JSON.parse(chunks.join(""));
    expect(v2).toEqual({
      reportType: "syms",
      startDate: "2026-01-01",
      endDate: "2026-01-30",
      generatedAt: "2026-06-01T00:00:00.000Z",
      data: generateReport("syms", "2026-01-01", "2026-01-30", 2, 100),
    });
  });

  it("writes an empty data array for zero records", () => {
    expect(JSON.parse([...reportResponseChunks("users", "2026-01-01", "2026-01-02", 1, 0, "x")].join(""))).toEqual({ data: [] });
  });
});

describe("sandbox dates", () => {
  it.each([
    ["2026-01-01", true],
    ["2024-02-29", true],
    ["2026-02-29", false],
    ["2026-13-01", false],
    ["2026-1-01", false],
    ["", false],
  ])("%s is a real date: %s", (text, ok) => {
    expect(parseIsoDate(text) !== undefined).toBe(ok);
  });

  it("counts days across DST-free UTC midnights", () => {
    expect(daysBetween(parseIsoDate("2026-03-01") ?? 0, parseIsoDate("2026-03-30") ?? 0)).toBe(29);
  });
});
