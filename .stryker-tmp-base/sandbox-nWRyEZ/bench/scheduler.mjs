// @ts-nocheck
// Request scheduling benchmark (issue 4): how close the client comes to the least time the
// rate limit allows, and how many 429s it causes, against the sandbox with the reports limit
// scaled to 10 per 10 s (so the safety margin, max(150 ms, 1.5 % of the window), costs the
// same share of the window as against the real 10 per 60 s).
//
//   node bench/scheduler.mjs          (after `npm run build`; also run by `npm run bench`)
//   BENCH_SCHEDULER_N=20 node bench/scheduler.mjs   (a shorter run)
//
// Scenarios, each against a fresh sandbox:
//   1. one process: the built binary, `reports users` over N 30-day windows = N requests in
//      one invocation, each sent only when the budget allows.
//   2. two processes at once, N/2 windows each, sharing one settings directory (the ledger).
//   3. baselines in the same run: a naive client — a plain fetch loop, sequential, that backs
//      off only after a 429 — in the two common variants:
//      a. honouring Retry-After (the sandbox sends whole seconds, rounded up);
//      b. ignoring it: exponential backoff 1 s, 2 s, 4 s, … (no jitter), reset per request.
//
// Ratio = time for the N requests / minimum, where the minimum for N requests at L per W is
// (ceil(N / L) − 1) · W: L requests at once, then L more every W. Like the minimum, the time
// is measured from the first request to the last one, as the sandbox received them; the wall
// time, which adds the binary's start-up and the last answer, is printed beside it. Targets (issue 4): one process ≤ 1.05 with 0 429s, two
// processes ≤ 1.15 with at most 2 429s in total.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "simadmin.js");
const SERVER = join(ROOT, "dist", "sandbox", "server.js");

const LIMIT = 10;
const WINDOW_MS = 10_000;
const N = Number(process.env.BENCH_SCHEDULER_N ?? 40);
const DAY_MS = 86_400_000;
/** Report windows start here: far enough in the past for any N (reports reject future dates). */
const FIRST_DAY = Date.UTC(2020, 0, 1);

function minimumMs(requests) {
  return (Math.ceil(requests / LIMIT) - 1) * WINDOW_MS;
}

function isoDay(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The inclusive date range of `count` 30-day windows starting `offset` windows after FIRST_DAY. */
function windows(offset, count) {
  const from = FIRST_DAY + offset * 30 * DAY_MS;
  return { from: isoDay(from), to: isoDay(from + (count * 30 - 1) * DAY_MS) };
}

async function withSandbox(run) {
  const { startSandbox } = await import(pathToFileURL(SERVER).href);
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    rateLimits: { reports: { limit: LIMIT, windowMs: WINDOW_MS } },
    // One record a day keeps report generation out of the measurement.
    reportRecordsPerDay: 1,
  });
  try {
    const result = await run(sandbox);
    const reports = sandbox.requests.filter((r) => r.group === "reports");
    const accepted = reports.filter((r) => r.status === 200).map((r) => r.at);
    return {
      ...result,
      spanMs: Math.max(...accepted) - Math.min(...accepted),
      rejected: reports.filter((r) => r.status === 429).length,
    };
  } finally {
    await sandbox.close();
  }
}

function cliEnv(sandbox, configDir) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("SIMADMIN_") && key !== "NO_COLOR" && key !== "FORCE_COLOR") env[key] = value;
  }
  return {
    ...env,
    SIMADMIN_BASE_URL: sandbox.baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_ORG: sandbox.org,
    SIMADMIN_CONFIG_DIR: configDir,
    SIMADMIN_RATE_LIMITS: `reports=${LIMIT}/${WINDOW_MS / 1000}s`,
  };
}

/** Runs the binary for `count` report windows; resolves when it exits, rejects on failure. */
function runReports(env, offset, count) {
  const { from, to } = windows(offset, count);
  const args = [BIN, "reports", "users", "--from", from, "--to", to, "-o", "ndjson", "-q"];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`simadmin reports ${from}..${to} exited ${code}: ${stderr.trim()}`));
    });
  });
}

async function schedulerRun(processes) {
  return withSandbox(async (sandbox) => {
    const configDir = await mkdtemp(join(tmpdir(), "simadmin-bench-"));
    try {
      const env = cliEnv(sandbox, configDir);
      const share = Math.ceil(N / processes);
      const started = performance.now();
      await Promise.all(Array.from({ length: processes }, (_, i) => runReports(env, i * share, Math.min(share, N - i * share))));
      return { wallMs: performance.now() - started };
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The common hand-written client: send, and only after a 429 wait and send again. */
async function naiveRun(honourRetryAfter) {
  return withSandbox(async (sandbox) => {
    const started = performance.now();
    for (let i = 0; i < N; i++) {
      const { from, to } = windows(i, 1);
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(`${sandbox.baseUrl}/v2/report/users`, {
          method: "POST",
          headers: { authorization: `Bearer ${sandbox.keys.full}`, "content-type": "application/json" },
          body: JSON.stringify({ startDate: from, endDate: to }),
        });
        await response.arrayBuffer();
        if (response.status !== 429) {
          if (!response.ok) throw new Error(`naive client: HTTP ${response.status}`);
          break;
        }
        const retryAfter = Number(response.headers.get("retry-after"));
        const waitMs = honourRetryAfter && retryAfter > 0 ? retryAfter * 1000 : 1000 * 2 ** (attempt - 1);
        await sleep(waitMs);
      }
    }
    return { wallMs: performance.now() - started };
  });
}

function line(name, result, target) {
  const minimum = minimumMs(N);
  const ratio = result.spanMs / minimum;
  const targetText = target ? ` (target <= ${target.ratio.toFixed(2)})` : "";
  const rejectedTarget = target ? ` (target <= ${target.rejected})` : "";
  const verdict = target ? (ratio <= target.ratio && result.rejected <= target.rejected ? "  ok" : "  MISSED") : "";
  return (
    `${name}: ${N} requests in ${(result.spanMs / 1000).toFixed(1)} s (wall ${(result.wallMs / 1000).toFixed(1)} s), ` +
    `minimum ${(minimum / 1000).toFixed(1)} s, ` +
    `ratio ${ratio.toFixed(3)}${targetText}, 429s: ${result.rejected}${rejectedTarget}${verdict}`
  );
}

async function main() {
  if (!existsSync(SERVER)) {
    console.error("bench/scheduler.mjs: dist/ is missing; run `npm run build` first");
    process.exitCode = 1;
    return;
  }
  if (!Number.isInteger(N) || N <= LIMIT) {
    console.error(`bench/scheduler.mjs: BENCH_SCHEDULER_N must be a whole number above ${LIMIT}`);
    process.exitCode = 1;
    return;
  }
  console.log(`scheduler: reports limit ${LIMIT} per ${WINDOW_MS / 1000} s (sandbox and client), ${N} requests per scenario`);
  const one = await schedulerRun(1);
  console.log(line("scheduler 1 process", one, { ratio: 1.05, rejected: 0 }));
  const two = await schedulerRun(2);
  console.log(line("scheduler 2 processes", two, { ratio: 1.15, rejected: 2 }));
  const naiveRetryAfter = await naiveRun(true);
  console.log(line("naive client, honours Retry-After", naiveRetryAfter));
  const naiveExponential = await naiveRun(false);
  console.log(line("naive client, exponential 1 s, 2 s, 4 s…", naiveExponential));
}

main().catch((error) => {
  console.error(`bench/scheduler.mjs: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
