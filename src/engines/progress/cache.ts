import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { isErrnoError } from "../../errors.js";
import type { StateStore, Tenant } from "../../state/store.js";

// Pairs seen completed (docs/cli-contract.md "Progress"): a completion does not go away, so a
// completed pair is never asked again — the access budget (100 per 5 min, docs/service-spec.md §8)
// goes to the pairs whose answer can still change. Kept in the state store (docs/state.md),
// kind `progress-cache`, so every machine sharing the store shares it. An entry's key is a
// SHA-256 of (base URL, organization, user, simulation): ids of trainees are personal data and
// are not written in the clear; the API key, user tokens and links are never written.
// Written after every newly completed pair (one batch each), so Ctrl-C or a kill loses nothing
// learned, and two runs at once only ever add entries.

export const PROGRESS_CACHE_KIND = "progress-cache";
/** Where the cache was kept before the state store: moved into the store on first use. */
const LEGACY_FILE = "progress-cache.json";

const CachedPair = z.object({
  completedAt: z.string().nullable(),
  bestScore: z.number().nullable(),
  attempts: z.number(),
  /** When this run saw it completed (ISO time). */
  seenAt: z.string(),
});
export type CachedPair = z.infer<typeof CachedPair>;

const LegacyFile = z.object({ version: z.literal(1), pairs: z.record(z.string(), CachedPair) });

export interface PairIdentity {
  baseUrl: string;
  organizationId: string;
  userId: string;
  simulationId: string;
}

function entryName(pair: PairIdentity): string {
  return createHash("sha256")
    .update(JSON.stringify([pair.baseUrl, pair.organizationId, pair.userId, pair.simulationId]))
    .digest("hex");
}

export class CompletedPairCache {
  private constructor(
    private readonly store: StateStore,
    private readonly tenant: Tenant,
    private readonly pairs: Map<string, CachedPair>,
  ) {}

  /**
   * The tenant's cache in `store`. A `progress-cache.json` left in `legacyDir` by an older
   * version is moved in first (`info` says so); an entry of another shape is ignored (it only
   * saves requests).
   */
  static async open(
    store: StateStore,
    tenant: Tenant,
    legacyDir: string,
    info: (text: string) => void,
  ): Promise<CompletedPairCache> {
    await migrateLegacyFile(store, tenant, join(legacyDir, LEGACY_FILE), info);
    const pairs = new Map<string, CachedPair>();
    for (const [key, value] of await store.list(tenant, PROGRESS_CACHE_KIND)) {
      const parsed = CachedPair.safeParse(value);
      if (parsed.success) pairs.set(key, parsed.data);
    }
    return new CompletedPairCache(store, tenant, pairs);
  }

  get(pair: PairIdentity): CachedPair | undefined {
    return this.pairs.get(entryName(pair));
  }

  /**
   * Records a completed pair in the store at once. A store that fails is the run's failure
   * (exit 11 naming it): what was recorded before stays. `_warn` is kept for the callers.
   */
  async put(pair: PairIdentity, entry: CachedPair, _warn?: (text: string) => void): Promise<void> {
    const name = entryName(pair);
    this.pairs.set(name, entry);
    await this.store.put(this.tenant, PROGRESS_CACHE_KIND, { [name]: entry });
  }
}

/**
 * Moves the pre-store cache file into the store: its entries go to this tenant (each key
 * already hashes its own service and organization, so an entry of another one is never
 * matched), then the file is removed. A run killed in between moves it again: the same values.
 */
async function migrateLegacyFile(store: StateStore, tenant: Tenant, path: string, info: (text: string) => void): Promise<void> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isErrnoError(error) && error.code === "ENOENT") return;
    info(`${path} cannot be read (${(error as Error).message}): left where it is, not moved into the state store`);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: nothing to move (the schema check below refuses undefined); the file still goes.
  }
  const parsed = LegacyFile.safeParse(json);
  const pairs = parsed.success ? parsed.data.pairs : {};
  const count = Object.keys(pairs).length;
  if (count > 0) await store.put(tenant, PROGRESS_CACHE_KIND, pairs);
  await rm(path, { force: true });
  info(
    `moved the cache of completed pairs (${count} pair${count === 1 ? "" : "s"}) from ${path} into the state store ${store.location}`,
  );
}
