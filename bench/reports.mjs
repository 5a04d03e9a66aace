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

import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(root, "bin", "simadmin.js");
const { startSandbox } = await import(join(root, "dist", "sandbox", "server.js"));

const DAY_MS = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
/** `days` whole days ending yesterday (UTC): a range the CLI accepts whatever today is. */
function rangeEndingYesterday(days) {
  const yesterday = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS;
  return { from: isoDay(yesterday - (days - 1) * DAY_MS), to: isoDay(yesterday) };
}

// Reports the child's peak RSS (kB) on stderr as it exits; works wherever Node runs,
// unlike /usr/bin/time.
const MAXRSS_HOOK =
  "data:text/javascript," +
  encodeURIComponent(
    'import { writeSync } from "node:fs";' +
      'process.on("exit", () => writeSync(2, "\\nBENCH_MAXRSS_KB=" + process.resourceUsage().maxRSS + "\\n"));',
  );

function runCli(args, env) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", MAXRSS_HOOK, BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const match = /BENCH_MAXRSS_KB=(\d+)/.exec(stderr);
      resolvePromise({
        code,
        seconds: (performance.now() - started) / 1000,
        maxRssMiB: match ? Number(match[1]) / 1024 : undefined,
        stderr: stderr.replace(/\n?BENCH_MAXRSS_KB=\d+\n/, ""),
      });
    });
  });
}

async function withSandbox(options, body) {
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, ...options });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-reports-"));
  const env = {
    SIMADMIN_BASE_URL: sandbox.baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_ORG: sandbox.org,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
  };
  try {
    return await body({ sandbox, dir, env });
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// `node bench/reports.mjs pace` or `… memory` runs one part only.
const only = process.argv[2];

function fail(message) {
  console.log(`FAILED: ${message}`);
  process.exitCode = 1;
}

// --- 1. pace under the budget ----------------------------------------------------------------
if (only === undefined || only === "pace")
  await withSandbox({ rateLimits: { reports: { limit: 10, windowMs: 10_000 } } }, async ({ sandbox, dir, env }) => {
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
    async ({ dir, env }) => {
      const { from, to } = rangeEndingYesterday(DAYS);
      for (const format of ["csv", "json"]) {
        const out = join(dir, `user-results.${format}`);
        const result = await runCli(["reports", "user-results", "--from", from, "--to", to, "-o", format, "--out", out, "-q"], {
          ...env,
          SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s",
        });
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
