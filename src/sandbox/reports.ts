import { eachDay, parseIsoDate } from "./dates.js";
import { REPORT_KINDS } from "../domain/report-kinds.js";
import { DEFAULT_DIALECT, type Dialect } from "./dialects.js";
import { BUILDERS, ID_PREFIX } from "./report-builders.js";
import { Draw, hash32 } from "./report-draw.js";
import { envelopeEnds, reportEnvelope } from "./report-envelopes.js";
import { defaultRoster, type ReportRoster } from "./report-roster.js";
import { styled } from "./report-styles.js";
import type { ReportKind, ReportRecord } from "./types.js";

// Report data is a pure function of (kind, date, index): every record is generated from a
// PRNG seeded by those three (report-draw.ts), so a range fetched in several windows
// concatenates to exactly the range computed in one call, and benchmarks can ask for millions
// of records without the sandbox holding them. The spec shows no report fields (§4.1); the
// shapes are ours (report-builders.ts), restyled per dialect (report-styles.ts) and wrapped in
// the dialect's envelope (report-envelopes.ts).

export { REPORT_KINDS, reportEnvelope };

export const DEFAULT_RECORDS_PER_DAY = 3;

function requireDate(name: string, text: string): number {
  const ms = parseIsoDate(text);
  if (ms === undefined) throw new RangeError(`${name} must be a real date YYYY-MM-DD, got ${JSON.stringify(text)}`);
  return ms;
}

/** The records of a report, one day after the other, generated lazily (for streaming), in a dialect's field style. */
export function* reportRecords(
  kind: ReportKind,
  startDate: string,
  endDate: string,
  version: 1 | 2,
  recordsPerDay: number = DEFAULT_RECORDS_PER_DAY,
  roster: ReportRoster = defaultRoster(),
  dialect: Dialect = DEFAULT_DIALECT,
): Generator<ReportRecord> {
  const build = BUILDERS[kind];
  const prefix = ID_PREFIX[kind];
  for (const date of eachDay(requireDate("startDate", startDate), requireDate("endDate", endDate))) {
    const idPrefix = `${prefix}-${date.replaceAll("-", "")}-`;
    const dayHash = hash32(`${kind}|${date}|`);
    for (let i = 0; i < recordsPerDay; i++) {
      const index = String(i + 1);
      const draw = new Draw(hash32(index, dayHash));
      const record = build.v1(draw, idPrefix + index.padStart(4, "0"), date, roster);
      if (version === 2) build.v2(draw, record, roster);
      yield styled(dialect.reports.fields, record);
    }
  }
}

/** The whole report for a range, computed in one go; what tests compare windowed fetches with. */
export function generateReport(
  kind: ReportKind,
  startDate: string,
  endDate: string,
  version: 1 | 2,
  recordsPerDay: number = DEFAULT_RECORDS_PER_DAY,
  dialect: Dialect = DEFAULT_DIALECT,
): ReportRecord[] {
  return [...reportRecords(kind, startDate, endDate, version, recordsPerDay, defaultRoster(), dialect)];
}

/**
 * The response body as chunks of JSON text. Default dialect: one object with exactly one
 * array of objects (`data`); v2 adds scalar metadata beside it. Other dialects: a bare array,
 * `{records}`, `{data}` or `{rows}` with scalars beside (reportEnvelope). Chunks are ~64 KiB so that huge ranges are
 * streamed instead of built as one string.
 */
export function* reportResponseChunks(
  kind: ReportKind,
  startDate: string,
  endDate: string,
  version: 1 | 2,
  recordsPerDay: number,
  generatedAt: string,
  dialect: Dialect = DEFAULT_DIALECT,
): Generator<string> {
  const [head, tail] = envelopeEnds(reportEnvelope(kind, dialect), kind, startDate, endDate, version, generatedAt);
  const parts: string[] = [head];
  let size = head.length;
  let first = true;
  for (const record of reportRecords(kind, startDate, endDate, version, recordsPerDay, defaultRoster(), dialect)) {
    const text = JSON.stringify(record);
    parts.push(first ? text : `,${text}`);
    size += text.length + 1;
    first = false;
    if (size >= 65_536) {
      yield parts.join("");
      parts.length = 0;
      size = 0;
    }
  }
  parts.push(tail);
  yield parts.join("");
}
