import * as endpoints from "../../api/endpoints.js";
import type { ApiClient } from "../../api/client.js";
import { isItemRejection, rejectionText } from "../../api/rejections.js";
import type { UserTokens } from "../../api/user-tokens.js";
import type { Clock } from "../../clock.js";
import { UnexpectedResponseError } from "../../errors.js";
import { composeUserLink } from "../../domain/links.js";
import { pairFacts, type PairFacts, type ProgressRow } from "../../domain/progress.js";
import type { CompletedPairCache, PairIdentity } from "./cache.js";

// The requests of `progress` and `progress notify`: completion-data per pair
// (docs/service-spec.md §4.3), and for `progress --links` a deep link per simulation and a
// token per user (the one user-token policy, services.userTokens()). An engine (docs/architecture.md "Engines"): it returns data and tells its
// steps to `onStep`; the commands draw the progress line (commands/shared/asking-progress.ts).

export interface PairResult {
  row: ProgressRow;
  facts: PairFacts | undefined;
  /** The service refused the pair (404, 400), or its answer could not settle it: the message. */
  error?: string;
  /** The answer came but could not be read (a malformed attempt): the pair is unsettled, not refused. */
  unsettled?: boolean;
}

/** A pair's link, and when the token it carries expires. */
export interface PairLink {
  link: string;
  expiresAt: string;
}

/** Where the asker is, for a progress line: before each request of a sweep or of links(). */
export interface AskStep {
  /** "progress", "waiting", "links", or the caller's label. */
  label: string;
  done: number;
  total: number;
}

export interface PairAskerDeps {
  client: ApiClient;
  organizationId: string;
  clock: Clock;
  cache: CompletedPairCache;
  identity: (row: ProgressRow) => PairIdentity;
  /** Why a completed pair could not be cached. */
  warn: (text: string) => void;
  /** User tokens for links(): minted, redacted and reused by the one policy (api/user-tokens.ts). */
  tokens: UserTokens;
  onStep?: (step: AskStep) => void | Promise<void>;
}

/** Asks completion-data for pairs; caches completions as they come. */
export class PairAsker {
  asked = 0;
  newlyCompleted = 0;
  requests = 0;

  constructor(private readonly deps: PairAskerDeps) {}

  /** One request per pair, in the order given. */
  async sweep(rows: readonly ProgressRow[], results: Map<ProgressRow, PairResult>, label = "progress"): Promise<void> {
    for (const [done, row] of rows.entries()) {
      await this.deps.onStep?.({ label, done, total: rows.length });
      results.set(row, await this.ask(row));
    }
  }

  private async ask(row: ProgressRow): Promise<PairResult> {
    const ref = { organizationId: this.deps.organizationId, userId: row.userId, simulationId: row.simulationId };
    let attempts;
    try {
      this.requests++;
      attempts = await endpoints.getCompletionData(this.deps.client, ref);
    } catch (error) {
      if (isItemRejection(error)) return { row, facts: undefined, error: rejectionText(error) };
      // One malformed answer settles nothing about this pair, and nothing about the others:
      // reported on its row, the run goes on (and asks it again next time: nothing is cached).
      if (error instanceof UnexpectedResponseError) {
        return { row, facts: undefined, error: `the service's answer could not be read: ${error.message}`, unsettled: true };
      }
      throw error;
    } finally {
      this.asked++;
    }
    const facts = pairFacts(attempts);
    if (facts.completed) {
      this.newlyCompleted++;
      await this.deps.cache.put(
        this.deps.identity(row),
        {
          completedAt: facts.completedAt,
          bestScore: facts.bestScore,
          attempts: facts.attempts,
          seenAt: new Date(this.deps.clock.now()).toISOString(),
        },
        this.deps.warn,
      );
    }
    return { row, facts };
  }

  /**
   * A complete link for each pair: the deep link of its simulation — the spec gives it the form
   * `{app_url}/<org>/simulation/<sim>` (docs/service-spec.md §2), the same for every user, so one
   * deep-links request per simulation — and a token per user from the user-token policy
   * (tokens live an hour, docs/service-spec.md §5: minted for this run, never stored).
   */
  async links(pairs: readonly PairResult[]): Promise<Map<ProgressRow, PairLink>> {
    const deepLinks = new Map<string, string>();
    const out = new Map<ProgressRow, PairLink>();
    for (const [done, { row }] of pairs.entries()) {
      await this.deps.onStep?.({ label: "links", done, total: pairs.length });
      let deepLink = deepLinks.get(row.simulationId);
      if (deepLink === undefined) {
        this.requests++;
        deepLink = await endpoints.getDeepLink(this.deps.client, {
          organizationId: this.deps.organizationId,
          userId: row.userId,
          simulationId: row.simulationId,
        });
        deepLinks.set(row.simulationId, deepLink);
      }
      const token = await this.deps.tokens.get({ organizationId: this.deps.organizationId, userId: row.userId });
      if (!token.reused) this.requests++;
      out.set(row, { link: composeUserLink(deepLink, token.token), expiresAt: token.expiresAt });
    }
    return out;
  }
}
