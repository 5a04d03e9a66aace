import { REPORT_KINDS } from "../domain/report-kinds.js";
import { DEFAULT_DIALECT, type Dialect, type ReportEnvelope } from "./dialects.js";
import type { ReportKind } from "./types.js";

// The JSON around a report's records: which envelope a dialect uses for a kind, and its text
// before and after the records (reports.ts streams the records between the two).

/** The envelope a dialect wraps this kind's records in (one per kind, cycling through the dialect's list). */
export function reportEnvelope(kind: ReportKind, dialect: Dialect = DEFAULT_DIALECT): ReportEnvelope {
  const list = dialect.reports.envelopes;
  return list[REPORT_KINDS.indexOf(kind) % list.length] ?? "default";
}

/** The envelope's text before and after the records. */
export function envelopeEnds(
  envelope: ReportEnvelope,
  kind: ReportKind,
  startDate: string,
  endDate: string,
  version: 1 | 2,
  generatedAt: string,
): [string, string] {
  const q = JSON.stringify;
  switch (envelope) {
    case "bare":
      return ["[", "]"];
    case "records":
      return [`{"report":${q(kind)},"from":${q(startDate)},"to":${q(endDate)},"records":[`, "]}"];
    case "data":
      return [`{"data":[`, "]}"];
    case "rows":
      return [`{"rows":[`, `],"generated":${q(generatedAt)}}`];
    case "default":
      return version === 2
        ? [
            `{"reportType":${q(kind)},"startDate":${q(startDate)},"endDate":${q(endDate)},"generatedAt":${q(generatedAt)},"data":[`,
            "]}",
          ]
        : [`{"data":[`, "]}"];
  }
}
