// @ts-nocheck
// A rate budget shared by a fleet (issue 17), run by `npm run bench` after the build.
//
// Three "machines" — three processes with three separate settings directories — send 60
// report requests together (20 windows of `reports users` each) to one sandbox whose reports
// budget is per address and scaled to 10 per 10 s, as a NAT'ed CI fleet would.
//   1. with SIMADMIN_RATE_STORE pointing at one Redis: target 0 × 429 and wall time ≤ 1.10 ×
//      the budget's minimum, (ceil(60 / 10) − 1) × 10 s = 50 s;
//   2. the same three with only their local ledgers, as the baseline (each believes it has
//      the whole budget): 429 count and wall time printed beside it.
// Needs redis-server on PATH (Debian package redis-server); started on a free loopback port
// with a temporary directory and stopped at the end.
//
//   node bench/fleet.mjs   (after `npm run build`)

import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(root, "bin", "simadmin.js");
const { startSandbox } = await import(join(root, "dist", "sandbox", "server.js"));

const LIMIT = 10;
const WINDOW_MS = 10_000;
const MACHINES = 3;
const PER_MACHINE = 20;
const TOTAL = MACHINES * PER_MACHINE;
const MINIMUM_S = ((Math.ceil(TOTAL / LIMIT) - 1) * WINDOW_MS) / 1000;
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2020, 0, 1);
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

function fail(message) {
  console.log(`FAILED: ${message}`);
  process.exitCode = 1;
}

async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function startRedis() {
  if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0) return undefined;
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-redis-"));
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  const exited = new Promise((r) => child.once("exit", r));
  for (let i = 0; ; i++) {
    const up = await new Promise((r) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), r(true)));
      socket.once("error", () => r(false));
    });
    if (up) break;
    if (i > 200) throw new Error("redis-server did not start");
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function machine(env, index) {
  const from = FIRST_DAY + index * PER_MACHINE * 30 * DAY_MS;
  const to = from + (PER_MACHINE * 30 - 1) * DAY_MS;
  const args = [BIN, "reports", "users", "--from", isoDay(from), "--to", isoDay(to), "-o", "ndjson", "-q", "--retries", "10"];
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolveRun({ code, stderr }));
  });
}

async function fleet(rateStore) {
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    rateLimits: { reports: { limit: LIMIT, windowMs: WINDOW_MS } },
    reportRecordsPerDay: 1,
  });
  const dirs = await Promise.all(Array.from({ length: MACHINES }, () => mkdtemp(join(tmpdir(), "simadmin-bench-fleet-"))));
  try {
    const started = performance.now();
    const results = await Promise.all(
      dirs.map((dir, i) =>
        machine(
          {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            SIMADMIN_BASE_URL: sandbox.baseUrl,
            SIMADMIN_API_KEY: sandbox.keys.full,
            SIMADMIN_ORG: sandbox.org,
            SIMADMIN_CONFIG_DIR: dir,
            SIMADMIN_RATE_LIMITS: `reports=${LIMIT}/${WINDOW_MS / 1000}s`,
            ...(rateStore ? { SIMADMIN_RATE_STORE: rateStore } : {}),
          },
          i,
        ),
      ),
    );
    const wall = (performance.now() - started) / 1000;
    const reports = sandbox.requests.filter((r) => r.path.includes("/report/"));
    return {
      wall,
      rejected: reports.filter((r) => r.status === 429).length,
      accepted: reports.filter((r) => r.status === 200).length,
      failures: results.filter((r) => r.code !== 0).map((r) => `exit ${r.code}: ${r.stderr.trim()}`),
      warnings: results.flatMap((r) => r.stderr.split("\n").filter((line) => line.startsWith("warning:"))),
    };
  } finally {
    await sandbox.close();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

const redis = await startRedis();
if (!redis) {
  fail("redis-server is not installed (apt-get install -y redis-server)");
} else {
  try {
    const shared = await fleet(redis.url);
    const local = await fleet(undefined);
    const ratio = shared.wall / MINIMUM_S;
    const ok = shared.rejected === 0 && ratio <= 1.1 && shared.failures.length === 0 && shared.accepted === TOTAL;
    console.log(
      `fleet of ${MACHINES} processes, ${TOTAL} report requests at ${LIMIT} per ${WINDOW_MS / 1000} s per address (minimum ${MINIMUM_S} s):\n` +
        `  one Redis:      wall ${shared.wall.toFixed(1)} s, ratio ${ratio.toFixed(3)} (target <= 1.10), 429s: ${shared.rejected} (target 0)${ok ? "  ok" : "  MISSED"}\n` +
        `  local ledgers:  wall ${local.wall.toFixed(1)} s, ratio ${(local.wall / MINIMUM_S).toFixed(3)}, 429s: ${local.rejected} (baseline)`,
    );
    if (shared.warnings.length > 0) fail(`warnings with Redis: ${shared.warnings.join(" | ")}`);
    if (shared.failures.length > 0) fail(`with Redis: ${shared.failures.join(" | ")}`);
    if (!ok) fail("fleet target missed");
  } finally {
    await redis.stop();
  }
}
