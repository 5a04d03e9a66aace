// @ts-nocheck
import { eachDay, parseIsoDate } from "./dates.js";
import { loadSeed } from "./seed.js";
import { REPORT_KINDS } from "../domain/report-kinds.js";
import { DEFAULT_DIALECT, type Dialect, type ReportEnvelope, type ReportFieldStyle } from "./dialects.js";

// Report data is a pure function of (kind, date, index): every record is generated from a
// PRNG seeded by those three, so a range fetched in several windows concatenates to exactly
// the range computed in one call, and benchmarks can ask for millions of records without
// the sandbox holding them. The spec shows no report fields (§4.1); these shapes are ours,
// nested on purpose so that clients exercise flattening.

export { REPORT_KINDS };
export type ReportKind = (typeof REPORT_KINDS)[number];

export const DEFAULT_RECORDS_PER_DAY = 3;

export type ReportRecord = Record<string, unknown>;

export interface ReportRoster {
  users: { id: string; name: string; team: string }[];
  teams: { id: string; name: string }[];
  simulations: { id: string; title: string; type: string }[];
}

// Names with a comma, an apostrophe, a non-ASCII letter and a leading "+" or "=" so that
// CSV quoting and formula neutralising are exercised by real data.
const MODULES = [
  { id: "mod-01", name: "Opening the Conversation" },
  { id: "mod-02", name: "Objections, Part 2" },
  { id: "mod-03", name: "+1 Upsell Techniques" },
  { id: "mod-04", name: "Empathy Under Pressure" },
  { id: "mod-05", name: "=Policy Basics" },
  { id: "mod-06", name: "Closing Strong" },
];
const PLANS = [
  { id: "plan-01", name: "New Hire Ramp-Up" },
  { id: "plan-02", name: "Sales Excellence, Q1" },
  { id: "plan-03", name: "Support Certification" },
  { id: "plan-04", name: "Leaders' Essentials" },
];
const GROUPS = [
  { id: "group-all", name: "All Trainees" },
  { id: "group-new", name: "Joined < 90 days" },
  { id: "group-emea", name: "EMEA Région" },
];
const KEYWORDS = ["budget", "timeline", "empathy", "next steps", "value", "refund"];

let cachedRoster: ReportRoster | undefined;

/** The org-demo roster from the seed; reports carry no organizationId, so one org is used. */
export function defaultRoster(): ReportRoster {
  if (cachedRoster) return cachedRoster;
  const seed = loadSeed();
  cachedRoster = {
    users: seed.users
      .filter((u) => u.organizationId === "org-demo")
      .map((u) => ({ id: u.userId, name: `${u.firstName} ${u.lastName}`, team: u.teamName ?? "" })),
    teams: seed.teams.filter((t) => t.organizationId === "org-demo").map((t) => ({ id: t.id, name: t.name })),
    simulations: seed.simulations
      .filter((s) => s.organizationId === "org-demo")
      .map((s) => ({ id: s.id, title: s.title, type: s.type })),
  };
  return cachedRoster;
}

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a, 32 bits, continuing from `h` so that a common prefix is hashed once. */
function hash32(text: string, h = FNV_OFFSET): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Deterministic draws from mulberry32: small, fast and good enough for fake data. */
class Draw {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  score(min = 40, max = 100): number {
    return Math.round((min + this.next() * (max - min)) * 100) / 100;
  }
  ratio(): number {
    return Math.round(this.next() * 10_000) / 10_000;
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("sandbox roster is empty");
    return item;
  }
}

interface Builder {
  /** The v1 record; `recordId` and `date` come first. */
  v1(d: Draw, recordId: string, date: string, roster: ReportRoster): ReportRecord;
  /** Adds the v2 fields to a v1 record, drawing after the v1 fields (docs/service-spec.md §9.3: v2 keeps v1 and adds). */
  v2(d: Draw, record: ReportRecord, roster: ReportRoster): void;
}

