import { getCompletionData } from "../../api/endpoints.js";
import type { CommandContext } from "../../context.js";
import { WaitTimeoutError } from "../../errors.js";
import type { CompletionRecord } from "../../api/schemas.js";
import {
  classifyAttempt,
  describeInconsistency,
  filterSince,
  formatSummary,
  summarizeAttempts,
} from "../../domain/simulation-attempts.js";
import { formatDuration, formatSeconds } from "../../domain/durations.js";
import type { JsonRecord } from "../../domain/records.js";
import { explainNotFound } from "../shared/access.js";
import { minimumPollIntervalMs, pollUntil } from "../shared/polling.js";
import { defineRun } from "../types.js";
import { CompletionOptions } from "./options.js";

// completion --user --sim [--since] [--wait [--interval] [--wait-timeout]] (docs/service-spec.md §4.3, both
// versions). Completion is observed only by polling (docs/service-spec.md §6).

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

export const run = defineRun(CompletionOptions, async ({ options, services, printer }) => {
  const { user: userId, sim: simulationId, wait, timeoutMs } = options;
  const sinceText = options.since?.text;
  const sinceMs = options.since?.ms;
  let intervalMs = options.intervalMs;
  const organizationId = await services.org();
  if (wait) {
    const floorMs = minimumPollIntervalMs((await services.rateLimits()).access);
    if (intervalMs < floorMs) {
      printer.warn(
        `--interval ${formatDuration(intervalMs)} is shorter than the access budget allows for a long wait; polling every ${formatDuration(floorMs)} instead`,
      );
      intervalMs = floorMs;
    }
  }

  const api = await services.api();
  const fetchAttempts = async (): Promise<CompletionRecord[]> => {
    try {
      return await getCompletionData(api, { organizationId, userId, simulationId });
    } catch (error) {
      throw explainNotFound(error, { org: organizationId, user: userId, sim: simulationId });
    }
  };

  const attempts = wait
    ? await waitForCompletion({ services, printer }, fetchAttempts, {
        userId,
        simulationId,
        sinceMs,
        sinceText,
        intervalMs,
        timeoutMs,
      })
    : await fetchAttempts();

  for (const attempt of attempts) {
    if (classifyAttempt(attempt) === "inconsistent") {
      printer.warn(
        `attempt ${attempt.executionId} is inconsistent: ${describeInconsistency(attempt)}; it is not counted as completed`,
      );
    }
  }
  const { kept, dropped } = filterSince(attempts, sinceMs);
  let note = formatSummary(summarizeAttempts(kept), sinceText);
  if (dropped > 0) note += `; ${plural(dropped, "attempt")} that ended before ${sinceText} not shown`;
  return { kind: "records", records: kept.map(attemptRecord), tableColumns: TABLE_COLUMNS, knownFields: KNOWN_FIELDS, note };
});

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
  { services, printer }: CommandContext,
  fetchAttempts: () => Promise<CompletionRecord[]>,
  waitPlan: WaitPlan,
): Promise<CompletionRecord[]> {
  const after = waitPlan.sinceText ? ` after ${waitPlan.sinceText}` : "";
  const target = `completed attempt${after} of ${waitPlan.userId} on ${waitPlan.simulationId}`;
  const what = `a ${target}`;
  const progress = await printer.progress();
  if (!printer.io.stderrIsTTY) {
    // No spinner off a terminal (cron, CI): one line says what the silence is.
    printer.info(
      `waiting for ${what}: checking every ${formatDuration(waitPlan.intervalMs)}, for up to ${formatDuration(waitPlan.timeoutMs)}`,
    );
  }
  let polls = 0;
  let last = "";
  const stopListening = services.onWait((event) => {
    progress.update(
      `waiting for ${waitPlan.simulationId} · poll ${polls + 1} waits ${formatDuration(event.waitMs)} for the access rate budget`,
    );
  });
  try {
    const outcome = await pollUntil({
      clock: services.clock,
      signal: services.signal,
      timeoutMs: waitPlan.timeoutMs,
      delayMs: (round) => (round === 0 ? 0 : waitPlan.intervalMs),
      poll: async (poll) => {
        polls = poll;
        progress.update(`waiting for ${what} · poll ${polls}…`);
        const attempts = await fetchAttempts();
        const { kept } = filterSince(attempts, waitPlan.sinceMs);
        const summary = summarizeAttempts(kept);
        if (summary.completed > 0) return attempts;
        last = formatSummary(summary, waitPlan.sinceText);
        return undefined;
      },
      // Short enough for an 80-column terminal: the first line said what we wait for.
      onCountdown: (next, deadline) =>
        progress.update(
          `waiting for ${waitPlan.simulationId} · poll ${polls}: ${last} · next in ${formatDuration(next)} · gives up in ${formatDuration(deadline)}`,
        ),
    });
    if (outcome.done) {
      progress.done(`${what}: found after ${plural(polls, "poll")}`);
      if (polls === 1 && waitPlan.sinceMs === undefined) {
        printer.info("a completed attempt already existed; pass --since <time> to wait for a new one");
      }
      return outcome.value;
    }
  } finally {
    stopListening();
    progress.done();
  }
  throw new WaitTimeoutError(
    `no ${target} within ${formatDuration(waitPlan.timeoutMs)} (${plural(polls, "poll")}; last: ${last})`,
    {
      hint: "run again with a longer --wait-timeout, or check that the user has opened the link",
    },
  );
}
