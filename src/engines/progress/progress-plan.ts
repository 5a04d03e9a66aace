import type { BudgetTimes } from "../../api/rate/least-time.js";
import type { RateLimit } from "../../api/rate/limits.js";
import { formatDuration } from "../../domain/durations.js";
import { askOrder, isDueSoon, isOverdue, type ProgressRow } from "../../domain/progress.js";
import type { JsonRecord } from "../../domain/records.js";
import type { CachedPair } from "./cache.js";
import type { PairResult } from "./pair-asker.js";

// What `progress` will ask before it asks anything: the pairs the cache already knows
// completed, the rest in the order that matters (overdue, due soon, the rest), and how long
// the access budget (docs/service-spec.md §8) needs for them at least — the plan line on
// stderr, and the whole answer of --dry-run.

/** Pairs due within this many days are asked right after the overdue ones (`progress --due-soon`). */
export const DEFAULT_DUE_SOON_DAYS = 7;

export interface ProgressPlan {
  /** The pairs known completed from the cache, as results. */
  results: Map<ProgressRow, PairResult>;
  /** The pairs to ask, in asking order. */
  ordered: ProgressRow[];
  cached: number;
  /** Pairs to ask that are overdue or due within --due-soon-days. */
  urgent: number;
  minimumMs: number;
  access: RateLimit;
  /** "3 pairs to ask, 1 cached: no wait at 100 per 5 min" */
  line: string;
}

/** "100 per 5m", "20 per 1m 30s": written as every other duration is (domain/durations.ts). */
function describeRate(rate: RateLimit): string {
  return `${rate.limit} per ${formatDuration(rate.windowMs)}`;
}

export function planProgress(
  rows: readonly ProgressRow[],
  cachedPair: (row: ProgressRow) => CachedPair | undefined,
  budget: BudgetTimes,
  now: number,
  dueSoonDays: number,
): ProgressPlan {
  const access = budget.limits.access;
  const results = new Map<ProgressRow, PairResult>();
  const toAsk: ProgressRow[] = [];
  for (const row of rows) {
    const cached = cachedPair(row);
    if (cached) {
      results.set(row, {
        row,
        facts: {
          completed: true,
          incomplete: 0,
          attempts: cached.attempts,
          completedAt: cached.completedAt,
          bestScore: cached.bestScore,
        },
      });
    } else toAsk.push(row);
  }
  const ordered = askOrder(toAsk, now, dueSoonDays);
  const cached = rows.length - ordered.length;
  const minimumMs = budget.leastMs("access", ordered.length);
  const urgent = ordered.filter((r) => isOverdue(r.dueDate, now) || isDueSoon(r.dueDate, now, dueSoonDays)).length;
  const line =
    `${ordered.length} pair${ordered.length === 1 ? "" : "s"} to ask, ${cached} cached: ` +
    (minimumMs > 0 ? `at least ${budget.format(minimumMs)}` : "no wait") +
    ` at ${describeRate(access)}` +
    (urgent > 0 ? ` (${urgent} overdue or due within ${dueSoonDays} days first)` : "");
  return { results, ordered, cached, urgent, minimumMs, access, line };
}

/** The answer of --dry-run. */
export function dryRunValue(file: string, progressPlan: ProgressPlan): JsonRecord {
  return {
    file,
    pairs: progressPlan.cached + progressPlan.ordered.length,
    cached: progressPlan.cached,
    toAsk: progressPlan.ordered.length,
    urgent: progressPlan.urgent,
    minimumSeconds: Math.ceil(progressPlan.minimumMs / 1000),
    budget: describeRate(progressPlan.access),
  };
}
