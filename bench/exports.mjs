#!/usr/bin/env node
// Export benchmark (docs/architecture.md, Exports): `simadmin reports user-results` of
// 1,000,000 records (400 days × 2,500 a day) into a file, as whole processes, against a bare
// Node script that fetches the very same bytes (the CLI's requests, recorded once through a
// relay and replayed) and writes the same records with the same library:
//
//   -o csv     ≤ 1.3× JSON.parse + csv-stringify
//   -o ndjson  ≤ 1.3× JSON.parse + JSON.stringify per line
//   -o xlsx    ≤ 2.0× JSON.parse + exceljs's streaming WorkbookWriter
//
// and the CLI's peak RSS, which must stay flat (< 200 MiB; xlsx < 250 MiB).
//
//   npm run build && node bench/exports.mjs [--records 1000000] [--rounds 3] [--formats csv,ndjson,xlsx]
//       [--ca with|without|both] [--bin path/to/bin/simadmin.js] [--cpu-prof dir]
//
// --cpu-prof dir: every measured process (CLI and bare) also writes a V8 CPU profile into dir
// (`node --cpu-prof`; NODE_OPTIONS does not reach them); `node bench/parts/profile-summary.mjs
// file.cpuprofile` sums its self time per function. Profiling slows both sides: ratios
// printed with it are not the goal's.
//
// Each figure is the median of paired ratios: every round runs the CLI and its baseline back
// to back, which goes first alternating — once without NODE_EXTRA_CA_CERTS and once with it
// (these machines set it; it costs every Node start ~44 ms). Both read the answers the sandbox
// gave the first run, replayed from memory by this process (startReplay); CPU ratios (user +
// system, every thread) are printed as well, and the load average.
import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import { join, resolve } from "node:path";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { BIN as DEFAULT_BIN, fail, goalLine, rangeEndingYesterday, root, withSandbox } from "./lib.mjs";

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const BIN = resolve(arg("--bin", DEFAULT_BIN));
const RECORDS = Number(arg("--records", "1000000"));
const ROUNDS = Number(arg("--rounds", "3"));
const FORMATS = arg("--formats", "csv,ndjson,xlsx").split(",");
const PER_DAY = 2_500;
const DAYS = Math.ceil(RECORDS / PER_DAY);
const TARGETS = { csv: 1.3, ndjson: 1.3, xlsx: 2.0 };
const RSS_LIMITS = { csv: 200, ndjson: 200, xlsx: 250 };
const CPU_PROF = arg("--cpu-prof", undefined);
const PROFILE_FLAGS = CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", resolve(CPU_PROF)] : [];

const CA_CERTS =
  process.env.NODE_EXTRA_CA_CERTS ??
  (existsSync("/etc/ssl/certs/ca-certificates.crt") ? "/etc/ssl/certs/ca-certificates.crt" : undefined);
const CA_MODES = { with: [true], without: [false], both: [false, true] }[arg("--ca", "both")]?.filter((ca) => !ca || CA_CERTS);
if (!CA_MODES) {
  console.error("exports bench: --ca must be with, without or both");
  process.exit(2);
}
const withCa = (env, ca) => (ca ? { ...env, NODE_EXTRA_CA_CERTS: CA_CERTS } : env);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Preloaded (`node -r`) into each measured process: its peak RSS (kB) and CPU time (ms, user
// + system: nearly immune to neighbours on a shared machine) on stderr as it exits. CommonJS,
// so that the CLI still starts without the ES module loader. Written into the run's directory.
//
// Peak RSS is the process's own VmHWM (/proc/self/status), not getrusage's maxRSS: Linux keeps
// ru_maxrss across fork and exec, so a child of this process — which holds every replayed
// answer, ~380 MiB at 1,000,000 records — reported this process's peak as its own (a CLI run
// that failed at its first line "peaked" at 385 MiB). maxRSS only where /proc is missing.
const RSS_PRELOAD_SOURCE = `process.on("exit", () => {
  const fs = require("node:fs");
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  let peak = maxRSS;
  try {
    peak = Number(/^VmHWM:\\s*(\\d+) kB/m.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]);
  } catch {}
  fs.writeSync(2, "\\nBENCH_MAXRSS_KB=" + peak + "\\nBENCH_CPU_MS=" + (userCPUTime + systemCPUTime) / 1000 + "\\n");
});`;
let RSS_PRELOAD;

/** One process: wall seconds, peak RSS in MiB. */
function timeProcess(args, env) {
  return new Promise((done, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...PROFILE_FLAGS, "-r", RSS_PRELOAD, ...args], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      const rss = /BENCH_MAXRSS_KB=(\d+)/.exec(stderr);
      const cpu = /BENCH_CPU_MS=([\d.]+)/.exec(stderr);
      if (code !== 0) reject(new Error(`${args.slice(0, 3).join(" ")} exited ${code}: ${stderr.trim().slice(0, 600)}`));
      else done({ seconds, rssMiB: rss ? Number(rss[1]) / 1024 : undefined, cpuMs: cpu ? Number(cpu[1]) : NaN });
    });
  });
}

/**
 * A relay on loopback in front of the sandbox. While recording it passes everything on and
 * keeps the report requests and their answers' bytes; afterwards it answers those requests
 * from memory, so that the CLI and the baseline get the very same bytes and neither waits
 * for the sandbox to generate them.
 */
