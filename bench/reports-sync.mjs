// Benchmark of `simadmin reports sync` (issue 24), run by `npm run bench` after the build.
//
// 1. Requests and wall time: a first sync of 120 days of all seven kinds into a new DuckDB
//    file, against the sandbox with the reports budget scaled to 10 per 10 s, then a second
//    sync once the budget is free again — what a nightly run costs: only the open window of each kind and any that
//    ended within --open-days (1–2 requests per kind). Target: second run ≤ 2 × 7 requests.
// 2. Load speed and memory (bench/parts/reports-sync-load.mjs): the whole sync against DuckDB's own
//    read_json_auto load (with a raw column) and psql's \copy of the same records, measured in
//    the same run, in alternation; peak RSS at 100 k and 1 M records.
//
// The binary is the built one; the sandbox runs in this process, so its memory is not counted.
// `node bench/reports-sync.mjs requests` or `… load` runs one part only.

import { join } from "node:path";
import { DAY_MS, fail, isoDay, runCli, withSandbox } from "./lib.mjs";

const only = process.argv[2];
const reportRequests = (sandbox, from) => sandbox.requests.slice(from).filter((r) => r.path.includes("/report/"));

if (only === undefined || only === "requests")
  await withSandbox({ rateLimits: { reports: { limit: 10, windowMs: 10_000 } } }, {}, async ({ sandbox, dir, env }) => {
    const db = join(dir, "reports.duckdb");
    const since = isoDay(Date.now() - 120 * DAY_MS);
    const runEnv = { ...env, SIMADMIN_RATE_LIMITS: "reports=10/10s,access=100/300s" };
    const first = await runCli(["reports", "sync", "--db", db, "--since", since, "-q", "-o", "json"], runEnv);
    const firstRequests = reportRequests(sandbox, 0);
    // A nightly run finds the budget free: wait out the first run's last window of it.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const mark = sandbox.requests.length;
    const second = await runCli(["reports", "sync", "--db", db, "-q", "-o", "json"], runEnv);
    const secondRequests = reportRequests(sandbox, mark);
    const tooMany = [...firstRequests, ...secondRequests].filter((r) => r.status === 429).length;
    console.log(
      `reports sync 120d x 7 kinds: first run ${firstRequests.length} requests in ${first.seconds.toFixed(1)} s; ` +
        `second run ${secondRequests.length} requests in ${second.seconds.toFixed(1)} s ` +
        `(${(first.seconds / second.seconds).toFixed(1)}x faster, ${firstRequests.length / Math.max(1, secondRequests.length)}x fewer requests); 429s: ${tooMany}`,
    );
    if (first.code !== 0) fail(`first sync exited ${first.code}: ${first.stderr.trim()}`);
    if (second.code !== 0) fail(`second sync exited ${second.code}: ${second.stderr.trim()}`);
    if (secondRequests.length > 14) fail(`second run sent ${secondRequests.length} requests (target <= 14)`);
    if (tooMany > 0) fail(`${tooMany} requests answered 429`);
  });

// 2. Load speed and memory against the databases' own loaders, on the same records:
//    bench/parts/reports-sync-load.mjs (ratios to DuckDB's read_json_auto and psql \copy, peak RSS
//    at 100 k and 1 M records).
if (only === undefined || only === "load") await import("./parts/reports-sync-load.mjs");
