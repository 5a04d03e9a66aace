import type { CommandContext } from "../../context.js";
import { WaitTimeoutError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import type { ProgressRow } from "../../domain/progress.js";
import { pollUntil } from "../shared/polling.js";
import type { PairAsker, PairResult } from "../../engines/progress/pair-asker.js";

/**
 * Sweeps start at least a minute apart however large the budget: a trainee takes minutes
 * to run a simulation, and `completion --wait` polls every 60 s by default too.
 */
const MIN_SWEEP_MS = 60_000;

/**
 * --wait: sweeps the pairs not yet completed again and again until none is left or the time
 * is up. A sweep of P pairs starts at least P × window / limit after the previous one
 * started (and at least MIN_SWEEP_MS), so the polls are spread over the budget instead of
 * bursting into it and then queueing; as pairs complete the sweeps shrink and come faster.
 */
export async function waitForAll(
  ctx: CommandContext,
  asker: PairAsker,
  results: Map<ProgressRow, PairResult>,
  timeoutMs: number,
): Promise<Error | undefined> {
  const { services, printer } = ctx;
  const pending = (): ProgressRow[] => [...results.values()].filter((r) => !r.facts?.completed && !r.error).map((r) => r.row);
  if (pending().length === 0) return undefined;
  const access = (await services.rateLimits()).access;
  let sweepStartedAt = services.clock.now();
  let last = pending().length;
  printer.info(
    `waiting for ${last} pair${last === 1 ? "" : "s"} to complete, for up to ${formatDuration(Math.max(0, timeoutMs))}`,
  );
  const outcome = await pollUntil({
    clock: services.clock,
    signal: services.signal,
    timeoutMs: Math.max(0, timeoutMs),
    delayMs: () => {
      const spacing = Math.max(MIN_SWEEP_MS, Math.ceil((pending().length * access.windowMs) / access.limit));
      return Math.max(1, sweepStartedAt + spacing - services.clock.now());
    },
    poll: async () => {
      sweepStartedAt = services.clock.now();
      await asker.sweep(pending(), results, "waiting");
      last = pending().length;
      return last === 0 ? true : undefined;
    },
  });
  if (outcome.done) return undefined;
  return new WaitTimeoutError(
    `${last} pair${last === 1 ? "" : "s"} not completed within ${formatDuration(timeoutMs)} (${outcome.polls} sweeps)`,
    {
      hint: "run again with a longer --wait-timeout; pairs completed so far are cached and not asked again",
    },
  );
}
