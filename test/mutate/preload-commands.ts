/// <reference types="vite/client" />
// Loaded before every test file under `npm run mutate:commands` (vitest.mutate.commands.config.ts),
// for the reason test/mutate/preload.ts gives: module-level code of a mutated module runs outside
// any test, so its mutants are static (ignored by default), not falsely "covered" by the first
// test that happened to load the module lazily.
import.meta.glob(
  [
    "../../src/commands/users-sync/**/*.ts",
    "../../src/commands/reports-sync/**/*.ts",
    "../../src/commands/progress/**/*.ts",
    "../../src/commands/progress-notify/**/*.ts",
    "../../src/engines/**/*.ts",
  ],
  { eager: true },
);
