import { classifyAttempt, completedAtMs, summarizeAttempts, type AttemptLike } from "./simulation-attempts.js";

// `progress --from-csv` (docs/cli-contract.md "Progress"): the pure rules — the
// assignment file's rows, a pair's state from its attempts, the order pairs are asked in,
// and the time the access budget needs. No network, clock or files here.

export const PROGRESS_STATES = ["completed", "in-progress", "not-started", "overdue"] as const;
export type ProgressState = (typeof PROGRESS_STATES)[number];

/** The columns every record has, in this order; the file's other columns follow. */
export const PROGRESS_COLUMNS = ["userId", "simulationId", "state", "completedAt", "bestScore", "attempts", "dueDate"] as const;

export interface ProgressRow {
  /** Spreadsheet row number (header = 1). */
  row: number;
  userId: string;
  simulationId: string;
  /** YYYY-MM-DD, or undefined when the file has no dueDate column or the cell is empty. */
  dueDate: string | undefined;
  /** Every other column of the file, by its header name, as read. */
  extra: Record<string, string>;
}

export interface ProgressProblem {
  row: number;
  field: string;
  message: string;
}

export interface ProgressHeader {
  userId: number;
  simulationId: number;
  /** -1 when the file has no dueDate column. */
  dueDate: number;
  /** Header names in file order. */
  names: string[];
}

const DAY_MS = 86_400_000;

/** Milliseconds of 00:00 UTC of a real calendar date `YYYY-MM-DD`, else undefined. */
export function parseDueDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Date.UTC rolls 2026-02-30 over to 2026-03-02 and 2026-13-01 to 2027-01-01: a real date
  // is written back as it was given.
  return new Date(ms).toISOString().slice(0, 10) === text ? ms : undefined;
}

/**
 * Checks rows in order, like the bulk files (domain/bulk-rows.ts): both ids present, the
 * row as wide as the header, a real YYYY-MM-DD dueDate when one is given, each pair once.
 * Blank rows are skipped.
 */
export class ProgressRowChecker {
  readonly rows: ProgressRow[] = [];
  readonly problems: ProgressProblem[] = [];
  private readonly seen = new Map<string, number>();

  constructor(private readonly header: ProgressHeader) {}

  add(cells: readonly string[], row: number): void {
    if (cells.every((c) => c.trim() === "")) return;
    const before = this.problems.length;
    const { header } = this;
    if (cells.length !== header.names.length) {
      this.problems.push({ row, field: "(row)", message: `has ${cells.length} cells, the header has ${header.names.length}` });
    }
    const userId = (cells[header.userId] ?? "").trim();
    const simulationId = (cells[header.simulationId] ?? "").trim();
    // No dueDate column (-1) reads no cell.
    const due = (cells[header.dueDate] ?? "").trim();
    if (userId === "") this.problems.push({ row, field: "userId", message: "is empty" });
    if (simulationId === "") this.problems.push({ row, field: "simulationId", message: "is empty" });
    if (due !== "" && parseDueDate(due) === undefined) {
      this.problems.push({
        row,
        field: "dueDate",
        message: `${JSON.stringify(due.slice(0, 30))} is not a date YYYY-MM-DD (e.g. 2026-12-31)`,
      });
    }
    if (userId !== "" && simulationId !== "") {
      const key = JSON.stringify([userId, simulationId]);
      const first = this.seen.get(key);
      if (first !== undefined) {
        this.problems.push({ row, field: "(row)", message: `repeats the pair ${userId} / ${simulationId} of row ${first}` });
      } else this.seen.set(key, row);
    }
    if (this.problems.length !== before) return;
    const extra: Record<string, string> = {};
    header.names.forEach((name, i) => {
      // Stryker disable next-line StringLiteral: never read — a row reaches here only as wide as its header
      if (i !== header.userId && i !== header.simulationId && i !== header.dueDate) extra[name] = cells[i] ?? "";
    });
    this.rows.push({ row, userId, simulationId, dueDate: due === "" ? undefined : due, extra });
  }
}

/** What completion-data told about one pair (or what the cache kept of a completed one). */
export interface PairFacts {
  completed: boolean;
  /** Attempts neither completed nor null-null inconsistent: started or interrupted ones. */
  incomplete: number;
  attempts: number;
  /** The first completion (earliest completedAt). */
  completedAt: string | null;
  bestScore: number | null;
}

/**
 * The facts of one pair from its attempts (docs/service-spec.md §2: completed = both completedAt
 * and completionTime). For progress a completion must also say when: a completedAt that is no
 * timestamp (`" "`, `"null"`) would make a pair completed — and cached for good — on nothing
 * (docs/progress.md); such an attempt counts as not completed.
 */
