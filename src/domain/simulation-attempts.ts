import { UsageError } from "../errors.js";

// Completion records (docs/service-spec.md §2, §4.3): every execution attempt of a user at a simulation.
// Pure rules only — the command fetches, this file decides.

/** The fields of a completion record this file reads; the service may send more. */
export interface AttemptLike {
  executionId: string;
  completedAt?: string | null | undefined;
  completionTime?: number | null | undefined;
  score?: number | null | undefined;
  status?: string | null | undefined;
}

/**
 * Spec §2: completed when both `completedAt` and `completionTime` have values, incomplete
 * when both are null. The spec names no third case, so a record with one but not the other
 * is "inconsistent" — shown and warned about, never counted as a completion.
 */
export type AttemptState = "completed" | "incomplete" | "inconsistent";

function hasValue(value: unknown): boolean {
  // An empty string is no timestamp; treat it like null rather than as "completed".
  return value !== null && value !== undefined && value !== "";
}

export function classifyAttempt(attempt: AttemptLike): AttemptState {
  const at = hasValue(attempt.completedAt);
  const time = hasValue(attempt.completionTime);
  if (at && time) return "completed";
  if (!at && !time) return "incomplete";
  return "inconsistent";
}

/** Why an attempt is inconsistent, for the warning on stderr. */
export function describeInconsistency(attempt: AttemptLike): string {
  return hasValue(attempt.completedAt) ? "it has completedAt but no completionTime" : "it has completionTime but no completedAt";
}

const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/**
 * --since: an ISO 8601 date (`2026-01-10`, midnight UTC) or date-time WITH a zone (`Z` or
 * `+02:00`). A date-time without a zone is refused: JavaScript would read it as local time,
 * and the service's timestamps are UTC (docs/service-spec.md §2), so the cut would move with the machine.
 * Returns milliseconds since the epoch.
 */
export function parseSince(text: string, flag = "--since"): number {
  const input = text.trim();
  const bad = (why: string): UsageError =>
    new UsageError(`${flag}: ${JSON.stringify(text)} ${why}; use e.g. 2026-01-10 or 2026-01-10T14:30:00Z`);
  const match = ISO_TIMESTAMP.exec(input);
  if (!match) {
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(input)) throw bad("has no time zone (add Z for UTC)");
    throw bad("is not an ISO 8601 timestamp");
  }
  const [, y, mo, d, h, mi, s] = match;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  // Date.parse rolls 2026-02-30 over into March; a real calendar date is written back as it
  // was given (the first ten characters, by the pattern).
  if (day.toISOString().slice(0, 10) !== input.slice(0, 10)) throw bad("is not a real calendar date");
  // A part not given is NaN here, never too big.
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw bad("is not a valid time of day");
  // Node's Date.parse reads a lower-case t and z too (2026-01-10t14:30:00z).
  const ms = Date.parse(input);
  if (Number.isNaN(ms)) throw bad("is not an ISO 8601 timestamp");
  return ms;
}

/** The time an attempt ended, when it has a readable completedAt. */
export function completedAtMs(attempt: AttemptLike): number | undefined {
  // Not a number (Date.parse would read 2026 as a year); "" parses to NaN below.
  if (typeof attempt.completedAt !== "string") return undefined;
  const ms = Date.parse(attempt.completedAt);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * --since keeps the attempts that may have happened after it: those that ended strictly
 * after it, and those that have not ended (no completedAt: nothing says when they ran, and
 * hiding an attempt in progress would hide the very thing a waiting user looks for). An
 * attempt with an unreadable completedAt is kept too — we cannot show it is older.
 */
export function filterSince<T extends AttemptLike>(
  attempts: readonly T[],
  sinceMs: number | undefined,
): { kept: T[]; dropped: number } {
  if (sinceMs === undefined) return { kept: [...attempts], dropped: 0 };
  const kept = attempts.filter((attempt) => {
    const ended = completedAtMs(attempt);
    return ended === undefined || ended > sinceMs;
  });
  return { kept, dropped: attempts.length - kept.length };
}

export interface AttemptSummary {
  attempts: number;
  completed: number;
  incomplete: number;
  inconsistent: number;
  /** Highest score of a completed attempt; null when none has one. */
  bestScore: number | null;
  /** Score of the completed attempt that ended last (latest completedAt). */
  latestScore: number | null;
  latestCompletedAt: string | null;
}

/** A score that is a finite number (Number.isFinite is false for anything else), else null. */
function finiteScore(score: number | null | undefined): number | null {
  return Number.isFinite(score) ? (score as number) : null;
}

export function summarizeAttempts(attempts: readonly AttemptLike[]): AttemptSummary {
  const summary: AttemptSummary = {
    attempts: attempts.length,
    completed: 0,
    incomplete: 0,
    inconsistent: 0,
    bestScore: null,
    latestScore: null,
    latestCompletedAt: null,
  };
  let latest: { at: number; attempt: AttemptLike } | undefined;
  for (const attempt of attempts) {
    const state = classifyAttempt(attempt);
    summary[state] += 1;
    if (state !== "completed") continue;
    const score = finiteScore(attempt.score);
    if (score !== null) summary.bestScore = Math.max(summary.bestScore ?? score, score);
    // Latest by completedAt; on a tie or an unreadable time, the later record in the answer.
    const at = completedAtMs(attempt) ?? Number.NEGATIVE_INFINITY;
    if (!latest || at >= latest.at) latest = { at, attempt };
  }
  if (latest) {
    summary.latestScore = finiteScore(latest.attempt.score);
    summary.latestCompletedAt = typeof latest.attempt.completedAt === "string" ? latest.attempt.completedAt : null;
  }
  return summary;
}

function formatScore(score: number | null): string {
  return score === null ? "none" : String(score);
}

/** One line for stderr, e.g. "4 attempts, 2 completed — best score 91.25, latest 91.25 (2026-01-12T14:39:05Z)". */
export function formatSummary(summary: AttemptSummary, sinceText?: string): string {
  const after = sinceText ? ` after ${sinceText}` : "";
  if (summary.attempts === 0) return `no attempts${after}`;
  const counts = [`${summary.attempts} attempt${summary.attempts === 1 ? "" : "s"}${after}`, `${summary.completed} completed`];
  if (summary.inconsistent > 0) counts.push(`${summary.inconsistent} inconsistent`);
  if (summary.completed === 0) return counts.join(", ");
  const latestAt = summary.latestCompletedAt ? ` (${summary.latestCompletedAt})` : "";
  return `${counts.join(", ")} — best score ${formatScore(summary.bestScore)}, latest ${formatScore(summary.latestScore)}${latestAt}`;
}
