#!/usr/bin/env node
// Writes test/durations.json — each test file's duration in seconds from a vitest JSON report —
// which test/sequencer.ts uses to start the longest files first (docs/development.md, "How long
// the suite takes"). Refresh it when files are added or become slow:
//
//   npx vitest run --reporter=json --outputFile=/tmp/vitest.json
//   node scripts/test-durations.mjs /tmp/vitest.json
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const reportPath = process.argv[2];
if (!reportPath) {
  console.error("usage: node scripts/test-durations.mjs <vitest JSON report>");
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, "utf8"));
// The key is the path in the repository (test/…), as test/sequencer.ts looks it up, whichever
// checkout ran the report: one taken in another worktree gave "../<worktree>/test/…", which
// matched no file, and a fresh clone ran the files in name order.
const inRepository = (name) => {
  const path = relative(root, name);
  return path.startsWith("..") ? name.slice(name.lastIndexOf("/test/") + 1) : path;
};
const seconds = Object.fromEntries(
  report.testResults
    .map((file) => [inRepository(file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(`${root}test/durations.json`, `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(seconds).length} files`);
