// @ts-nocheck
// Benchmark of `simadmin reports` (issue 5), run by `npm run bench` after the build.
//
// 1. Pace: `reports all` over 365 days (7 kinds × 13 windows = 91 requests) against the
//    sandbox with the reports budget scaled to 10 per 10 s. Ten requests go at once; the 91st
//    can start no earlier than 9 × 10 s = 90 s after the first, so 90 s is the minimum the
//    limit allows. Target: wall time ≤ 1.05 × that minimum, and no 429 at all.
// 2. Memory: a 1,000,000-record CSV export of one kind (400 days × 2,500 records a day) —
//    peak resident memory of the CLI process. Target < 200 MiB.
//
// The binary is the built one (bin/simadmin.js over dist/); the sandbox runs in this process,
// so its memory is not counted against the CLI's.

import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { fail, rangeEndingYesterday, runCli, withSandbox } from "./lib.mjs";

// `node bench/reports.mjs pace` or `… memory` runs one part only.
const only = process.argv[2];

// --- 1. pace under the budget ----------------------------------------------------------------
if (only === undefined || only === "pace")
  await withSandbox({ rateLimits: { reports: { limit: 10, windowMs: 10_000 } } }, {}, async ({ sandbox, dir, env }) => {
    const { from, to } = rangeEndingYesterday(365);
    const outDir = join(dir, "out");
    const result = await runCli(["reports", "all", "--from", from, "--to", to, "--out-dir", outDir, "-o", "csv", "-q"], {
      ...env,
      SIMADMIN_RATE_LIMITS: "reports=10/10s,access=100/300s",
    });
    const reports = sandbox.requests.filter((r) => r.path.includes("/report/"));
    const tooMany = reports.filter((r) => r.status === 429).length;
    const minimum = Math.ceil(reports.length / 10 - 1) * 10; // the last request's earliest start
    const ratio = result.seconds / minimum;
    const files = await readdir(outDir).catch(() => []);
    console.log(
      `reports all 365d: ${reports.length} requests in ${result.seconds.toFixed(1)} s, minimum ${minimum.toFixed(1)} s, ` +
        `ratio ${ratio.toFixed(2)} (target <= 1.05), 429s: ${tooMany}, files: ${files.length}`,
    );
    if (result.code !== 0) fail(`reports all exited ${result.code}: ${result.stderr.trim()}`);
    if (reports.length !== 91) fail(`expected 91 report requests, saw ${reports.length}`);
    if (ratio > 1.05) fail(`ratio ${ratio.toFixed(2)} above 1.05`);
    if (tooMany > 0) fail(`${tooMany} requests answered 429`);
  });

// --- 2. memory of a million-record export ----------------------------------------------------
const DAYS = 400;
const PER_DAY = 2_500;
if (only === undefined || only === "memory")
  await withSandbox(
    { reportRecordsPerDay: PER_DAY, rateLimits: { reports: { limit: 1000, windowMs: 1000 } } },
    {},
    async ({ dir, env }) => {
      const { from, to } = rangeEndingYesterday(DAYS);
      for (const format of ["csv", "json"]) {
        const out = join(dir, `user-results.${format}`);
        const result = await runCli(
          ["reports", "user-results", "--from", from, "--to", to, "-o", format, "--out", out, "-q"],
          { ...env, SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" },
          { maxRss: true },
        );
        const size = await stat(out)
          .then((s) => s.size)
          .catch(() => 0);
        const rss = result.maxRssMiB;
        console.log(
          `reports ${format} ${(DAYS * PER_DAY).toLocaleString("en")} records: ${result.seconds.toFixed(1)} s, ` +
            `${(size / 2 ** 20).toFixed(0)} MiB written, peak RSS ${rss === undefined ? "?" : rss.toFixed(0)} MiB (target < 200 MiB)`,
        );
        if (result.code !== 0) fail(`${format} export exited ${result.code}: ${result.stderr.trim()}`);
        if (rss === undefined || rss >= 200) fail(`peak RSS ${rss?.toFixed(0)} MiB for ${format}`);
        await rm(out, { force: true });
      }
    },
  );
