import type { CommandContext } from "../../context.js";
import type { ProgressRow } from "../../domain/progress.js";
import { CompletedPairCache, type PairIdentity } from "../../engines/progress/cache.js";
import { PairAsker } from "../../engines/progress/pair-asker.js";
import { planProgress, type ProgressPlan } from "../../engines/progress/plan.js";
import { askingProgress, type AskingProgress } from "./asking-progress.js";

// How `progress` and `progress notify` ask completion (docs/cli-contract.md "Progress",
// "Reminders": "asked exactly as progress asks it"): the same cache of completed pairs, the
// same order (overdue, due soon, the rest), the same budget — the progress engine
// (src/engines/progress/), given the tenant, cache and client from the services here.

export interface CompletionAsking {
  plan: ProgressPlan;
  /** The asker, with its client built only now (a dry run or --plan may need none). */
  openAsker(): Promise<PairAsker>;
  progress: AskingProgress;
  organizationId: string;
  /** When the plan was made. */
  startedAt: number;
}

export async function prepareCompletionAsking(
  ctx: CommandContext,
  rows: readonly ProgressRow[],
  options: { refresh: boolean; dueSoonDays: number },
): Promise<CompletionAsking> {
  const { services, printer } = ctx;
  const settings = await services.settings();
  const organizationId = await services.org();
  // --sandbox gets a new port each run but keeps its state: it is one service for the cache.
  const baseUrl = services.globals.sandbox ? "sandbox" : (settings.baseUrl ?? "");
  const cacheDir = services.globals.sandbox
    ? (await import("../../sandbox/persist.js")).sandboxStateDir(services.env)
    : settings.configDir;
  const cache = await CompletedPairCache.open(cacheDir, (text) => printer.warn(text));
  const identity = (row: ProgressRow): PairIdentity => ({
    baseUrl,
    organizationId,
    userId: row.userId,
    simulationId: row.simulationId,
  });
  const startedAt = services.clock.now();
  const access = (await services.rateLimits()).access;
  const plan = planProgress(
    rows,
    (row) => (options.refresh ? undefined : cache.get(identity(row))),
    access,
    startedAt,
    options.dueSoonDays,
  );
  const progress = askingProgress(ctx);
  const openAsker = async (): Promise<PairAsker> => {
    const asker = new PairAsker({
      client: await services.api(),
      organizationId,
      clock: services.clock,
      cache,
      identity,
      warn: (text) => printer.warn(text),
      redact: (secret) => printer.redactor.add(secret),
      onStep: progress.onStep,
    });
    progress.follow(asker, plan.ordered.length);
    return asker;
  };
  return { plan, openAsker, progress, organizationId, startedAt };
}
