// Benchmark of `simadmin reports sync` (issue 24), run by `npm run bench` after the build.
//
// 1. Requests and wall time: a first sync of 120 days of all seven kinds into a new DuckDB
//    file, against the sandbox with the reports budget scaled to 10 per 10 s, then a second
//    sync once the budget is free again — what a nightly run costs: only the open window of each kind and any that
//    ended within --open-days (1–2 requests per kind). Target: second run ≤ 2 × 7 requests.
// 2. Memory: a sync of 1,000,000 records of one kind (400 days × 2,500 records a day) into
//    DuckDB — peak resident memory of the CLI process. Target < 400 MiB: DuckDB's library
//    alone is ~70 MB resident and it keeps a window's appended rows until the commit.
//
// The binary is the built one; the sandbox runs in this process, so its memory is not counted.
// `node bench/reports-sync.mjs requests` or `… memory` runs one part only.

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

const DAYS = 400;
const PER_DAY = Number(process.env.BENCH_PER_DAY ?? 2_500);
if (only === undefined || only === "memory")
  await withSandbox(
    { reportRecordsPerDay: PER_DAY, rateLimits: { reports: { limit: 1000, windowMs: 1000 } } },
    {},
    async ({ dir, env }) => {
      const db = join(dir, "big.duckdb");
      const since = isoDay(Date.now() - (DAYS - 1) * DAY_MS);
      const result = await runCli(
        ["reports", "sync", "--db", db, "--kinds", "user-results", "--since", since, "-q", "-o", "json"],
        { ...env, SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" },
        { maxRss: true },
      );
      const { DuckDBInstance } = await import("@duckdb/node-api");
      const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
      const connection = await instance.connect();
      const [row] = (await connection.runAndReadAll("SELECT count(*)::INTEGER AS n FROM user_results")).getRowObjectsJson();
      connection.closeSync();
      instance.closeSync();
      const records = Number(row?.n ?? 0);
      console.log(
        `reports sync ${records.toLocaleString("en")} records into DuckDB: ${result.seconds.toFixed(1)} s, ` +
          `peak RSS ${result.maxRssMiB?.toFixed(0)} MiB (target < 400 MiB)`,
      );
      if (result.code !== 0) fail(`sync exited ${result.code}: ${result.stderr.trim()}`);
      if ((result.maxRssMiB ?? Infinity) >= 400) fail(`peak RSS ${result.maxRssMiB} MiB`);
    },
  );
