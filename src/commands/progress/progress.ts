import * as endpoints from "../../api/endpoints.js";
import type { ApiClient } from "../../api/client.js";
import { safetyMarginMs } from "../../api/rate/budget.js";
import type { RateLimit } from "../../api/rate/limits.js";
import type { CommandContext } from "../../context.js";
import {
  CliError,
  InterruptedError,
  InvalidDataError,
  NotFoundError,
  PermissionError,
  UsageError,
  WaitTimeoutError,
} from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import { composeUserLink } from "../../domain/links.js";
import {
  askOrder,
  countStates,
  formatCounts,
  isDueSoon,
  isOverdue,
  minimumBudgetMs,
  pairFacts,
  pairState,
  PROGRESS_COLUMNS,
  type PairFacts,
  type ProgressRow,
  type ProgressState,
} from "../../domain/progress.js";
import type { JsonRecord } from "../../domain/records.js";
import { pollUntil } from "../shared/polling.js";
import { timeLeftText } from "../shared/time-left.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { CompletedPairCache, type PairIdentity } from "./cache.js";
import { readProgressFile } from "./input.js";
import { ProgressOptions } from "./options.js";
import { prepareSplit, writeSplitFiles } from "./split.js";

// progress --from-csv <file> (docs/cli-contract.md "Progress"; issue 25). One completion-data
// request per pair not known completed (docs/service-spec.md §4.3, both versions), in the order
// that matters (overdue, due soon, the rest), through the shared scheduler, which alone decides
// when a request goes (access budget, docs/service-spec.md §8): this file never sleeps for the
// budget itself, it only says beforehand how long the budget needs.

/**
 * The table's columns: with ids of about 12 characters they fit 80 columns, completedAt
 * taking what is left (bestScore, attempts and the file's columns: -o json/csv, or --fields).
 */
const TABLE_COLUMNS = ["userId", "simulationId", "state", "dueDate", "completedAt"];

interface PairResult {
  row: ProgressRow;
  facts: PairFacts | undefined;
  /** The service refused the pair (404, 400): the message. */
  error?: string;
}

/** "100 per 5 min" */
function describeRate(rate: RateLimit): string {
  return `${rate.limit} per ${formatDuration(rate.windowMs)
    .replace(/(\d+)m$/, "$1 min")
    .replace(/(\d+)s$/, "$1 s")}`;
}

