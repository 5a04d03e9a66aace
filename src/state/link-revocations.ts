import type { StateStore, Tenant } from "./store.js";

// Revoked durable links (docs/cli-contract.md "Durable links"), kept in the state store, kind
// `links`, beside the key: one entry per revoked link, under its ref (the link id's hash —
// a list of revocations reveals no working link), and one per user revoked as a whole, with
// the time before which that user's links stop. `links serve` re-reads them every few
// seconds, so every instance sharing the store honours a revocation within 10 s.

const LINK_PREFIX = "revoked-link:";
const USER_PREFIX = "revoked-user:";

export interface Revocations {
  links: ReadonlySet<string>;
  /** userId → links issued at or before this time (ms) are revoked. */
  usersBefore: ReadonlyMap<string, number>;
}

export async function revokeLinks(
  store: Pick<StateStore, "put">,
  tenant: Tenant,
  refs: readonly string[],
  now: number,
): Promise<void> {
  const at = new Date(now).toISOString();
  await store.put(tenant, "links", Object.fromEntries(refs.map((ref) => [`${LINK_PREFIX}${ref}`, { revokedAt: at }])));
}

export async function revokeUser(store: Pick<StateStore, "put">, tenant: Tenant, userId: string, now: number): Promise<void> {
  await store.put(tenant, "links", { [`${USER_PREFIX}${userId}`]: { before: now, revokedAt: new Date(now).toISOString() } });
}

export async function readRevocations(store: Pick<StateStore, "list">, tenant: Tenant): Promise<Revocations> {
  const links = new Set<string>();
  const usersBefore = new Map<string, number>();
  for (const [key, value] of await store.list(tenant, "links")) {
    if (key.startsWith(LINK_PREFIX)) links.add(key.slice(LINK_PREFIX.length));
    else if (key.startsWith(USER_PREFIX)) {
      const before = (value as { before?: unknown } | null)?.before;
      if (typeof before === "number" && Number.isFinite(before)) usersBefore.set(key.slice(USER_PREFIX.length), before);
    }
  }
  return { links, usersBefore };
}
