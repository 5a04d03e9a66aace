// The user tokens a click hands out (docs/cli-contract.md "Durable links"): one per user,
// reused while at least 10 minutes of it remain, kept in this process's memory only (user
// tokens are never stored). Concurrent clicks of one user share one request. A seam: the
// program's shared token policy can stand in for it without the server changing.

/** At least this long left on a token handed out (a trainee who opens the app then still gets in). */
export const MIN_TOKEN_LIFE_MS = 10 * 60_000;
/** Enough for a very large morning; the oldest entry goes first beyond it. */
const MAX_ENTRIES = 50_000;

export interface MintedToken {
  token: string;
  /** ms since the epoch. */
  expiresAt: number;
}

export interface UserTokenSource {
  /** The token and whether it came from the cache (no request). */
  get(userId: string): Promise<MintedToken & { cached: boolean }>;
}

export function cachedUserTokens(mint: (userId: string) => Promise<MintedToken>, now: () => number): UserTokenSource {
  const tokens = new Map<string, MintedToken>();
  const inFlight = new Map<string, Promise<MintedToken>>();
  const fresh = (entry: MintedToken | undefined): entry is MintedToken =>
    entry !== undefined && entry.expiresAt - now() >= MIN_TOKEN_LIFE_MS;
  return {
    async get(userId) {
      const kept = tokens.get(userId);
      if (fresh(kept)) return { ...kept, cached: true };
      let pending = inFlight.get(userId);
      if (!pending) {
        pending = mint(userId).finally(() => inFlight.delete(userId));
        inFlight.set(userId, pending);
      }
      const minted = await pending;
      tokens.delete(userId);
      tokens.set(userId, minted);
      // Map order is insertion order: the first key is the longest unrefreshed.
      while (tokens.size > MAX_ENTRIES) tokens.delete(tokens.keys().next().value!);
      return { ...minted, cached: false };
    },
  };
}
