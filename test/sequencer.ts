import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./durations.json" with { type: "json" };

// The suite is CPU-bound on the 2-core machine, with waits (spawned binaries, real proxies,
// rate windows) in a few long files. Started late, one of those is a tail of many seconds with
// one worker busy; started first, its waits overlap the short files. Vitest's own order is
// "longest first" only when its cache (node_modules/.vite) holds the last run's durations —
// never on a fresh clone, where it orders by file size — so the durations are kept in
// test/durations.json (scripts/test-durations.mjs refreshes it). A file not listed there is
// weighed by this machine's last run (vitest's cache) and, when it never ran here (a fresh
// clone), by the median of the listed files of its directory: counted as the shortest, a new
// 20-second file of test/cli started at 69 s of a run and one of test/e2e made a 40-second
// tail (docs/development.md, "How long the suite takes").
const seconds = durations as Record<string, number>;

/** The median listed duration per directory (test/cli, test/e2e, …). */
function directoryMedians(): Map<string, number> {
  const byDirectory = new Map<string, number[]>();
  for (const [path, duration] of Object.entries(seconds)) {
    const directory = path.slice(0, path.lastIndexOf("/"));
    byDirectory.set(directory, [...(byDirectory.get(directory) ?? []), duration]);
  }
  return new Map(
    [...byDirectory].map(([directory, list]) => [directory, list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!]),
  );
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = process.cwd();
    const medians = directoryMedians();
    const weight = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const listed = seconds[path];
      if (listed !== undefined) return listed;
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      if (last?.duration) return last.duration / 1000;
      return medians.get(path.slice(0, path.lastIndexOf("/"))) ?? 0;
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    return [...files].sort((a, b) => weights.get(b)! - weights.get(a)! || (a.moduleId < b.moduleId ? -1 : 1));
  }
}
