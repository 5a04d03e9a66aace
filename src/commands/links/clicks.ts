import * as endpoints from "../../api/endpoints.js";
import type { ApiClient } from "../../api/client.js";
import type { UserTokens } from "../../api/user-tokens.js";
import {
  AuthError,
  BudgetFullError,
  CliError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  UnexpectedResponseError,
} from "../../errors.js";
import {
  linkStanding,
  signResumeTicket,
  verifyLinkId,
  verifyResumeTicket,
  type LinkClaims,
  type LinkScope,
} from "../../domain/durable-links.js";
import { composeUserLink } from "../../domain/links.js";
import type { Revocations } from "../../state/link-revocations.js";
import type { Metrics } from "./metrics.js";
import { busyPage, failurePage, gonePage, notFoundPage, startPage, type Page } from "./pages.js";

// What a request for a durable link gets (docs/cli-contract.md "Durable links"). Looking —
// GET or HEAD, whoever asks — only checks the signature, the expiry and the revocations kept
// in memory: nothing is asked of the service, so a mail scanner spends no token and no
// budget. Clicking — the page's POST — asks for the deep link (kept per simulation: the spec
// gives it the form `{app_url}/<org>/simulation/<sim>`, the same for every user, §2) and a
// user token (services.userTokens(): one per user, reused while ten minutes of it remain,
// in memory only), and answers 303 to `<deepLink>?token=…`: the only place a
// click can lead is the deep link the service returned.

/**
 * How long a click may wait for the access budget (and the service) before it is answered
 * 503: long enough that a full budget drains into waiting clicks without gaps, short enough
 * for a browser that shows a spinner.
 */
export const CLICK_HOLD_MS = 8_000;
/** A resume ticket lasts this long after its Retry-After. */
const RESUME_GRACE_MS = 15 * 60_000;
/** Deep links are asked again after this long (a simulation moved, a new app address). */
const DEEP_LINK_TTL_MS = 60 * 60_000;
const MAX_DEEP_LINKS = 10_000;

export type Answer = (Page | { status: 303; location: string }) & {
  /** For the log line: why, in a few words (never a token or an id). */
  note?: string;
};

export interface ClickOptions {
  key: Buffer;
  scope: LinkScope;
  now: () => number;
  /** The revocations as last read from the state store (revocation-watch.ts). */
  revocations: () => Revocations;
  client: ApiClient;
  tokens: Pick<UserTokens, "get">;
  metrics: Metrics;
}

type Checked = { ok: false; answer: Answer } | { ok: true; claims: LinkClaims; ref: string };

export class LinkClicks {
  readonly #options: ClickOptions;
  readonly #deepLinks = new Map<string, { url: string; at: number }>();
  readonly #deepLinksInFlight = new Map<string, Promise<string>>();

  constructor(options: ClickOptions) {
    this.#options = options;
  }

  /** The link's ref for the log, when the id verifies (a forged id gets no ref of its own). */
  check(id: string): Checked {
    const { key, scope, now, revocations } = this.#options;
    const verified = verifyLinkId(key, scope, id);
    if (!verified.ok) return { ok: false, answer: { ...notFoundPage(), note: verified.reason } };
    const revoked = revocations();
    const standing = linkStanding(verified.claims, now(), {
      linkRevoked: revoked.links.has(verified.ref),
      userRevokedBefore: revoked.usersBefore.get(verified.claims.userId),
    });
    if (standing !== "valid") return { ok: false, answer: { ...gonePage(standing), note: standing } };
    return { ok: true, claims: verified.claims, ref: verified.ref };
  }

  /** GET/HEAD: the Start page, or why not. Never asks the service. */
  view(id: string): Answer {
    const checked = this.check(id);
    return checked.ok ? startPage(checked.claims.simulationId) : checked.answer;
  }

  /** GET with `?resume=<ticket>`: the click the trainee made before a 503, or the Start page. */
  async resume(id: string, ticket: string): Promise<Answer> {
    const checked = this.check(id);
    if (!checked.ok) return checked.answer;
    if (!verifyResumeTicket(this.#options.key, checked.ref, ticket, this.#options.now())) {
      return { ...startPage(checked.claims.simulationId), note: "stale resume" };
    }
    return this.#click(checked);
  }

  /** POST: the trainee pressed Start. */
  async click(id: string): Promise<Answer> {
    const checked = this.check(id);
    return checked.ok ? this.#click(checked) : checked.answer;
  }

  async #click({ claims, ref }: { claims: LinkClaims; ref: string }): Promise<Answer> {
    const { metrics, tokens } = this.#options;
    metrics.count("clicks");
    try {
      const deepLink = await this.#deepLink(claims);
      const token = await tokens.get({ organizationId: this.#options.scope.organizationId, userId: claims.userId });
      metrics.count(token.reused ? "token_cache_hits" : "tokens_minted");
      return { status: 303, location: composeUserLink(deepLink, token.token), note: token.reused ? "kept token" : "new token" };
    } catch (error) {
      return this.#failed(error, ref);
    }
  }

  #failed(error: unknown, ref: string): Answer {
    const { metrics, now, key } = this.#options;
    if (error instanceof BudgetFullError || error instanceof RateLimitError) {
      metrics.count("budget_waits");
      const waitMs = error instanceof BudgetFullError ? error.nextSlotInMs : (error.retryAfterMs ?? 30_000);
      // Back a little before the slot frees, then wait for it inside the request: the budget
      // is spent as it frees, with no gap for the page's reload to land in.
      const seconds = Math.max(1, Math.ceil((waitMs - CLICK_HOLD_MS / 2) / 1000));
      const ticket = signResumeTicket(key, ref, now() + seconds * 1000 + RESUME_GRACE_MS);
      return { ...busyPage(seconds, `?resume=${ticket}`), note: `budget full, retry in ${seconds} s` };
    }
    metrics.count("service_failures");
    if (error instanceof NotFoundError) return { ...gonePage("unavailable"), note: "service 404" };
    const why =
      error instanceof AuthError || error instanceof PermissionError
        ? `the service refused the API key (${error.message})`
        : error instanceof CliError
          ? error.message
          : `internal error: ${error instanceof Error ? error.message : String(error)}`;
    return { ...failurePage(error instanceof CliError ? 502 : 500), note: why };
  }

  async #deepLink(claims: LinkClaims): Promise<string> {
    const { now, client, scope } = this.#options;
    const kept = this.#deepLinks.get(claims.simulationId);
    if (kept && now() - kept.at < DEEP_LINK_TTL_MS) return kept.url;
    let pending = this.#deepLinksInFlight.get(claims.simulationId);
    if (!pending) {
      pending = endpoints
        .getDeepLink(client, { organizationId: scope.organizationId, userId: claims.userId, simulationId: claims.simulationId })
        .then((url) => {
          // A redirect goes only to a web address the service gave (never javascript:, data:, …).
          const protocol = URL.canParse(url) ? new URL(url).protocol : "";
          if (protocol !== "https:" && protocol !== "http:") {
            throw new UnexpectedResponseError("deep-links: the service's deep link is not an http(s) address");
          }
          this.#deepLinks.delete(claims.simulationId);
          this.#deepLinks.set(claims.simulationId, { url, at: now() });
          while (this.#deepLinks.size > MAX_DEEP_LINKS) this.#deepLinks.delete(this.#deepLinks.keys().next().value!);
          return url;
        })
        .finally(() => this.#deepLinksInFlight.delete(claims.simulationId));
      this.#deepLinksInFlight.set(claims.simulationId, pending);
    }
    return pending;
  }
}
