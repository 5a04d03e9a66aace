import { describe, expect, it } from "vitest";
import { knownReportColumns } from "../../src/domain/report-columns.js";
import { REPORT_KINDS } from "../../src/domain/report-kinds.js";
import { flattenRecord } from "../../src/domain/records.js";
import { reportRecords } from "../../src/sandbox/reports.js";

// The known report columns (src/domain/report-columns.ts) are the sandbox's: if the sandbox's
// report generator gains or loses a column, this fails until the two agree again.

describe("known report columns", () => {
  it.each(REPORT_KINDS.flatMap((kind) => ([1, 2] as const).map((version) => [kind, version] as const)))(
    "%s v%i: exactly the columns the sandbox's records carry, in their order",
    (kind, version) => {
      const seen = new Set<string>();
      for (const record of reportRecords(kind, "2026-10-01", "2026-10-07", version, 5)) {
        for (const column of Object.keys(flattenRecord(record))) seen.add(column);
      }
      expect(knownReportColumns(kind, version)).toEqual([...seen]);
    },
  );
});