export function pairFacts(attempts: readonly AttemptLike[]): PairFacts {
  const summary = summarizeAttempts(attempts);
  let first: { at: number; text: string } | undefined;
  let unreadable = 0;
  for (const attempt of attempts) {
    if (classifyAttempt(attempt) !== "completed") continue;
    const at = completedAtMs(attempt);
    if (at === undefined) {
      unreadable++;
      continue;
    }
    if (!first || at < first.at) first = { at, text: attempt.completedAt ?? "" };
  }
  return {
    completed: first !== undefined,
    incomplete: summary.incomplete + summary.inconsistent + unreadable,
    attempts: summary.attempts,
    completedAt: first?.text ?? null,
    bestScore: summary.bestScore,
  };
}

/**
 * completed when a completed attempt exists; otherwise overdue past the due date (the
 * whole due day counts: overdue from 00:00 UTC the day after); otherwise in-progress when
 * attempts exist — under version 1, which returns completed attempts only (docs/service-spec.md
 * §9.4), nothing shows an attempt in progress, so the pair is not-started.
 */
export function pairState(
  facts: PairFacts | undefined,
  dueDate: string | undefined,
  nowMs: number,
  apiVersion: 1 | 2,
): ProgressState {
  if (facts?.completed) return "completed";
  if (isOverdue(dueDate, nowMs)) return "overdue";
  if (facts && apiVersion === 2 && facts.attempts > 0) return "in-progress";
  return "not-started";
}

/** 00:00 UTC of the due date; no (readable) due date is due never. */
function dueMs(dueDate: string | undefined): number {
  // Stryker disable next-line ConditionalExpression: parseDueDate refuses the text "undefined" too; the test is for the types
  return (dueDate === undefined ? undefined : parseDueDate(dueDate)) ?? Number.POSITIVE_INFINITY;
}

export function isOverdue(dueDate: string | undefined, nowMs: number): boolean {
  return nowMs >= dueMs(dueDate) + DAY_MS;
}

/** Due within `days` days from now (and not yet overdue). */
export function isDueSoon(dueDate: string | undefined, nowMs: number, days: number): boolean {
  return !isOverdue(dueDate, nowMs) && dueMs(dueDate) + DAY_MS - nowMs <= days * DAY_MS;
}

/**
 * The order pairs are asked in: overdue first, then due soon (earliest due date first),
 * then the rest in file order — a run stopped by Ctrl-C or the budget has learned the
 * answers that matter most.
 */
export function askOrder<T extends { row: number; dueDate: string | undefined }>(
  rows: readonly T[],
  nowMs: number,
  dueSoonDays: number,
): T[] {
  const rank = (r: T): number => (isOverdue(r.dueDate, nowMs) ? 0 : isDueSoon(r.dueDate, nowMs, dueSoonDays) ? 1 : 2);
  return [...rows].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    // Overdue and due soon have a due date: the earliest first.
    if (rank(a) < 2) {
      const byDue = dueMs(a.dueDate) - dueMs(b.dueDate);
      if (byDue !== 0) return byDue;
    }
    return a.row - b.row;
  });
}

export interface ProgressCounts {
  completed: number;
  inProgress: number;
  notStarted: number;
  overdue: number;
}

export function countStates(states: readonly ProgressState[]): ProgressCounts {
  const counts: ProgressCounts = { completed: 0, inProgress: 0, notStarted: 0, overdue: 0 };
  for (const s of states) {
    if (s === "completed") counts.completed++;
    else if (s === "in-progress") counts.inProgress++;
    else if (s === "not-started") counts.notStarted++;
    else counts.overdue++;
  }
  return counts;
}

/** "60 pairs: 20 done, 10 in progress, 25 not started, 5 overdue" */
export function formatCounts(counts: ProgressCounts): string {
  const total = counts.completed + counts.inProgress + counts.notStarted + counts.overdue;
  return `${total} pair${total === 1 ? "" : "s"}: ${counts.completed} done, ${counts.inProgress} in progress, ${counts.notStarted} not started, ${counts.overdue} overdue`;
}

/**
 * A file name for one --split-by value: letters, digits, `.`, `_` and `-` kept, anything
 * else (path separators, spaces, `..`) turned into `_`, at most 80 characters; an empty
 * value is `(none)` → `_none_`. Names already taken get `-2`, `-3`… (case-insensitively, for
 * file systems that ignore case).
 */
export function splitFileNames(values: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const value of values) {
    if (names.has(value)) continue;
    let base = (value.trim() === "" ? "_none_" : value.trim())
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}._-]+/gu, "_")
      .slice(0, 80);
    // A leading dot would hide the file (and `.`, `..` name directories).
    if (base.startsWith(".")) base = `_${base}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    taken.add(name.toLowerCase());
    names.set(value, name);
  }
  return names;
}
