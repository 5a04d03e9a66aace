import { UsageError } from "../errors.js";
import type { REPORT_KINDS } from "./report-kinds.js";

type ReportKind = (typeof REPORT_KINDS)[number];

// The columns each report kind has, as tables and CSV name them (nested objects flattened to
// dotted names; docs/cli-contract.md "Records of unknown shape"). docs/service-spec.md marks
// the report fields "not shown"; these are the ones the service's reports carry as the
// sandbox reproduces them (src/sandbox/reports.ts; test/unit/report-columns.test.ts keeps the
// two equal). They let `--fields` be checked before anything is sent, the same way for every
// format (issue 15 item 4), and give an empty report its CSV header.

const V1: Record<ReportKind, readonly string[]> = {
  "syms-result": [
    "recordId",
    "date",
    "sym.id",
    "sym.title",
    "sym.type",
    "system.sessions",
    "system.completions",
    "system.avgScore",
    "system.avgCompletionTime",
  ],
  "user-results": [
    "recordId",
    "date",
    "user.id",
    "user.name",
    "user.team",
    "simulation.id",
    "simulation.title",
    "attempts",
    "completed",
    "bestScore",
  ],
  "training-plan-result": [
    "recordId",
    "date",
    "plan.id",
    "plan.name",
    "user.id",
    "user.name",
    "user.team",
    "progress.completedModules",
    "progress.totalModules",
    "progress.percent",
    "status",
  ],
  "modules-results": [
    "recordId",
    "date",
    "module.id",
    "module.name",
    "metrics.attempts",
    "metrics.completions",
    "metrics.avgScore",
  ],
  syms: [
    "recordId",
    "date",
    "sym.id",
    "sym.title",
    "sym.type",
    "insights.launches",
    "insights.uniqueUsers",
    "insights.avgDurationMinutes",
  ],
  users: [
    "recordId",
    "date",
    "group.id",
    "group.name",
    "users.total",
    "users.active",
    "users.inactive",
    "metrics.attempts",
    "metrics.avgScore",
  ],
  "teams-result": [
    "recordId",
    "date",
    "team.id",
    "team.name",
    "metrics.members",
    "metrics.attempts",
    "metrics.avgScore",
    "metrics.passRate",
  ],
};

/** Version 2 keeps every version 1 column and adds these (docs/service-spec.md §9.3). */
const V2_ADDED: Record<ReportKind, readonly string[]> = {
  "syms-result": ["scores.symScore", "scores.accuracyScore", "scores.keywordScore", "errorRate"],
  "user-results": ["scores.symScore", "scores.accuracyScore", "scores.keywordScore", "scores.clickScore", "completionTime"],
  "training-plan-result": ["dueInDays", "overdue"],
  "modules-results": ["passRate", "medianScore"],
  syms: ["topKeyword", "dropOffRate"],
  users: ["newUsers", "avgSessionMinutes"],
  "teams-result": ["trend", "rank"],
};

/** Every column of a kind in an API version, in the order the records carry them; undefined when not known. */
export function knownReportColumns(kind: ReportKind, apiVersion: 1 | 2): readonly string[] | undefined {
  const v1: readonly string[] | undefined = V1[kind];
  const added: readonly string[] = V2_ADDED[kind] ?? [];
  if (!v1) return undefined;
  return apiVersion === 1 ? v1 : [...v1, ...added];
}

/**
 * Checks --fields against a kind's known columns before anything is sent: exit 2 naming the
 * unknown ones and listing the known ones. A name that is the prefix of nested columns
 * (`group`) is refused too, in every format, with the columns it stands for.
 */
export function checkReportFields(kind: ReportKind, apiVersion: 1 | 2, fields: readonly string[] | undefined): void {
  const known = knownReportColumns(kind, apiVersion);
  if (!fields || !known) return;
  const unknown = fields.filter((field) => !known.includes(field));
  if (unknown.length === 0) return;
  const first = unknown[0] ?? "";
  const nested = known.filter((column) => column.startsWith(`${first}.`));
  const notInV1 = apiVersion === 1 && unknown.every((field) => knownReportColumns(kind, 2)?.includes(field));
  throw new UsageError(
    `unknown field${unknown.length > 1 ? "s" : ""} for --fields of \`${kind}\`: ${unknown.join(", ")}; known fields: ${known.join(", ")}`,
    {
      hint: nested.length
        ? `'${first}' is a group of columns: name them, e.g. --fields ${nested.join(",")}`
        : notInV1
          ? "these columns exist in API version 2 only"
          : "see them all with -o csv (the header) or -o json",
    },
  );
}

/**
 * The columns a terminal table shows first, most telling first (issue 15 item 2): as many as
 * fit the terminal's width are shown, the rest are one `--fields` or `-o csv` away. The
 * record id and the dotted ids are left to CSV and JSON.
 */
const TABLE_COLUMNS: Record<ReportKind, readonly string[]> = {
  "syms-result": ["date", "sym.title", "system.sessions", "system.completions", "system.avgScore", "system.avgCompletionTime"],
  "user-results": ["date", "user.name", "simulation.title", "attempts", "completed", "bestScore"],
  "training-plan-result": ["date", "user.name", "plan.name", "status", "progress.percent"],
  "modules-results": ["date", "module.name", "metrics.attempts", "metrics.completions", "metrics.avgScore"],
  syms: ["date", "sym.title", "insights.launches", "insights.uniqueUsers", "insights.avgDurationMinutes"],
  users: ["date", "group.name", "users.total", "users.active", "users.inactive", "metrics.avgScore"],
  "teams-result": ["date", "team.name", "metrics.members", "metrics.attempts", "metrics.avgScore", "metrics.passRate"],
};

/** The columns a table shows first for a kind, in order (see TABLE_COLUMNS). */
export function reportTableColumns(kind: ReportKind): readonly string[] {
  return TABLE_COLUMNS[kind];
}
