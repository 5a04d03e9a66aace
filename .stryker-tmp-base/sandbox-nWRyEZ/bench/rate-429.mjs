// @ts-nocheck
// What an unexpected 429 costs (issue 12 items 6 and 11), run by `npm run bench` after the build.
//
// 1. One injected 429 (Retry-After 1 s) on the first request of a 365-day `reports all`
//    (7 kinds × 13 windows = 91 requests) against the sandbox with the reports budget scaled
//    to 10 per 10 s, against the same run without the 429 in the same bench.
//    Target: with the 429 ≤ 1.05 × without + 1 s (the 429 costs its Retry-After, not a window).
// 2. A 429 storm: every report request answered 429 with Retry-After 1 s, `--retries 5`.
//    Target: exit 7 within 10 s (six sends, five 1 s waits, start-up).
//
//   node bench/rate-429.mjs            (after `npm run build`)
//   node bench/rate-429.mjs storm      (the storm only)

import { join } from "node:path";
import { fail, rangeEndingYesterday, runCli, withSandbox as withSandboxOf } from "./lib.mjs";

/** A sandbox with the reports budget at 10 per 10 s, and the CLI told the same. */
const withSandbox = (body) =>
  withSandboxOf(
    { rateLimits: { reports: { limit: 10, windowMs: 10_000 } }, reportRecordsPerDay: 1 },
    { SIMADMIN_RATE_LIMITS: "reports=10/10s,access=100/300s" },
    body,
  );

const only = process.argv[2];

async function reportsAll(inject) {
  return withSandbox(async ({ sandbox, dir, env }) => {
    if (inject) sandbox.faults.failNext("/v2/report/*", 1, 429, { retryAfterSeconds: 1 });
    const { from, to } = rangeEndingYesterday(365);
    const result = await runCli(
      ["reports", "all", "--from", from, "--to", to, "--out-dir", join(dir, "out"), "-o", "csv", "-q"],
      env,
    );
    const reports = sandbox.requests.filter((r) => r.path.includes("/report/"));
    if (result.code !== 0) fail(`reports all${inject ? " with a 429" : ""} exited ${result.code}: ${result.stderr.trim()}`);
    return { ...result, requests: reports.length, rejected: reports.filter((r) => r.status === 429).length };
  });
}

if (only === undefined || only === "one") {
  const without = await reportsAll(false);
  const withOne = await reportsAll(true);
  const bound = 1.05 * without.seconds + 1;
  console.log(
    `reports all 365d, one injected 429 (Retry-After 1 s): ${withOne.seconds.toFixed(1)} s (${withOne.requests} requests, ${withOne.rejected} × 429) ` +
      `vs ${without.seconds.toFixed(1)} s without (${without.requests} requests, ${without.rejected} × 429); ` +
      `target <= 1.05 × ${without.seconds.toFixed(1)} + 1 = ${bound.toFixed(1)} s ${withOne.seconds <= bound ? " ok" : " MISSED"}`,
  );
  if (withOne.seconds > bound) fail(`one 429 cost ${(withOne.seconds - without.seconds).toFixed(1)} s`);
}

if (only === undefined || only === "storm")
  await withSandbox(async ({ sandbox, env }) => {
    sandbox.faults.failNext("/v2/report/*", 1_000, 429, { retryAfterSeconds: 1 });
    const { from, to } = rangeEndingYesterday(30);
    const result = await runCli(["reports", "users", "--from", from, "--to", to, "-o", "json", "--retries", "5", "-q"], env);
    const sent = sandbox.requests.filter((r) => r.path.includes("/report/")).length;
    const ok = result.code === 7 && result.seconds <= 10;
    console.log(
      `429 storm (every request 429, Retry-After 1 s, --retries 5): exit ${result.code} after ${result.seconds.toFixed(1)} s, ` +
        `${sent} requests sent; target exit 7 in <= 10 s ${ok ? " ok" : " MISSED"}`,
    );
    if (!ok) fail(`storm: exit ${result.code} after ${result.seconds.toFixed(1)} s: ${result.stderr.trim()}`);
  });
