import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e tests spawn the built binary; a 2-core CI machine runs two files at a time comfortably.
    maxWorkers: 2,
  },
});
