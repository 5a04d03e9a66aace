#!/usr/bin/env node
// @ts-nocheck
// Start-up benchmark (issue 8): `simadmin --help` and `--version` within 1.3× of `node -e 0`,
// and one `token` call against a loopback sandbox within 2.5×, all measured in this run.
// Issue 13: the same `token` call through a forward proxy on loopback (HTTP_PROXY, which
// loads undici) within 4×.
//
//   npm run build && node bench/startup.mjs [--runs 15]
//
// Every repetition runs each command once, starting from a different one each time, so a
// neighbour slowing the machine for a while hits all of them alike; the figure per command
// is the median wall time (spawn to exit) of its runs. The sandbox is a separate process
// (`simadmin sandbox --port 0`), so the token call pays for its own start-up only, as a
// user's would. Settings come from the environment with an empty settings directory.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/simadmin.js", import.meta.url));
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
// The access budget is 100 requests per 5 minutes (spec §8); stay well inside it.
if (!Number.isInteger(RUNS) || RUNS < 3 || RUNS > 80) {
  console.error("startup bench: --runs must be a whole number from 3 to 80");
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
    if (key.startsWith("SIMADMIN_") || key === "NO_COLOR" || key === "FORCE_COLOR") continue;
    // A proxy of the machine's would turn every run into the proxied case.
    if (/^(https?_proxy|all_proxy|no_proxy)$/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** `simadmin sandbox --port 0` in the background; resolves with its connection settings. */
function startSandbox(env) {
  const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
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
        resolve({
          settings,
          stop: () =>
            new Promise((done) => (child.exitCode === null ? (child.once("exit", done), child.kill("SIGINT")) : done())),
        });
      }
    });
    child.on("exit", (code) => fail(new Error(`the sandbox exited early (code ${code})`)));
  });
}

function timeOnce(command) {
  const started = performance.now();
  const result = spawnSync(process.execPath, command.args, {
    env: command.env,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  const ms = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(
      `\`${command.label}\` exited ${result.status ?? result.signal}: ${(result.stderr || result.stdout).trim().slice(0, 500)}`,
    );
  }
  return ms;
}

/**
 * A minimal absolute-form forward proxy on loopback (what a corporate proxy does for
 * http://), in a process of its own: spawnSync below blocks this one's event loop.
 */
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
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bench proxy exited early (code ${code})`)));
    child.stdout.once("data", (chunk) => {
      resolve({
        url: `http://127.0.0.1:${String(chunk).trim()}`,
        close: () => new Promise((done) => (child.exitCode === null ? (child.once("exit", done), child.kill()) : done())),
      });
    });
  });
}

const configDir = mkdtempSync(join(tmpdir(), "simadmin-bench-"));
const env = baseEnv({ SIMADMIN_CONFIG_DIR: join(configDir, "config") });
const sandbox = await startSandbox(baseEnv({ SIMADMIN_CONFIG_DIR: join(configDir, "sandbox") }));
const proxy = await startProxy();
try {
  const tokenEnv = { ...env, ...sandbox.settings };
  const commands = [
    { label: "node -e 0", args: ["-e", "0"], env },
    { label: "--help", args: [BIN, "--help"], env, target: 1.3 },
    { label: "--version", args: [BIN, "--version"], env, target: 1.3 },
    { label: "token", args: [BIN, "token", "--user", "user-demo", "-o", "json"], env: tokenEnv, target: 2.5 },
    {
      label: "token via proxy",
      args: [BIN, "token", "--user", "user-demo", "-o", "json"],
      env: { ...tokenEnv, HTTP_PROXY: proxy.url },
      target: 4,
    },
  ];
  // One warm-up round: the first run of anything reads files from disk.
  for (const command of commands) timeOnce(command);
  const times = commands.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    for (let i = 0; i < commands.length; i++) {
      const index = (run + i) % commands.length;
      times[index].push(timeOnce(commands[index]));
    }
  }

  const medians = times.map(median);
  const baseline = medians[0];
  console.log(`start-up, median of ${RUNS} runs each (Node ${process.version}, ${process.platform}/${process.arch})`);
  let missed = 0;
  commands.forEach((command, i) => {
    const ms = `${medians[i].toFixed(1)} ms`.padStart(9);
    const spread = `min ${Math.min(...times[i]).toFixed(0)}, max ${Math.max(...times[i]).toFixed(0)}`;
    if (command.target === undefined) {
      console.log(`  ${command.label.padEnd(16)} ${ms}                                      (${spread})`);
      return;
    }
    const ratio = medians[i] / baseline;
    const ok = ratio <= command.target;
    if (!ok) missed++;
    console.log(
      `  ${command.label.padEnd(16)} ${ms}  ${ratio.toFixed(2)}x node -e 0 (target <= ${command.target})  ${ok ? "ok  " : "OVER"}  (${spread})`,
    );
  });
  console.log(missed === 0 ? "start-up: every target met" : `start-up: ${missed} target(s) missed`);
} finally {
  await proxy.close();
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