const BUILDERS: Record<ReportKind, Builder> = {
  "syms-result": {
    v1: (d, recordId, date, r) => {
      const sym = d.pick(r.simulations);
      const sessions = d.int(1, 40);
      return {
        recordId,
        date,
        sym: { id: sym.id, title: sym.title, type: sym.type },
        system: { sessions, completions: d.int(0, sessions), avgScore: d.score(), avgCompletionTime: d.int(180, 1800) },
      };
    },
    v2: (d, rec) => {
      rec["scores"] = { symScore: d.score(), accuracyScore: d.score(), keywordScore: d.score() };
      rec["errorRate"] = d.ratio();
    },
  },
  "user-results": {
    v1: (d, recordId, date, r) => {
      const user = d.pick(r.users);
      const sym = d.pick(r.simulations);
      const attempts = d.int(1, 5);
      return {
        recordId,
        date,
        user: { id: user.id, name: user.name, team: user.team },
        simulation: { id: sym.id, title: sym.title },
        attempts,
        completed: d.int(0, attempts),
        bestScore: d.score(),
      };
    },
    v2: (d, rec) => {
      rec["scores"] = { symScore: d.score(), accuracyScore: d.score(), keywordScore: d.score(), clickScore: d.score() };
      rec["completionTime"] = d.int(120, 1800);
    },
  },
  "training-plan-result": {
    v1: (d, recordId, date, r) => {
      const plan = d.pick(PLANS);
      const user = d.pick(r.users);
      const total = d.int(3, 12);
      const done = d.int(0, total);
      return {
        recordId,
        date,
        plan: { id: plan.id, name: plan.name },
        user: { id: user.id, name: user.name, team: user.team },
        progress: { completedModules: done, totalModules: total, percent: Math.round((done / total) * 100) },
        status: done === 0 ? "NOT_STARTED" : done === total ? "COMPLETED" : "IN_PROGRESS",
      };
    },
    v2: (d, rec) => {
      rec["dueInDays"] = d.int(0, 60);
      rec["overdue"] = d.int(0, 4) === 0;
    },
  },
  "modules-results": {
    v1: (d, recordId, date) => {
      const mod = d.pick(MODULES);
      const attempts = d.int(1, 60);
      return {
        recordId,
        date,
        module: { id: mod.id, name: mod.name },
        metrics: { attempts, completions: d.int(0, attempts), avgScore: d.score() },
      };
    },
    v2: (d, rec) => {
      rec["passRate"] = d.ratio();
      rec["medianScore"] = d.score();
    },
  },
  syms: {
    v1: (d, recordId, date, r) => {
      const sym = d.pick(r.simulations);
      const launches = d.int(1, 80);
      return {
        recordId,
        date,
        sym: { id: sym.id, title: sym.title, type: sym.type },
        insights: { launches, uniqueUsers: d.int(1, launches), avgDurationMinutes: d.int(3, 30) },
      };
    },
    v2: (d, rec) => {
      rec["topKeyword"] = d.pick(KEYWORDS);
      rec["dropOffRate"] = d.ratio();
    },
  },
  users: {
    v1: (d, recordId, date) => {
      const group = d.pick(GROUPS);
      const total = d.int(5, 200);
      const active = d.int(0, total);
      return {
        recordId,
        date,
        group: { id: group.id, name: group.name },
        users: { total, active, inactive: total - active },
        metrics: { attempts: d.int(0, total * 3), avgScore: d.score() },
      };
    },
    v2: (d, rec) => {
      rec["newUsers"] = d.int(0, 10);
      rec["avgSessionMinutes"] = d.int(2, 45);
    },
  },
  "teams-result": {
    v1: (d, recordId, date, r) => {
      const team = d.pick(r.teams);
      return {
        recordId,
        date,
        team: { id: team.id, name: team.name },
        metrics: { members: d.int(2, 30), attempts: d.int(0, 90), avgScore: d.score(), passRate: d.ratio() },
      };
    },
    v2: (d, rec, r) => {
      rec["trend"] = d.pick(["up", "down", "flat"]);
      rec["rank"] = d.int(1, r.teams.length);
    },
  },
};

const ID_PREFIX: Record<ReportKind, string> = {
  "syms-result": "symres",
  "user-results": "usrres",
  "training-plan-result": "tpres",
  "modules-results": "modres",
  syms: "sym",
  users: "usr",
  "teams-result": "teamres",
};

function requireDate(name: string, text: string): number {
  const ms = parseIsoDate(text);
  if (ms === undefined) throw new RangeError(`${name} must be a real date YYYY-MM-DD, got ${JSON.stringify(text)}`);
  return ms;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The public dialect's records, e.g. for users: `date, groupId, name, stats.{total, active,
 * …, avgScore}, …, note` — flat ids and names, every number under `stats`, a free-text
 * `note` last. Derived from the default record so that every kind has one.
 */
function publicRecord(record: ReportRecord): ReportRecord {
  const out: ReportRecord = { date: record["date"] };
  const stats: Record<string, unknown> = {};
  const rest: ReportRecord = {};
  let named = false;
  const place = (target: Record<string, unknown>, key: string, parent: string, value: unknown): void => {
    target[key in target || key in out ? `${parent}${capitalized(key)}` : key] = value;
  };
  for (const [key, value] of Object.entries(record)) {
    if (key === "recordId" || key === "date") continue;
    if (isObject(value)) {
      const label = value["name"] ?? value["title"];
      if (typeof value["id"] === "string") out[`${key}Id`] = value["id"];
      if (typeof label === "string") {
        if (named) out[`${key}Name`] = label;
        else out["name"] = label;
        named = true;
      }
      for (const [inner, leaf] of Object.entries(value)) {
        if (inner === "id" || inner === "name" || inner === "title") continue;
        place(typeof leaf === "number" ? stats : rest, inner, key, leaf);
      }
    } else if (typeof value === "number") place(stats, key, "", value);
    else place(rest, key, "", value);
  }
  const note = `${String(out["name"] ?? "")} on ${String(record["date"])}: ${Object.keys(stats).length} figures, see the dashboard for details`;
  return { ...out, stats, ...rest, note };
}

function snakeCase(text: string): string {
  return text.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The terse dialect's records: flat snake_case (`day`, `id`, `group_name`, `metrics_avg_score`). */
function terseRecord(record: ReportRecord, prefix = "", out: ReportRecord = {}): ReportRecord {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix === "" ? ({ date: "day", recordId: "id" }[key] ?? snakeCase(key)) : `${prefix}_${snakeCase(key)}`;
    if (isObject(value)) terseRecord(value, name, out);
    else out[name] = value;
  }
  return out;
}

function styled(style: ReportFieldStyle, record: ReportRecord): ReportRecord {
  if (style === "public") return publicRecord(record);
  if (style === "terse") return terseRecord(record);
  return record;
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

/** The envelope a dialect wraps this kind's records in (one per kind, cycling through the dialect's list). */
export function reportEnvelope(kind: ReportKind, dialect: Dialect = DEFAULT_DIALECT): ReportEnvelope {
  const list = dialect.reports.envelopes;
  return list[REPORT_KINDS.indexOf(kind) % list.length] ?? "default";
}

function envelopeEnds(
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
