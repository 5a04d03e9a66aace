#!/usr/bin/env node
// Start-up benchmark (docs/architecture.md, Start-up): whole processes, as a user runs them.
//
//   `simadmin --help`, `--version`      ≤ 1.3× `node -e 0`
//   `simadmin token --user user-demo`   ≤ 2.0× a bare node:http script sending the same request
//   the same token call through a forward proxy on loopback (HTTP_PROXY, which loads undici)
//                                       ≤ 4× `node -e 0`
//
//   npm run build && node bench/startup.mjs [--runs 15] [--ca with|without|both] [--bin path/to/bin/simadmin.js]
//
// Each figure is the median of paired ratios: every round runs the command and its baseline
// back to back (which goes first alternates), so a neighbour slowing the machine for a while
// slows both sides of a pair. Everything runs twice: with NODE_EXTRA_CA_CERTS (which these
// machines set, and which adds tens of milliseconds to every Node start, hiding the rest)
// and without. The sandbox is a separate process, so the token call pays for its own
// start-up only; its request is recorded once through a recording relay and replayed by the
// baseline script byte for byte (same method, path, headers and body).
// `--bin` measures another build (e.g. the previous commit's) against the same baselines.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { goalLine } from "./lib.mjs";

const arg = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const BIN = resolve(arg("--bin") ?? fileURLToPath(new URL("../bin/simadmin.js", import.meta.url)));
const RUNS = Number(arg("--runs") ?? 15);
// The access budget is 100 requests per 5 minutes (spec §8); each round of a pass sends 3
// token calls and the bare POST, to the pass's own sandbox.
if (!Number.isInteger(RUNS) || RUNS < 3 || RUNS > 24) {
  console.error("startup bench: --runs must be a whole number from 3 to 24");
  process.exit(2);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The environment with nothing inherited that would change simadmin's behaviour. */
function baseEnv(extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("SIMADMIN_") || key === "NO_COLOR" || key === "FORCE_COLOR" || key === "NODE_EXTRA_CA_CERTS") continue;
    // A proxy of the machine's would turn every run into the proxied case.
    if (/^(https?_proxy|all_proxy|no_proxy)$/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** `simadmin sandbox --port 0` in the background; resolves with its connection settings. */
function startSandbox(env) {
  const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((done, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => fail(new Error("the sandbox did not print its base URL within 15 s")), 15_000);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${error.message}\n${err}`));
    };
    child.stderr.on("data", (chunk) => (err += chunk));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const settings = Object.fromEntries(
        out
          .split("\n")
          .filter((line) => /^SIMADMIN_[A-Z_]+=/.test(line))
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
      if (settings.SIMADMIN_BASE_URL && settings.SIMADMIN_API_KEY && settings.SIMADMIN_ORG) {
        clearTimeout(timer);
        done({
          settings,
          stop: () => new Promise((end) => (child.exitCode === null ? (child.once("exit", end), child.kill("SIGINT")) : end())),
        });
      }
    });
    child.on("exit", (code) => fail(new Error(`the sandbox exited early (code ${code})`)));
  });
}

/**
 * Runs `simadmin token` once through a relay on loopback that passes everything to the
 * sandbox and records the requests: what the baseline script must send.
 */
async function recordTokenRequests(env, baseUrl) {
  const target = new URL(baseUrl);
  const seen = [];
  const relay = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method, path: req.url, headers: req.headers, body: body.toString("latin1") });
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.end(body);
    });
  });
  await new Promise((done) => relay.listen(0, "127.0.0.1", done));
  const relayUrl = `http://127.0.0.1:${relay.address().port}${target.pathname.replace(/\/$/, "")}`;
  const code = await new Promise((done) => {
    const child = spawn(process.execPath, [BIN, "token", "--user", "user-demo", "-o", "json"], {
      env: { ...env, SIMADMIN_BASE_URL: relayUrl },
      stdio: "ignore",
    });
    child.on("exit", done);
  });
  await new Promise((done) => relay.close(done));
  if (code !== 0 || seen.length === 0) throw new Error(`token through the relay exited ${code} after ${seen.length} requests`);
  return seen;
}

/** A script that sends `requests` with node:http one after the other and prints the last answer. */
function bareClientScript(requests, baseUrl) {
  const { hostname, port } = new URL(baseUrl);
  return `const http = require("node:http");
const requests = ${JSON.stringify(requests)};
const send = (i) => {
  const r = requests[i];
  const headers = { ...r.headers, host: ${JSON.stringify(`${hostname}:${port}`)} };
  const req = http.request({ host: ${JSON.stringify(hostname)}, port: ${port}, method: r.method, path: r.path, headers }, (res) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk) => (text += chunk));
    res.on("end", () => {
      if (res.statusCode >= 300) { console.error(res.statusCode, text); process.exit(1); }
      if (i + 1 < requests.length) send(i + 1); else process.stdout.write(text + "\\n");
    });
  });
  req.end(Buffer.from(r.body, "latin1"));
};
send(0);`;
}

/**
 * CPU time (user + system, in clock ticks) of this process's children that have been waited
 * for: spawnSync waits for its child, so the difference around one run is that run's CPU time.
 * Wall time on a shared machine moves with the neighbours; CPU time hardly does. Linux only
 * (undefined elsewhere); a tick is 10 ms, so ratios are taken over the sums of all rounds.
 */
function childCpuTicks() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of proc(5) (cutime, cstime); the list above starts at field 3.
    return Number(fields[13]) + Number(fields[14]);
  } catch {
    return undefined;
  }
}

let lastCpu = 0;
function timeOnce(command, env) {
  const cpuBefore = childCpuTicks();
  const started = performance.now();
  const result = spawnSync(process.execPath, command.args, { env, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const ms = performance.now() - started;
  const cpuAfter = childCpuTicks();
  lastCpu = cpuBefore === undefined || cpuAfter === undefined ? NaN : cpuAfter - cpuBefore;
  if (result.status !== 0) {
    throw new Error(
      `\`${command.label}\` exited ${result.status ?? result.signal}: ${(result.stderr || result.stdout).trim().slice(0, 500)}`,
    );
  }
  return ms;
}

/** A minimal absolute-form forward proxy on loopback, in a process of its own (spawnSync blocks this one). */
const PROXY_SCRIPT = `
  const { createServer, request } = require("node:http");
  const server = createServer((req, res) => {
    const upstream = request(new URL(req.url), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

function startProxy() {
  const child = spawn(process.execPath, ["-e", PROXY_SCRIPT], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((done, reject) => {
    child.once("exit", (code) => reject(new Error(`the bench proxy exited early (code ${code})`)));
    child.stdout.once("data", (chunk) => {
      done({
        url: `http://127.0.0.1:${String(chunk).trim()}`,
        close: () => new Promise((end) => (child.exitCode === null ? (child.once("exit", end), child.kill()) : end())),
      });
    });
  });
}

