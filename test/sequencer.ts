import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./durations.json" with { type: "json" };

// The suite is CPU-bound on the 2-core machine, with waits (spawned binaries, real proxies,
// rate windows) in a few long files. Started late, one of those is a tail of many seconds with
// one worker busy; started first, its waits overlap the short files. Vitest's own order is
// "longest first" only when its cache (node_modules/.vite) holds the last run's durations —
// never on a fresh clone, where it orders by file size — so the durations are kept in
// test/durations.json (scripts/test-durations.mjs refreshes it). A file not listed yet is new
// and counts as short.
const seconds = durations as Record<string, number>;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = process.cwd();
    const weight = (spec: TestSpecification) => seconds[relative(root, spec.moduleId)] ?? 0;
    return [...files].sort((a, b) => weight(b) - weight(a) || (a.moduleId < b.moduleId ? -1 : 1));
  }
}
