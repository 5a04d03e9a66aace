import * as endpoints from "../../api/endpoints.js";
import type { ApiClient } from "../../api/client.js";
import type { CommandContext } from "../../context.js";
import { CliError, InvalidDataError, NotFoundError, PermissionError } from "../../errors.js";
import { composeUserLink } from "../../domain/links.js";
import { pairFacts, type PairFacts, type ProgressRow } from "../../domain/progress.js";
import { timeLeftText } from "../shared/time-left.js";
import type { CompletedPairCache, PairIdentity } from "./cache.js";

// The requests of `progress`: completion-data per pair (docs/service-spec.md §4.3), and for
// --links a deep link per simulation and a token per user; the progress line and its ETA.

export interface PairResult {
  row: ProgressRow;
  facts: PairFacts | undefined;
  /** The service refused the pair (404, 400): the message. */
  error?: string;
}

/** A pair's link, and when the token it carries expires. */
export interface PairLink {
  link: string;
  expiresAt: string;
}

/** Asks completion-data for pairs, with progress and ETA on stderr; caches completions as they come. */
export class PairAsker {
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
  async links(pairs: readonly PairResult[]): Promise<Map<ProgressRow, PairLink>> {
    const deepLinks = new Map<string, string>();
    const tokens = new Map<string, { token: string; expiresAt: string }>();
    const out = new Map<ProgressRow, PairLink>();
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

/** What the service says about one pair (unknown user or simulation, invalid ids): the run goes on. */
function isPairRejection(error: unknown): error is CliError {
  return error instanceof NotFoundError || (error instanceof InvalidDataError && !(error instanceof PermissionError));
}