const CA_CERTS =
  process.env.NODE_EXTRA_CA_CERTS ??
  (existsSync("/etc/ssl/certs/ca-certificates.crt") ? "/etc/ssl/certs/ca-certificates.crt" : undefined);
const dir = mkdtempSync(join(tmpdir(), "simadmin-bench-"));
// `--ca without` (or `with`) runs one of the two passes only.
const CA_PASSES = { with: [CA_CERTS], without: [undefined], both: [CA_CERTS, undefined] }[arg("--ca") ?? "both"];
if (!CA_PASSES) {
  console.error("startup bench: --ca must be with, without or both");
  process.exit(2);
}
const proxy = await startProxy();
let missed = 0;
const stops = [];
try {
  const tokenArgs = [BIN, "token", "--user", "user-demo", "-o", "json"];
  const bare = { label: "node -e 0", args: ["-e", "0"] };
  console.log(
    `start-up of ${BIN}: median of ${RUNS} paired ratios, CPU as the ratio of the sums ` +
      `(Node ${process.version}, ${process.platform}/${process.arch})`,
  );
  for (const [pass, ca] of (CA_CERTS ? CA_PASSES : [undefined]).entries()) {
    // Each pass has a sandbox and a settings directory of its own: the access budget (100
    // requests per 5 minutes, spec §8) holds the ~4 token calls of one pass's rounds, not two
    // passes' worth, and neither the sandbox nor the client's rate ledger may make a call wait.
    // Its own cache directory: the first run of the build writes the code cache (the warm-up round).
    const env = baseEnv({ SIMADMIN_CONFIG_DIR: join(dir, `config-${pass}`), XDG_CACHE_HOME: join(dir, "cache") });
    const sandbox = await startSandbox(
      baseEnv({ SIMADMIN_CONFIG_DIR: join(dir, `sandbox-${pass}`), XDG_CACHE_HOME: join(dir, "cache") }),
    );
    stops.push(sandbox.stop);
    const tokenEnv = { ...env, ...sandbox.settings };
    const post = {
      label: "bare node:http POST",
      args: [
        "-e",
        bareClientScript(
          await recordTokenRequests(tokenEnv, sandbox.settings.SIMADMIN_BASE_URL),
          sandbox.settings.SIMADMIN_BASE_URL,
        ),
      ],
    };
    const pairs = [
      { label: "--help", args: [BIN, "--help"], base: bare, target: 1.3 },
      { label: "--version", args: [BIN, "--version"], base: bare, target: 1.3 },
      { label: "token", args: tokenArgs, base: post, target: 2.0 },
      { label: "token via proxy", args: tokenArgs, extra: { HTTP_PROXY: proxy.url }, base: bare, target: 4 },
    ];
    const withCa = (extra) => ({ ...tokenEnv, ...extra, ...(ca ? { NODE_EXTRA_CA_CERTS: ca } : {}) });
    // One warm-up round: the first run of anything reads files from disk and writes the code cache.
    for (const pair of pairs) {
      timeOnce(pair, withCa(pair.extra));
      timeOnce(pair.base, withCa());
    }
    const results = pairs.map(() => ({ ratio: [], ms: [], base: [], cpu: 0, baseCpu: 0 }));
    for (let run = 0; run < RUNS; run++) {
      pairs.forEach((pair, i) => {
        const first = run % 2 === 0;
        const base = first ? timeOnce(pair.base, withCa()) : undefined;
        if (first) results[i].baseCpu += lastCpu;
        const ms = timeOnce(pair, withCa(pair.extra));
        results[i].cpu += lastCpu;
        const after = first ? base : timeOnce(pair.base, withCa());
        if (!first) results[i].baseCpu += lastCpu;
        results[i].ratio.push(ms / after);
        results[i].ms.push(ms);
        results[i].base.push(after);
      });
    }
    console.log(ca ? `  with NODE_EXTRA_CA_CERTS=${ca}` : "  without NODE_EXTRA_CA_CERTS");
    pairs.forEach((pair, i) => {
      const ratio = median(results[i].ratio);
      const ok = ratio <= pair.target;
      if (!ok) missed++;
      console.log(
        `    ${pair.label.padEnd(16)} ${median(results[i].ms).toFixed(1).padStart(6)} ms vs ${pair.base.label} ` +
          `${median(results[i].base).toFixed(1)} ms: ${ratio.toFixed(2)}x (target <= ${pair.target}) ${ok ? "ok" : "OVER"}` +
          `; CPU ${(results[i].cpu / results[i].baseCpu).toFixed(2)}x`,
      );
      const name = `start-up ${pair.label} vs ${pair.base.label} (Node ${process.version})`;
      console.log(
        `    ${goalLine({ name, ca: Boolean(ca), ratio, cpu: results[i].cpu / results[i].baseCpu, target: pair.target })}`,
      );
    });
  }
  console.log(missed === 0 ? "start-up: every target met" : `start-up: ${missed} target(s) missed`);
} finally {
  await proxy.close();
  for (const stop of stops) await stop();
  rmSync(dir, { recursive: true, force: true });
}
if (missed > 0) process.exitCode = 1;
