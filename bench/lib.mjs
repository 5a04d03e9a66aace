// What the benchmarks that run the built CLI against an in-process sandbox share: the paths,
// a date range the CLI accepts whatever today is, one CLI run (wall time, optionally peak
// memory) and a sandbox with matching SIMADMIN_* settings in a throw-away directory.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = join(root, "bin", "simadmin.js");

/** A module of the tsc build (dist/), e.g. distModule("sandbox", "server.js"). */
export const distModule = (...segments) => import(join(root, "dist", ...segments));

export const DAY_MS = 86_400_000;
export const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

/** `days` whole days ending yesterday (UTC). */
export function rangeEndingYesterday(days) {
  const yesterday = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS;
  return { from: isoDay(yesterday - (days - 1) * DAY_MS), to: isoDay(yesterday) };
}

// Reports the child's peak RSS (kB) and CPU time (user + system, every thread) on stderr as
// it exits; works wherever Node runs, unlike /usr/bin/time. Its own VmHWM where /proc exists:
// getrusage's maxRSS survives fork and exec on Linux, so a child reported this process's peak
// (the sandbox and its answers) as its own.
const MAXRSS_HOOK =
  "data:text/javascript," +
  encodeURIComponent(
    'import { readFileSync, writeSync } from "node:fs";' +
      'process.on("exit", () => { const usage = process.resourceUsage(); let kb = usage.maxRSS;' +
      ' try { kb = Number(/^VmHWM:\\s*(\\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))[1]); } catch {}' +
      ' writeSync(2, "\\nBENCH_MAXRSS_KB=" + kb + " BENCH_CPU_US=" + (usage.userCPUTime + usage.systemCPUTime) + "\\n"); });',
  );

/**
 * One `simadmin` run with only PATH, HOME and `env`: its exit code, wall seconds, stderr and,
 * with `{ maxRss: true }`, its peak resident memory in MiB and its CPU seconds.
 */
export function runCli(args, env, { maxRss = false, onSpawn } = {}) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    // BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (and the like): the CLI's processes only.
    const flags = process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...flags, ...(maxRss ? ["--import", MAXRSS_HOOK] : []), BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    onSpawn?.(child);
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const match = /BENCH_MAXRSS_KB=(\d+) BENCH_CPU_US=(\d+)/.exec(stderr);
      resolvePromise({
        code,
        seconds: (performance.now() - started) / 1000,
        maxRssMiB: match ? Number(match[1]) / 1024 : undefined,
        cpuSeconds: match ? Number(match[2]) / 1e6 : undefined,
        stderr: stderr.replace(/\n?BENCH_MAXRSS_KB=\d+ BENCH_CPU_US=\d+\n/, ""),
      });
    });
  });
}

/** CPU seconds (user + system) a running process of this machine has used so far (Linux /proc). */
export function processCpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime (fields 14 and 15 of proc(5)) in clock ticks, 100 a second on Linux.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * A sandbox on loopback (startSandbox's `options`), and the settings that reach it in a
 * temporary directory (plus `extraEnv`), for the length of `body`.
 */
export async function withSandbox(options, extraEnv, body) {
  const { startSandbox } = await distModule("sandbox", "server.js");
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, ...options });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-"));
  const env = {
    SIMADMIN_BASE_URL: sandbox.baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_ORG: sandbox.org,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
    ...extraEnv,
  };
  try {
    return await body({ sandbox, dir, env });
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * One goal's line, which `npm run bench` (bench/run.mjs) gathers into its closing summary:
 * the ratio of wall times, the ratio of CPU times (user + system) beside it, the target, and
 * whether NODE_EXTRA_CA_CERTS was set for the measured processes.
 */
export function goalLine({ name, ca, ratio, cpu, target }) {
  const caText = ca === undefined ? "" : ca ? " [with NODE_EXTRA_CA_CERTS]" : " [without NODE_EXTRA_CA_CERTS]";
  const cpuText = Number.isFinite(cpu) ? `, CPU ${cpu.toFixed(2)}x` : "";
  return `GOAL ${name}${caText}: ${ratio.toFixed(2)}x wall${cpuText} (target <= ${target}) ${ratio <= target ? "ok" : "OVER"}`;
}

export function fail(message) {
  console.log(`FAILED: ${message}`);
  process.exitCode = 1;
}
