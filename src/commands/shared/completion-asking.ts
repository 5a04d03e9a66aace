import type { CommandContext } from "../../context.js";
import { InvalidDataError } from "../../errors.js";
import type { ProgressProblem, ProgressRow } from "../../domain/progress.js";
import { CompletedPairCache, type PairIdentity } from "../../engines/progress/cache.js";
import { PairAsker } from "../../engines/progress/pair-asker.js";
import { planProgress, type ProgressPlan } from "../../engines/progress/progress-plan.js";
import type { CommandOutcome } from "../types.js";
import { askingProgress, type AskingProgress } from "./asking-progress.js";

// How `progress` and `progress notify` ask completion (docs/cli-contract.md "Progress",
// "Reminders": "asked exactly as progress asks it"): the same cache of completed pairs, the
// same order (overdue, due soon, the rest), the same budget — the progress engine
// (src/engines/progress/), given the tenant, cache and client from the services here.

/** The rows of an assignments file that cannot be used, listed, with exit 6: nothing was sent. */
export function invalidRowsOutcome(path: string, problems: readonly ProgressProblem[]): CommandOutcome {
  const rows = new Set(problems.map((p) => p.row)).size;
  return {
    kind: "records",
    records: problems.map((p) => ({ row: p.row, field: p.field, message: p.message })),
    tableColumns: ["row", "field", "message"],
    failure: new InvalidDataError(`${path}: ${rows} invalid row${rows === 1 ? "" : "s"}; nothing was sent`, {
      hint: "fix them (listed above; rows are spreadsheet rows, the header is row 1) and run the command again",
    }),
  };
}

export interface CompletionAsking {
  progressPlan: ProgressPlan;
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
  // Which service and organization, and where their state lives (services.ts: --sandbox is
  // one service whatever its port, its state kept beside the sandbox's). The cache is in the
  // state store; an older version's file in the state directory is moved in (engines/progress/cache.ts).
  const tenant = await services.tenant();
  const { service, organizationId } = tenant;
  const cache = await CompletedPairCache.open(await services.state(), tenant, await services.stateDir(), (text) =>
    printer.info(text),
  );
  const identity = (row: ProgressRow): PairIdentity => ({
    baseUrl: service,
    organizationId,
    userId: row.userId,
    simulationId: row.simulationId,
  });
  const startedAt = services.clock.now();
  const budget = await services.budget();
  const progressPlan = planProgress(
    rows,
    (row) => (options.refresh ? undefined : cache.get(identity(row))),
    budget,
    startedAt,
    options.dueSoonDays,
  );
  const progress = askingProgress(ctx, budget);
  const openAsker = async (): Promise<PairAsker> => {
    const asker = new PairAsker({
      client: await services.api(),
      organizationId,
      clock: services.clock,
      cache,
      identity,
      warn: (text) => printer.warn(text),
      tokens: services.userTokens(),
      onStep: progress.onStep,
    });
    progress.follow(asker, progressPlan.ordered.length);
    return asker;
  };
  return { progressPlan, openAsker, progress, organizationId, startedAt };
}
