/// <reference types="vite/client" />
// Loaded before every test file under `npm run mutate` (vitest.mutate.config.ts): every mutated
// module is imported here, outside any test, so its module-level code (constants, tables,
// regexes) runs once at load time and Stryker sees it as static — ignored by default
// (docs/mutation-testing.md). Without it, a module a test loads lazily (inside the test) would
// have its constants counted as covered by that test: with no isolation the module is never
// loaded again, the mutant never takes effect, and it "survives" falsely.
import.meta.glob(["../../src/domain/**/*.ts", "../../src/api/rate/**/*.ts", "../../src/output/**/*.ts", "!**/*.d.ts"], {
  eager: true,
});
