import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { isErrnoError } from "../../errors.js";
import { writeFileAtomic } from "../../output/atomic-file.js";

// Pairs seen completed (docs/cli-contract.md "Progress"): a completion does not go away, so a
// completed pair is never asked again — the access budget (100 per 5 min, docs/service-spec.md §8)
// goes to the pairs whose answer can still change. Kept in the settings directory, one
// file, 0600 (directory 0700): ids of trainees are personal data. An entry's name is a
// SHA-256 of (base URL, organization, user, simulation), so another service or
// organization never reuses it; the API key, user tokens and links are never written.
// Written after every newly completed pair (atomically), so Ctrl-C loses nothing learned.
// Two runs at once may each write the file; the loser's new entries cost one more request
// next time, never a wrong answer.

const CACHE_FILE = "progress-cache.json";

const CachedPair = z.object({
  completedAt: z.string().nullable(),
  bestScore: z.number().nullable(),
  attempts: z.number(),
  /** When this run saw it completed (ISO time). */
  seenAt: z.string(),
});
export type CachedPair = z.infer<typeof CachedPair>;

const CacheFile = z.object({ version: z.literal(1), pairs: z.record(z.string(), CachedPair) });

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
    private path: string | undefined,
    private readonly pairs: Record<string, CachedPair>,
  ) {}

  /**
   * The cache in `dir`; an unreadable or foreign file starts empty (it only saves requests).
   * `warn` hears why a cache cannot be kept.
   */
  static async open(dir: string, warn: (text: string) => void): Promise<CompletedPairCache> {
    const path = join(dir, CACHE_FILE);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const parsed = CacheFile.safeParse(JSON.parse(await readFile(path, "utf8")));
      return new CompletedPairCache(path, parsed.success ? parsed.data.pairs : {});
    } catch (error) {
      if (isErrnoError(error) && error.code === "ENOENT") return new CompletedPairCache(path, {});
      if (error instanceof SyntaxError) return new CompletedPairCache(path, {});
      warn(`the cache of completed pairs in ${dir} cannot be used (${(error as Error).message}): every pair is asked`);
      return new CompletedPairCache(undefined, {});
    }
  }

  get(pair: PairIdentity): CachedPair | undefined {
    return this.pairs[entryName(pair)];
  }

  /** Records a completed pair and writes the file at once; a write that fails is warned about, once. */
  async put(pair: PairIdentity, entry: CachedPair, warn: (text: string) => void): Promise<void> {
    this.pairs[entryName(pair)] = entry;
    if (this.path === undefined) return;
    try {
      await writeFileAtomic(this.path, `${JSON.stringify({ version: 1, pairs: this.pairs })}\n`, 0o600);
    } catch (error) {
      warn(`cannot write ${this.path} (${(error as Error).message}): completed pairs will be asked again next time`);
      this.path = undefined;
    }
  }
}
