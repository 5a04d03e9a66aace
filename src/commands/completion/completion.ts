import type { Context } from "../../context.js";
import { UsageError, WaitTimeoutError } from "../../errors.js";
import type { RateLimit } from "../../api/rate-limits.js";
import type { CompletionRecord } from "../../api/schemas.js";
import {
  classifyAttempt,
  describeInconsistency,
  filterSince,
  formatSummary,
  parseSince,
  summarizeAttempts,
} from "../../domain/simulation-attempts.js";
import { formatDuration, formatSeconds, parsePositiveDuration } from "../../domain/durations.js";
import type { JsonRecord } from "../../domain/records.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOptions } from "../../program.js";
import { explainNotFound, refuseTextFormat } from "../shared/access.js";

// completion --user --sim [--since] [--wait [--interval] [--wait-timeout]] (docs/service-spec.md §4.3, both
// versions). Completion is observed only by polling (docs/service-spec.md §6).

export const DEFAULT_INTERVAL_MS = 60_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 2 * 3_600_000;
/**
 * A wait may take at most this share of the access budget. Polls go through the shared
 * budget anyway (they can never cause a 429), but a wait runs for hours beside other work
 * on the same key and address — assignments, links, an import's status polls, other
 * runs — so it leaves them most of it. With the spec's 100 requests per 5 minutes the
 * shortest interval is 10 s (30 polls per window). The floor follows SIMADMIN_RATE_LIMITS,
 * so a larger budget (or a fast test budget) allows shorter intervals.
 */
export const POLL_SHARE_OF_ACCESS_BUDGET = 0.3;

export function minimumPollIntervalMs(access: RateLimit): number {
  return Math.ceil(access.windowMs / (access.limit * POLL_SHARE_OF_ACCESS_BUDGET));
}

const TABLE_COLUMNS = ["executionId", "state", "status", "completedAt", "duration", "score"];
const KNOWN_FIELDS = ["executionId", "state", "status", "completedAt", "completionTime", "duration", "score"];

/**
 * One row per attempt: our `state` and readable `duration` beside the service's fields
 * (JSON keeps completionTime in seconds). A service field that happens to share one of our
 * names is kept as `service.<name>` rather than dropped.
 */
