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

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(root, "bin", "simadmin.js");
const { startSandbox } = await import(join(root, "dist", "sandbox", "server.js"));

const DAY_MS = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
function rangeEndingYesterday(days) {
  const yesterday = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS;
  return { from: isoDay(yesterday - (days - 1) * DAY_MS), to: isoDay(yesterday) };
}

function runCli(args, env) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, seconds: (performance.now() - started) / 1000, stderr }));
  });
}

async function withSandbox(body) {
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    rateLimits: { reports: { limit: 10, windowMs: 10_000 } },
    reportRecordsPerDay: 1,
  });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-429-"));
  const env = {
    SIMADMIN_BASE_URL: sandbox.baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_ORG: sandbox.org,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
    SIMADMIN_RATE_LIMITS: "reports=10/10s,access=100/300s",
  };
  try {
    return await body({ sandbox, dir, env });
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function fail(message) {
  console.log(`FAILED: ${message}`);
  process.exitCode = 1;
}

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
