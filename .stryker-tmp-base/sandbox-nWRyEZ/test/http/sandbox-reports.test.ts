// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_KINDS, generateReport } from "../../src/sandbox/reports.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/server.js";

let sb: Sandbox;

beforeAll(async () => {
  // Reports are limited to 10 per minute by default; these tests send more than that.
  sb = await startSandbox({ rateLimits: { reports: { limit: 10_000, windowMs: 60_000 } } });
});
afterAll(async () => {
  await sb.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read by shape
async function report(path: string, body: unknown, key = sb.keys.full): Promise<{ status: number; json: any }> {
  const res = await fetch(sb.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe("report endpoints", () => {
  it.each(REPORT_KINDS.flatMap((kind) => [[`/report/${kind}`], [`/v2/report/${kind}`]]))(
    "%s answers one object with one array of records",
    async (path) => {
      const answer = await report(path, { startDate: "2026-01-01", endDate: "2026-01-02" });
      expect(answer.status).toBe(200);
      const arrays = Object.values(answer.json).filter(Array.isArray);
      expect(arrays).toHaveLength(1);
      expect(answer.json.data).toHaveLength(6); // 3 records a day by default
      expect(answer.json.data[0]).toMatchObject({ date: "2026-01-01", recordId: expect.any(String) });
      expect(answer.json.data.at(-1).date).toBe("2026-01-02");
    },
  );

  it("answers v1 with only `data`, v2 with the same records plus fields and metadata", async () => {
    const range = { startDate: "2026-02-10", endDate: "2026-02-11" };
    const v1 = (await report("/report/user-results", range)).json;
    const v2 = (await report("/v2/report/user-results", range)).json;
    expect(Object.keys(v1)).toEqual(["data"]);
    expect(v2).toMatchObject({
      reportType: "user-results",
      startDate: "2026-02-10",
      endDate: "2026-02-11",
      generatedAt: expect.any(String),
    });
    v1.data.forEach((record: Record<string, unknown>, i: number) => {
      expect(v2.data[i]).toMatchObject(record);
      expect(Object.keys(v2.data[i]).length).toBeGreaterThan(Object.keys(record).length);
    });
  });

  it("splits 2026-01-01..03-31 into three windows whose records equal the whole range computed at once", async () => {
    const windows = [
      ["2026-01-01", "2026-01-30"],
      ["2026-01-31", "2026-03-01"],
      ["2026-03-02", "2026-03-31"],
    ];
    for (const version of [1, 2] as const) {
      const merged: unknown[] = [];
      for (const [startDate, endDate] of windows) {
        const path = version === 1 ? "/report/teams-result" : "/v2/report/teams-result";
        merged.push(...(await report(path, { startDate, endDate })).json.data);
      }
      expect(merged).toEqual(generateReport("teams-result", "2026-01-01", "2026-03-31", version));
      expect(merged).toHaveLength(90 * 3);
    }
  });

  it("answers the same records for the same request twice", async () => {
    const a = await report("/v2/report/syms", { startDate: "2026-04-01", endDate: "2026-04-03" });
    const b = await report("/v2/report/syms", { startDate: "2026-04-01", endDate: "2026-04-03" });
    expect(a.json.data).toEqual(b.json.data);
  });

  it.each([
    ["2026-01-01", "2026-01-30", 200], // endDate − startDate = 29 days: 30 days inclusive
    ["2026-01-01", "2026-01-31", 400], // 30 days difference: 31 days inclusive
    ["2026-02-01", "2026-03-02", 200], // 29 days across a short month
    ["2026-02-01", "2026-03-03", 400],
    ["2026-01-05", "2026-01-05", 200], // one day
  ])("30-day rule: %s..%s answers %i", async (startDate, endDate, status) => {
    const v1 = await report("/report/users", { startDate, endDate });
    const v2 = await report("/v2/report/users", { startDate, endDate });
    expect([v1.status, v2.status]).toEqual([status, status]);
    if (status === 400) expect(v2.json.error.message).toContain("at most 30 days");
  });

  it.each([
    [{ endDate: "2026-01-02" }, "startDate is required"],
    [{ startDate: "2026-01-01" }, "endDate is required"],
    [{ startDate: "2026-02-30", endDate: "2026-03-01" }, "startDate must be a real date"],
    [{ startDate: "2026-1-1", endDate: "2026-01-02" }, "startDate must be a real date"],
    [{ startDate: "2026-01-01T00:00:00Z", endDate: "2026-01-02" }, "startDate must be a real date"],
    [{ startDate: 20260101, endDate: "2026-01-02" }, "startDate must be a string"],
    [{ startDate: "2026-01-10", endDate: "2026-01-09" }, "endDate must not be before startDate"],
  ])("answers 400 for %j", async (body, message) => {
    const answer = await report("/v2/report/modules-results", body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringContaining(message) });
  });

  it("streams a large window completely", async () => {
    const big = await startSandbox({ reportRecordsPerDay: 500, rateLimits: { reports: { limit: 100, windowMs: 1000 } } });
    try {
      const res = await fetch(`${big.baseUrl}/v2/report/user-results`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${big.keys.full}` },
        body: JSON.stringify({ startDate: "2026-01-01", endDate: "2026-01-30" }),
      });
      expect(res.headers.get("content-length")).toBeNull(); // chunked, not one giant string
      const json = (await res.json()) as { data: { recordId: string }[] };
      expect(json.data).toHaveLength(15_000);
      expect(json.data.at(-1)?.recordId).toBe("usrres-20260130-0500");
    } finally {
      await big.close();
    }
  });
});