export function attemptRecord(attempt: CompletionRecord): JsonRecord {
  const record: JsonRecord = {
    executionId: attempt.executionId,
    state: classifyAttempt(attempt),
    status: attempt.status ?? null,
    completedAt: attempt.completedAt ?? null,
    completionTime: attempt.completionTime ?? null,
    duration: formatSeconds(attempt.completionTime),
    score: attempt.score ?? null,
  };
  for (const [key, value] of Object.entries(attempt)) {
    if (!(key in record)) record[key] = value;
    else if (key === "state" || key === "duration") record[`service.${key}`] = value;
  }
  return record;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export async function runCompletion(ctx: Context, options: CommandOptions): Promise<CommandResult> {
  const userId = String(options.user);
  const simulationId = String(options.sim);
  const wait = options.wait === true;
  if (!wait && (options.interval !== undefined || options.waitTimeout !== undefined)) {
    const flag = options.interval !== undefined ? "--interval" : "--wait-timeout";
    throw new UsageError(`${flag} applies only with --wait`, { hint: `add --wait, or drop ${flag}` });
  }
  const sinceText = options.since === undefined ? undefined : String(options.since);
  const sinceMs = sinceText === undefined ? undefined : parseSince(sinceText);
  let intervalMs =
    options.interval === undefined ? DEFAULT_INTERVAL_MS : parsePositiveDuration(String(options.interval), "--interval");
  const timeoutMs =
    options.waitTimeout === undefined
      ? DEFAULT_WAIT_TIMEOUT_MS
      : parsePositiveDuration(String(options.waitTimeout), "--wait-timeout");
  await refuseTextFormat(ctx, "completion");
  const organizationId = await ctx.org();
  if (wait) {
    const { parseRateLimits } = await import("../../api/rate-limits.js");
    const floorMs = minimumPollIntervalMs(parseRateLimits(ctx.env.SIMADMIN_RATE_LIMITS).access);
    if (intervalMs < floorMs) {
      ctx.warn(
        `--interval ${formatDuration(intervalMs)} is shorter than the access budget allows for a long wait; polling every ${formatDuration(floorMs)} instead`,
      );
      intervalMs = floorMs;
    }
  }

  const [api, { getCompletionData }] = await Promise.all([ctx.api(), import("../../api/endpoints.js")]);
  const fetchAttempts = async (): Promise<CompletionRecord[]> => {
    try {
      return await getCompletionData(api, { organizationId, userId, simulationId });
    } catch (error) {
      throw explainNotFound(error, { org: organizationId, user: userId, sim: simulationId });
    }
  };

  const attempts = wait
    ? await waitForCompletion(ctx, fetchAttempts, { userId, simulationId, sinceMs, sinceText, intervalMs, timeoutMs })
    : await fetchAttempts();

  for (const attempt of attempts) {
    if (classifyAttempt(attempt) === "inconsistent") {
      ctx.warn(
        `attempt ${attempt.executionId} is inconsistent: ${describeInconsistency(attempt)}; it is not counted as completed`,
      );
    }
  }
  const { kept, dropped } = filterSince(attempts, sinceMs);
  let note = formatSummary(summarizeAttempts(kept), sinceText);
  if (dropped > 0) note += `; ${plural(dropped, "attempt")} that ended before ${sinceText} not shown`;
  return { kind: "records", records: kept.map(attemptRecord), tableColumns: TABLE_COLUMNS, knownFields: KNOWN_FIELDS, note };
}

interface WaitPlan {
  userId: string;
  simulationId: string;
  sinceMs: number | undefined;
  sinceText: string | undefined;
  intervalMs: number;
  timeoutMs: number;
}

/** Polls until an attempt completed (after --since) exists; WaitTimeoutError (exit 9) at the deadline. */
async function waitForCompletion(
  ctx: Context,
  fetchAttempts: () => Promise<CompletionRecord[]>,
  plan: WaitPlan,
): Promise<CompletionRecord[]> {
  const { clock, signal } = ctx;
  const after = plan.sinceText ? ` after ${plan.sinceText}` : "";
  const target = `completed attempt${after} of ${plan.userId} on ${plan.simulationId}`;
  const what = `a ${target}`;
  const deadline = clock.now() + plan.timeoutMs;
  const progress = await ctx.progress();
  if (!ctx.io.stderrIsTTY) {
    // No spinner off a terminal (cron, CI): one line says what the silence is.
    ctx.info(
      `waiting for ${what}: checking every ${formatDuration(plan.intervalMs)}, for up to ${formatDuration(plan.timeoutMs)}`,
    );
  }
  let polls = 0;
  let last = "";
  const stopListening = ctx.onWait((event) => {
    progress.update(
      `waiting for ${plan.simulationId} · poll ${polls + 1} waits ${formatDuration(event.waitMs)} for the access rate budget`,
    );
  });
  try {
    for (;;) {
      polls += 1;
      progress.update(`waiting for ${what} · poll ${polls}…`);
      const attempts = await fetchAttempts();
      const { kept } = filterSince(attempts, plan.sinceMs);
      const summary = summarizeAttempts(kept);
      if (summary.completed > 0) {
        progress.done(`${what}: found after ${plural(polls, "poll")}`);
        if (polls === 1 && plan.sinceMs === undefined) {
          ctx.info("a completed attempt already existed; pass --since <time> to wait for a new one");
        }
        return attempts;
      }
      last = formatSummary(summary, plan.sinceText);
      const left = deadline - clock.now();
      if (left <= 0) break;
      // Sleep in steps of a second at most, so the spinner counts down to the next check.
      const nextCheck = clock.now() + Math.min(plan.intervalMs, left);
      for (let remaining = nextCheck - clock.now(); remaining > 0; remaining = nextCheck - clock.now()) {
        // Short enough for an 80-column terminal: the first line said what we wait for.
        progress.update(
          `waiting for ${plan.simulationId} · poll ${polls}: ${last} · next in ${formatDuration(remaining)} · gives up in ${formatDuration(deadline - clock.now())}`,
        );
        await clock.sleep(Math.min(1000, remaining), signal);
      }
    }
  } finally {
    stopListening();
    progress.done();
  }
  throw new WaitTimeoutError(`no ${target} within ${formatDuration(plan.timeoutMs)} (${plural(polls, "poll")}; last: ${last})`, {
    hint: "run again with a longer --wait-timeout, or check that the user has opened the link",
  });
}
