import { configDefaults, defineConfig } from "vitest/config";

// `npm run mutate` (stryker.config.mjs, docs/mutation-testing.md): the unit tests, which
// exercise the mutated layers (domain/, api/rate/, output/) directly and fast. Not the
// in-process command tests of test/cli: Stryker's vitest runner runs tests in worker threads
// (it sets pool "threads" itself), where their process.chdir() is refused; nor test/e2e,
// which runs dist/, never the mutated sources.
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    setupFiles: ["test/mutate/preload.ts"],
    // declarations.test.ts loads every command module inside a test (declaration.load()):
    // with no isolation, a domain module first loaded there has its module-level constants
    // (regexes, tables) counted as covered by that one test only, so their mutants "survive"
    // without the module's own tests ever running against them. It tests the command layer,
    // which is not mutated; without it those constants are static mutants (ignoreStatic).
    exclude: [...configDefaults.exclude, "test/unit/declarations.test.ts"],
    // Instrumented code runs several times slower; the tests at scale (200,000 rows, 300,000
    // addresses) are left to `npm test`: under mutation each would run once per mutant it covers.
    testNamePattern: /^(?!.*(at scale|\d{3},\d{3}))/,
    // One module graph per worker for every run: Stryker switches mutants through a global it
    // reads at run time, and reloads the environment itself for static mutants, so results are
    // the same as with isolation (table-columns.ts: 143 killed, 63 survived either way) at a
    // fraction of the time (the dynamic mutants of that module: 95 s -> 29 s).
    isolate: false,
    globalSetup: ["./test/helpers/postgres-run.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