export const run = defineRun(ProgressOptions, async (ctx): Promise<CommandOutcome> => {
  const { options, services, printer } = ctx;
  const file = await readProgressFile(options.fromCsv, options.encoding);
  for (const warning of file.warnings) printer.warn(`${options.fromCsv}: ${warning}`);
  if (file.problems.length > 0) {
    const rows = new Set(file.problems.map((p) => p.row)).size;
    return {
      kind: "records",
      records: file.problems.map((p) => ({ row: p.row, field: p.field, message: p.message })),
      tableColumns: ["row", "field", "message"],
      failure: new InvalidDataError(`${options.fromCsv}: ${rows} invalid row${rows === 1 ? "" : "s"}; nothing was sent`, {
        hint: "fix them (listed above; rows are spreadsheet rows, the header is row 1) and run the command again",
      }),
    };
  }

  const settings = await services.settings();
  if (options.links && settings.apiVersion === 1) {
    throw new UsageError("--links needs API version 2: user tokens do not exist in version 1 (docs/service-spec.md §9)", {
      hint: "drop --links, or use --api-version 2",
    });
  }
  const split =
    options.splitBy !== undefined ? await prepareSplit(ctx, options.splitBy, options.outDir!, file.header.names) : undefined;
  if (options.links) printer.secretOutput = true; // links carry tokens: new files are 0600

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

  const now = services.clock.now();
  const results = new Map<ProgressRow, PairResult>();
  const toAsk: ProgressRow[] = [];
  for (const row of file.rows) {
    const cached = options.refresh ? undefined : cache.get(identity(row));
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
  const ordered = askOrder(toAsk, now, options.dueSoonDays);
  const access = (await services.rateLimits()).access;
  const minimumMs = minimumBudgetMs(ordered.length, access.limit, access.windowMs, safetyMarginMs(access.windowMs));
  const urgent = ordered.filter((r) => isOverdue(r.dueDate, now) || isDueSoon(r.dueDate, now, options.dueSoonDays)).length;
  const planLine =
    `${ordered.length} pair${ordered.length === 1 ? "" : "s"} to ask, ${file.rows.length - ordered.length} cached: ` +
    (minimumMs > 0 ? `at least ${formatDuration(minimumMs)}` : "no wait") +
    ` at ${describeRate(access)}` +
    (urgent > 0 ? ` (${urgent} overdue or due within ${options.dueSoonDays} days first)` : "");

  if (options.dryRun) {
    return {
      kind: "object",
      value: {
        file: options.fromCsv,
        pairs: file.rows.length,
        cached: file.rows.length - ordered.length,
        toAsk: ordered.length,
        urgent,
        minimumSeconds: Math.ceil(minimumMs / 1000),
        budget: describeRate(access),
      },
      note: `dry run: ${planLine}; nothing was sent`,
    };
  }
  printer.info(planLine);

  const asker = new PairAsker(ctx, await services.api(), organizationId, cache, identity, ordered.length);
  let failure: Error | undefined;
  try {
    await asker.sweep(ordered, results);
    if (options.wait) failure = await waitForAll(ctx, asker, results, options.timeoutMs - (services.clock.now() - now));
  } catch (error) {
    asker.stop();
    if (error instanceof InterruptedError || (error instanceof CliError && !(error instanceof UsageError))) {
      printer.info(
        `stopped after asking ${asker.asked} of ${ordered.length} pairs; ${asker.newlyCompleted} newly completed pair${asker.newlyCompleted === 1 ? "" : "s"} kept in the cache (${file.rows.length - ordered.length + asker.newlyCompleted} cached in all): run again to ask only the rest`,
      );
    }
    throw error;
  }
  asker.stop();

  const doneAt = services.clock.now();
  const links = options.links
    ? await asker.links([...results.values()].filter((r) => !r.facts?.completed && !r.error))
    : undefined;
  const records: JsonRecord[] = [];
  const states: ProgressState[] = [];
  let refused = 0;
  for (const row of file.rows) {
    const result = results.get(row);
    const facts = result?.facts;
    const state = result?.error ? "unknown" : pairState(facts, row.dueDate, doneAt, settings.apiVersion);
    if (state !== "unknown") states.push(state);
    else refused++;
    const record: JsonRecord = {
      userId: row.userId,
      simulationId: row.simulationId,
      state,
      completedAt: facts?.completedAt ?? null,
      bestScore: facts?.bestScore ?? null,
      attempts: facts?.attempts ?? 0,
      dueDate: row.dueDate ?? null,
    };
    for (const [name, value] of Object.entries(row.extra)) record[name in record ? `file.${name}` : name] = value;
    if (result?.error) record.error = result.error;
    if (links) {
      const link = links.get(row);
      record.link = link?.link ?? "";
      record.linkExpiresAt = link?.expiresAt ?? "";
    }
    records.push(record);
  }
  const summary = formatCounts(countStates(states)) + (refused > 0 ? `, ${refused} refused by the service` : "");
  const requests = `${asker.requests} request${asker.requests === 1 ? "" : "s"} in ${formatDuration(Math.max(0, doneAt - now)) || "0s"}`;
  if (refused > 0 && !failure) {
    failure = new InvalidDataError(`${refused} pair${refused === 1 ? "" : "s"} refused by the service (see the error column)`, {
      hint: "check their userId and simulationId in the organization (--org)",
    });
  }
  const extraColumns = file.header.names.filter(
    (n, i) => i !== file.header.userId && i !== file.header.simulationId && i !== file.header.dueDate,
  );
  const known = [
    ...PROGRESS_COLUMNS,
    ...extraColumns,
    ...(refused > 0 ? ["error"] : []),
    ...(links ? ["link", "linkExpiresAt"] : []),
  ];
  const result = {
    kind: "records" as const,
    records,
    tableColumns: [...TABLE_COLUMNS, ...(links ? ["link"] : [])],
    flexColumn: links ? "link" : "completedAt",
    knownFields: known,
    note: `${summary} (${requests})`,
  };
  if (split) {
    await writeSplitFiles(ctx, split, result);
    printer.info(result.note);
    return failure ? { kind: "none", failure } : { kind: "none" };
  }
  return failure ? { ...result, failure } : result;
});

/** Asks completion-data for pairs, with progress and ETA on stderr; caches completions as they come. */
class PairAsker {
  asked = 0;
  newlyCompleted = 0;
  requests = 0;
  private readonly startedAt: number;
  private waitUntil: number | undefined;
  private progress: Awaited<ReturnType<CommandContext["printer"]["progress"]>> | undefined;
  private stopListening: (() => void) | undefined;
  private label = "";
  private done = 0;
  private total = 0;

  constructor(
    private readonly ctx: CommandContext,
    private readonly client: ApiClient,
    private readonly organizationId: string,
    private readonly cache: CompletedPairCache,
    private readonly identity: (row: ProgressRow) => PairIdentity,
    private readonly expected: number,
  ) {
    this.startedAt = ctx.services.clock.now();
  }

  private async show(): Promise<void> {
    this.progress ??= await this.ctx.printer.progress();
    this.stopListening ??= this.ctx.services.onWait((event) => {
      this.waitUntil = this.ctx.services.clock.now() + event.waitMs;
      this.progress?.update(this.text());
    });
    this.progress.update(this.text());
  }

  private text(): string {
    const parts = [`${this.label} ${this.done}/${this.total} pairs`];
    const now = this.ctx.services.clock.now();
    if (this.waitUntil !== undefined && this.waitUntil > now)
      parts.push(`next request in ${Math.ceil((this.waitUntil - now) / 1000)} s`);
    const left = this.expected - this.asked;
    if (this.asked > 0 && left > 0) {
      const eta = timeLeftText(((now - this.startedAt) / this.asked) * left);
      if (eta) parts.push(eta);
    }
    return parts.join(" · ");
  }

  /** One request per pair, in the order given. */
  async sweep(rows: readonly ProgressRow[], results: Map<ProgressRow, PairResult>, label = "progress"): Promise<void> {
    this.label = label;
    this.done = 0;
    this.total = rows.length;
    for (const row of rows) {
      await this.show();
      results.set(row, await this.ask(row));
      this.done++;
    }
  }

  private async ask(row: ProgressRow): Promise<PairResult> {
    const ref = { organizationId: this.organizationId, userId: row.userId, simulationId: row.simulationId };
    let attempts;
    try {
      this.requests++;
      attempts = await endpoints.getCompletionData(this.client, ref);
    } catch (error) {
      if (isPairRejection(error)) return { row, facts: undefined, error: error.message.replace(/^[a-z -]+: /i, "") };
      throw error;
    } finally {
      this.asked++;
    }
    const facts = pairFacts(attempts);
    if (facts.completed) {
      this.newlyCompleted++;
      await this.cache.put(
        this.identity(row),
        {
          completedAt: facts.completedAt,
          bestScore: facts.bestScore,
          attempts: facts.attempts,
          seenAt: new Date(this.ctx.services.clock.now()).toISOString(),
        },
        (text) => this.ctx.printer.warn(text),
      );
    }
    return { row, facts };
  }

  /**
   * A complete link for each pair: the deep link of its simulation — the spec gives it the form
   * `{app_url}/<org>/simulation/<sim>` (docs/service-spec.md §2), the same for every user, so one
   * deep-links request per simulation — and one fresh token per user (tokens live an hour,
   * docs/service-spec.md §5: minted now, never stored or cached).
   */
  async links(pairs: readonly PairResult[]): Promise<Map<ProgressRow, { link: string; expiresAt: string }>> {
    const deepLinks = new Map<string, string>();
    const tokens = new Map<string, { token: string; expiresAt: string }>();
    const out = new Map<ProgressRow, { link: string; expiresAt: string }>();
    this.label = "links";
    this.done = 0;
    this.total = pairs.length;
    for (const { row } of pairs) {
      await this.show();
      let deepLink = deepLinks.get(row.simulationId);
      if (deepLink === undefined) {
        this.requests++;
        deepLink = await endpoints.getDeepLink(this.client, {
          organizationId: this.organizationId,
          userId: row.userId,
          simulationId: row.simulationId,
        });
        deepLinks.set(row.simulationId, deepLink);
      }
      let token = tokens.get(row.userId);
      if (token === undefined) {
        const issuedAt = this.ctx.services.clock.now();
        this.requests++;
        const answer = await endpoints.getUserToken(this.client, { organizationId: this.organizationId, userId: row.userId });
        this.ctx.printer.redactor.add(answer.token);
        token = { token: answer.token, expiresAt: new Date(issuedAt + answer.expiresIn * 1000).toISOString() };
        tokens.set(row.userId, token);
      }
      out.set(row, { link: composeUserLink(deepLink, token.token), expiresAt: token.expiresAt });
      this.done++;
    }
    return out;
  }

  stop(): void {
    this.stopListening?.();
    this.progress?.done();
  }
}

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
async function waitForAll(
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

/** What the service says about one pair (unknown user or simulation, invalid ids): the run goes on. */
function isPairRejection(error: unknown): error is CliError {
  return error instanceof NotFoundError || (error instanceof InvalidDataError && !(error instanceof PermissionError));
}
