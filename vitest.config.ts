import { defineConfig } from "vitest/config";
import LongestFirst from "./test/sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Much of the suite's wall time is waiting, not computing: Retry-After seconds, rate
    // windows, import polling, the spawned binaries of test/e2e. Four workers on the 2-core
    // machine overlap those waits with the files that compute: 48–52 s against 58–59 s with
    // three (docs/development.md, "How long the suite takes").
    maxWorkers: 4,
    // A worker keeps its modules from one test file to the next instead of loading src/ and
    // vitest again per file (import time fell from ~40 s to ~11 s). Safe because no test mocks
    // a module or changes process-wide state; the in-process runs are checked for leaks by
    // test/cli/isolation.test.ts.
    isolate: false,
    // Longest files first (test/sequencer.ts), the same order on every machine.
    sequence: { sequencer: LongestFirst },
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by each file's content, the config and the lockfile): a second run skips vite's
    // transforms, ~3 s of CPU; a fresh clone (CI) fills it on its first run at no extra cost
    // (docs/development.md, "How long the suite takes"). `npx vitest --clearCache` empties it.
    // Not under Stryker: each of its runs copies the project into a new directory, whose files
    // would each add an entry.
    experimental: { fsModuleCache: process.env.STRYKER_MUTATOR_WORKER === undefined },
    // One PostgreSQL server for the run, a database per file (test/helpers/postgres.ts).
    globalSetup: ["./test/helpers/postgres-run.ts"],
    // CPU per test file, when asked: SIMADMIN_TEST_CPU=<file> (scripts/test-cpu.mjs sums it).
    setupFiles: process.env.SIMADMIN_TEST_CPU ? ["./test/cpu-probe.ts"] : [],
  },
});
