// `npm run mutate` (issue 27 item 3; docs/mutation-testing.md): StrykerJS mutates the pure
// layers and runs the tests that cover each mutant. Not part of `npm test` — it is slow.
// One module at a time: `npm run mutate -- --mutate src/domain/date-windows.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: true },
  mutate: ["src/domain/**/*.ts", "src/api/rate/**/*.ts", "src/output/**/*.ts", "!src/**/*.d.ts"],
  coverageAnalysis: "perTest",
  // The machine has 2 cores shared with other work.
  concurrency: 2,
  // Static mutants (module-level constants: the date regexes, zod schemas) need a fresh module
  // load per test; ignoring them reported them as survivors here, so they run (slower).
  ignoreStatic: false,
  // Later runs re-test only the mutants whose code or covering tests changed
  // (reports/stryker-incremental.json, git-ignored); `--force` runs everything again.
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};
