import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./durations.json" with { type: "json" };

// The suite is CPU-bound on the 2-core machine, with waits (spawned binaries, real proxies,
// rate windows) in a few long files. Started late, one of those is a tail of many seconds with
// one worker busy; started first, its waits overlap the short files. Vitest's own order is
// "longest first" only when its cache (node_modules/.vite) holds the last run's durations —
// never on a fresh clone, where it orders by file size — so the durations are kept in
// test/durations.json (scripts/test-durations.mjs refreshes it). A file not listed there is
// weighed by this machine's last run (vitest's cache) and counts as short only when it never
// ran: the two kill-point files added without an entry ran last and made a 40-second tail
// (docs/development.md, "How long the suite takes").
const seconds = durations as Record<string, number>;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = process.cwd();
    const weight = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const listed = seconds[path];
      if (listed !== undefined) return listed;
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return (last?.duration ?? 0) / 1000;
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    return [...files].sort((a, b) => weights.get(b)! - weights.get(a)! || (a.moduleId < b.moduleId ? -1 : 1));
  }
}
