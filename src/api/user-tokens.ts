import type { Clock } from "../clock.js";
import type { ApiClient } from "./client.js";
import { getUserToken, type UserRef } from "./endpoints.js";

// The one policy for user tokens (services.userTokens()): minted through user/token
// (docs/service-spec.md §4.6), redacted from every message the moment they arrive, their
// expiry computed from a clock read *before* the request (so expiresAt errs early, never
// late), and a token of the same user reused while at least ten minutes of it remain
// (docs/cli-contract.md "Durable links"). Held in memory for one run only: user tokens are
// never written to settings, state, logs or files (docs/service-spec.md §5.6). A run may last
// weeks (`links serve`), so a token is let go — from memory and from the redactor — once it has
// expired, and at most MAX_HELD are held (docs/links.md "Tokens").

/** A token is reused while at least this much of it remains. */
export const REUSE_MARGIN_MS = 10 * 60_000;
/** Enough for a very large morning of `links serve`; the oldest token goes first beyond it. */
const MAX_HELD = 50_000;

export interface UserTokenGrant {
  token: string;
  /** When the token stops working (ms since the epoch), by the service's expiresIn. */
  expiresAtMs: number;
  /** The same, as an ISO time. */
  expiresAt: string;
  /** Seconds it lives: the service's expiresIn when new, the whole seconds left when reused. */
  expiresIn: number;
  /** true: a token minted earlier in this run, handed out again. */
  reused: boolean;
}

export interface UserTokensOptions {
  client: () => Promise<ApiClient>;
  clock: Clock;
  /** Called with every token minted, before anything else sees it. */
  redact(secret: string): void;
  /** Called with a token let go (expired, or beyond MAX_HELD): the redactor need not keep it. */
  forget?(secret: string): void;
}

interface Held {
  token: string;
  expiresAtMs: number;
  /** The service's expiresIn (or the spec's lifetime when it left it out). */
  lifetimeSeconds: number;
}

export class UserTokens {
  /** Tokens minted, and tokens handed out again (for `links serve`'s metrics). */
  minted = 0;
  reused = 0;
  private readonly held = new Map<string, Held>();
  private readonly inFlight = new Map<string, Promise<Held>>();

  constructor(private readonly options: UserTokensOptions) {}

  /** A token of the user: one held that still has ten minutes, else a new one. */
  async get(ref: UserRef): Promise<UserTokenGrant> {
    const key = JSON.stringify([ref.organizationId, ref.userId]);
    const held = this.held.get(key);
    if (held && held.expiresAtMs - this.options.clock.now() >= REUSE_MARGIN_MS) {
      this.reused++;
      return this.grant(held, true);
    }
    // Two asks for the same user at once (links serve) share one request.
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.mint(ref);
      this.inFlight.set(key, pending);
      let minted: Held;
      try {
        minted = await pending;
        // Map order is insertion order: re-inserted, the first entries are the oldest tokens.
        this.held.delete(key);
        this.held.set(key, minted);
        this.letGo();
      } finally {
        this.inFlight.delete(key);
      }
      return this.grant(minted, false);
    }
    return this.grant(await pending, true);
  }

  /** Drops expired tokens from the front (tokens of one service live alike), and the oldest beyond MAX_HELD. */
  private letGo(): void {
    const now = this.options.clock.now();
    for (const [key, held] of this.held) {
      if (held.expiresAtMs > now && this.held.size <= MAX_HELD) break;
      this.held.delete(key);
      this.options.forget?.(held.token);
    }
  }

  private async mint(ref: UserRef): Promise<Held> {
    const issuedAt = this.options.clock.now();
    const answer = await getUserToken(await this.options.client(), ref);
    this.options.redact(answer.token);
    this.minted++;
    return { token: answer.token, expiresAtMs: issuedAt + answer.expiresIn * 1000, lifetimeSeconds: answer.expiresIn };
  }

  private grant(held: Held, reused: boolean): UserTokenGrant {
    const expiresIn = reused ? Math.floor((held.expiresAtMs - this.options.clock.now()) / 1000) : held.lifetimeSeconds;
    return {
      token: held.token,
      expiresAtMs: held.expiresAtMs,
      expiresAt: new Date(held.expiresAtMs).toISOString(),
      expiresIn,
      reused,
    };
  }
}
