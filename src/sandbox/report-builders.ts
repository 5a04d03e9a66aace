import type { Draw } from "./report-draw.js";
import type { ReportRoster } from "./report-roster.js";
import type { ReportKind, ReportRecord } from "./types.js";

// What a record of each report kind holds, drawn field by field. The spec shows no report
// fields (docs/service-spec.md §4.1): these shapes are ours, nested on purpose so that clients
// exercise flattening.

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

interface Builder {
  /** The v1 record; `recordId` and `date` come first. */
  v1(d: Draw, recordId: string, date: string, roster: ReportRoster): ReportRecord;
  /** Adds the v2 fields to a v1 record, drawing after the v1 fields (docs/service-spec.md §9.3: v2 keeps v1 and adds). */
  v2(d: Draw, record: ReportRecord, roster: ReportRoster): void;
}

export const BUILDERS: Record<ReportKind, Builder> = {
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
      const trainingPlan = d.pick(PLANS);
      const user = d.pick(r.users);
      const total = d.int(3, 12);
      const done = d.int(0, total);
      return {
        recordId,
        date,
        plan: { id: trainingPlan.id, name: trainingPlan.name },
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

/** Record ids: `<prefix>-<yyyymmdd>-<index>`. */
export const ID_PREFIX: Record<ReportKind, string> = {
  "syms-result": "symres",
  "user-results": "usrres",
  "training-plan-result": "tpres",
  "modules-results": "modres",
  syms: "sym",
  users: "usr",
  "teams-result": "teamres",
};