async function startReplay(baseUrl) {
  const target = new URL(baseUrl);
  const answers = new Map();
  const requests = [];
  const relay = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const key = `${req.method} ${req.url} ${body.toString("latin1")}`;
      const known = answers.get(key);
      if (known) {
        res.writeHead(known.status, known.headers);
        res.end(known.body);
        return;
      }
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const parts = [];
          answer.on("data", (part) => parts.push(part));
          answer.on("end", () => {
            const bytes = Buffer.concat(parts);
            const headers = { ...answer.headers, "content-length": String(bytes.length) };
            delete headers["transfer-encoding"];
            if (req.url.includes("/report/") && answer.statusCode === 200) {
              answers.set(key, { status: 200, headers, body: bytes });
              requests.push({ method: req.method, path: req.url, headers: req.headers, body: body.toString("latin1") });
            }
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(bytes);
          });
        },
      );
      upstream.end(body);
    });
  });
  await new Promise((done) => relay.listen(0, "127.0.0.1", done));
  return {
    baseUrl: `http://127.0.0.1:${relay.address().port}${target.pathname.replace(/\/$/, "")}`,
    requests,
    close: () => new Promise((done) => relay.close(done)),
  };
}

const env0 = { PATH: process.env.PATH, HOME: process.env.HOME, SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" };

await withSandbox(
  { reportRecordsPerDay: PER_DAY, rateLimits: { reports: { limit: 1000, windowMs: 1000 } } },
  env0,
  async ({ dir, env }) => {
    env = { ...env, XDG_CACHE_HOME: join(dir, "cache") };
    RSS_PRELOAD = join(dir, "measure.cjs");
    await writeFile(RSS_PRELOAD, RSS_PRELOAD_SOURCE);
    const { from, to } = rangeEndingYesterday(DAYS);
    const cliArgs = (format, out) => ["reports", "user-results", "--from", from, "--to", to, "-o", format, "--out", out, "-q"];
    const replay = await startReplay(env.SIMADMIN_BASE_URL);
    env = { ...env, SIMADMIN_BASE_URL: replay.baseUrl };
    // The recording run, which also writes the CLI's code cache.
    await timeProcess([BIN, ...cliArgs("csv", join(dir, "warm.csv"))], env);
    await rm(join(dir, "warm.csv"), { force: true });
    const { requests } = replay;
    const baseUrl = new URL(replay.baseUrl);
    const bare = join(root, "bench", "baselines", "exports.mjs");
    const bareEnv = { PATH: process.env.PATH, HOME: process.env.HOME, BARE_REQUESTS: JSON.stringify(requests) };
    console.log(
      `exports of ${(DAYS * PER_DAY).toLocaleString("en")} records (${requests.length} windows) by ${BIN}: ` +
        `median of ${ROUNDS} paired ratios (Node ${process.version})`,
    );
    console.log(`  load average at the start ${load()}`);
    for (const format of FORMATS) {
      const byCa = CA_MODES.map(() => ({ ratios: [], cpuRatios: [], cli: [], base: [] }));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [m, ca] of CA_MODES.entries()) {
          const out = join(dir, `out.${format}`);
          const runCli = () => timeProcess([BIN, ...cliArgs(format, out)], withCa(env, ca));
          const runBare = () => timeProcess([bare, format, `${baseUrl.hostname}:${baseUrl.port}`, out], withCa(bareEnv, ca));
          const [a, b] = round % 2 === 0 ? [await runCli(), await runBare()] : [undefined, await runBare()];
          const c = a ?? (await runCli());
          const into = byCa[m];
          into.cli.push(c);
          into.base.push(b);
          into.ratios.push(c.seconds / b.seconds);
          into.cpuRatios.push(c.cpuMs / b.cpuMs);
          await rm(out, { force: true });
        }
      }
      for (const [m, ca] of CA_MODES.entries()) {
        const { ratios, cpuRatios, cli, base } = byCa[m];
        const ratio = median(ratios);
        const rss = Math.max(...cli.map((run) => run.rssMiB ?? Infinity));
        const ok = ratio <= TARGETS[format] && rss < RSS_LIMITS[format];
        console.log(
          `  -o ${format.padEnd(6)} ${ca ? "with" : "without"} NODE_EXTRA_CA_CERTS: CLI ${median(cli.map((r) => r.seconds)).toFixed(2)} s, bare ${median(base.map((r) => r.seconds)).toFixed(2)} s: ` +
            `${ratio.toFixed(2)}x (target <= ${TARGETS[format]}), CPU ${median(cpuRatios).toFixed(2)}x ` +
            `(${median(cli.map((r) => r.cpuMs)).toFixed(0)} vs ${median(base.map((r) => r.cpuMs)).toFixed(0)} ms); ` +
            `CLI peak RSS ${rss.toFixed(0)} MiB (< ${RSS_LIMITS[format]}) ${ok ? "ok" : "OVER"}, ` +
            `bare ${Math.max(...base.map((run) => run.rssMiB ?? 0)).toFixed(0)} MiB (a whole window parsed at a time); load ${load()}`,
        );
        const name = `export -o ${format} of ${(DAYS * PER_DAY).toLocaleString("en")} records vs bare (Node ${process.version})`;
        console.log(`  ${goalLine({ name, ca, ratio, cpu: median(cpuRatios), target: TARGETS[format] })}`);
        console.log(
          `  GOAL export -o ${format}: peak RSS ${rss.toFixed(0)} MiB (limit ${RSS_LIMITS[format]}) ${rss < RSS_LIMITS[format] ? "ok" : "OVER"}`,
        );
        if (!ok) fail(`-o ${format}: ${ratio.toFixed(2)}x, ${rss.toFixed(0)} MiB`);
      }
    }
    await replay.close();
  },
);
