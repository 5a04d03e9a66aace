import { configDefaults, defineConfig } from "vitest/config";

// `npm run mutate:commands` (stryker.commands.conf.mjs, docs/mutation-testing.md): the
// in-process command tests that run `users sync`, `reports sync`, `progress` (and `progress
// notify`, `reports`, which share the engines). Stryker's vitest runner runs them in worker
// threads, where process.chdir() is refused: the test files that run a command in a directory
// of their own (`cwd`: users import, completion scripts, the isolation checks) are not here.
// MUTATE_TESTS narrows the files for one module's run (Stryker's first, unmutated run of every
// file here takes minutes on a shared machine): MUTATE_TESTS="test/cli/progress*.test.ts".
const narrowed = process.env.MUTATE_TESTS?.split(",").filter((glob) => glob !== "");

export default defineConfig({
  test: {
    include: narrowed ?? [
      "test/cli/users-sync*.test.ts",
      "test/cli/progress*.test.ts",
      "test/cli/reports-sync*.test.ts",
      "test/cli/reports.test.ts",
      "test/cli/reports-cache.test.ts",
      "test/cli/reports-columns.test.ts",
      "test/cli/reports-dialects.test.ts",
      "test/http/reminders-smtp.test.ts",
      "test/unit/users-sync-*.test.ts",
      "test/unit/reports-sync-*.test.ts",
      "test/unit/progress*.test.ts",
      "test/unit/reminders*.test.ts",
      "test/unit/sync-windows.test.ts",
    ],
    exclude: [...configDefaults.exclude],
    setupFiles: ["test/mutate/preload-commands.ts"],
    isolate: false,
    globalSetup: ["./test/helpers/postgres-run.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
