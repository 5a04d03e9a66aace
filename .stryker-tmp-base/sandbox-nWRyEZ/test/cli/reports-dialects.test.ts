// @ts-nocheck
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flattenRecord } from "../../src/domain/records.js";
import { generateReport, reportEnvelope } from "../../src/sandbox/reports.js";
import { FAST, MATRIX_DIALECTS, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// Report records arrive whatever the service names, nests and wraps them in (issue 21 item 6):
// `reports <kind> -o json/csv` against each dialect. The expectations come from the dialect's
// own generateReport, never from a field name written here.

const RANGE = ["--from", "2025-02-01", "--to", "2025-02-02"];
const KINDS = ["users", "syms-result"] as const;

describe.each(MATRIX_DIALECTS)("reports against the %s dialect", (dialect) => {
  let t: TestEnv;
  beforeAll(async () => {
    t = await startTestEnv({ rateLimits: { reports: { limit: 10_000, windowMs: 1000 } }, dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(KINDS)("%s -o json: every record as the service sent it", async (kind) => {
    const expected = generateReport(kind, "2025-02-01", "2025-02-02", 2, 3, t.sandbox.dialect);
    const r = await t.run(["reports", kind, ...RANGE, "-o", "json"], { env: FAST });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it.each(KINDS)("%s -o csv: one row a record, columns named as the service names them", async (kind) => {
    const expected = generateReport(kind, "2025-02-01", "2025-02-02", 2, 3, t.sandbox.dialect).map((rec) => flattenRecord(rec));
    const r = await t.run(["reports", kind, ...RANGE, "-o", "csv"], { env: FAST });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = parse<Record<string, string>>(r.stdout, { columns: true });
    expect(rows).toHaveLength(expected.length);
    // A numeric column of this dialect's own (e.g. `stats.attempts`, `metrics_avg_score`): same value per row.
    const first = expected[0] ?? {};
    const numeric = Object.keys(first).filter((k) => typeof first[k] === "number");
    expect(numeric.length).toBeGreaterThan(0);
    for (const column of numeric.slice(0, 2)) {
      expect(rows.map((row) => row[column])).toEqual(expected.map((rec) => String(rec[column])));
    }
  });

  it("the dialect really wraps the kinds differently (not one envelope for all)", () => {
    const envelopes = new Set(KINDS.map((kind) => reportEnvelope(kind, t.sandbox.dialect)));
    expect(envelopes.size).toBe(dialect === "default" ? 1 : 2);
  });
});
