// `npm run mutate:commands` (docs/mutation-testing.md, "The command layer"): StrykerJS mutates
// three commands and the engines under the in-process command tests (vitest.mutate.commands.config.ts).
// Slow and CPU-heavy: one directory at a time on a shared machine,
// `npm run mutate:commands -- --mutate "src/engines/progress/**/*.ts"`.
import base from "./stryker.config.mjs";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: "vitest.mutate.commands.config.ts", related: false },
  mutate: [
    "src/commands/users-sync/**/*.ts",
    "src/commands/reports-sync/**/*.ts",
    "src/commands/progress/**/*.ts",
    "src/commands/progress-notify/**/*.ts",
    "src/engines/**/*.ts",
    // Declarations and option schemas are plain data and zod tables: static mutants only.
    "!src/commands/*/command.ts",
  ],
  // A command test starts a sandbox (and some a PostgreSQL server): one at a time.
  concurrency: 1,
  // Sandboxes, Retry-After waits and polling make a run of the tests take seconds, not milliseconds.
  timeoutMS: 20_000,
  timeoutFactor: 2,
  incrementalFile: "reports/stryker-commands-incremental.json",
  jsonReporter: { fileName: "reports/mutation/commands.json" },
  tempDirName: ".stryker-tmp-commands",
  thresholds: { high: 90, low: 85, break: null },
};
