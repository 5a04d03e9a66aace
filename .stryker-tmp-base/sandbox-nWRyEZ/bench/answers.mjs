#!/usr/bin/env node
// @ts-nocheck
// Memory under answers that do not end (issue 13, "Figures"): peak RSS of one simadmin run
// must stay under 150 MiB whatever the service sends — an endless or a 600 MB answer to an
// access call (buffered, capped at 4 MiB), an endless error body (read for its message
// only), and a 600 MB report window (streamed to disk, then records to the output file).
//
//   npm run build && node bench/answers.mjs
//
// The service is a node:http server in this process on 127.0.0.1 pouring bytes as fast as the
// client reads them; each run is a child process measured with /usr/bin/time -v ("Maximum
// resident set size"), so the figure is the whole process's peak, GC and buffers included.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/simadmin.js", import.meta.url));
const LIMIT_MIB = 150;
const MB600 = 600 * 1000 * 1000;

/** Writes `chunk` until `total` bytes or until the client goes away. */
function pour(res, chunk, total = Infinity) {
  let sent = 0;
  const more = () => {
    while (sent < total && !res.destroyed) {
      const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
      sent += piece.length;
      if (sent >= total) return void res.end(piece);
      if (!res.write(piece)) return void res.once("drain", more);
    }
  };
  more();
}

const RECORD = Buffer.from(`${'{"userId":"u-000001","simulationId":"sim-001","score":97,"state":"COMPLETED"},'.repeat(800)}`);
const SCENARIOS = {
  "token: endless 200 body": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    pour(res, Buffer.alloc(256 * 1024, 0x20));
  },
  "token: 600 MB 200 body": (res) => {
    res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
    pour(res, Buffer.alloc(256 * 1024, 0x20), MB600);
  },
  "token: endless 503 body (2 retries)": (res) => {
    res.writeHead(503, { "content-type": "text/plain" });
    pour(res, Buffer.from("down for maintenance ".repeat(10_000)));
  },
  "reports: 600 MB window (to a file)": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write("[");
    // The array's last element has no trailing comma: pour the records, then close the array.
    const body = MB600 - 2 - 2;
    let sent = 0;
    const more = () => {
      while (sent + RECORD.length < body && !res.destroyed) {
        sent += RECORD.length;
        if (!res.write(RECORD)) return void res.once("drain", more);
      }
      res.end("{}]");
    };
    more();
  },
};

const COMMANDS = {
  token: () => ["token", "--user", "u", "-o", "json", "--retries", "2"],
  reports: (dir) => [
    "reports",
    "users",
    "--from",
    "2026-01-01",
    "--to",
    "2026-01-10",
    "-o",
    "ndjson",
    "--out",
    join(dir, "out.ndjson"),
  ],
};

let current;
const server = createServer((req, res) => {
  res.on("error", () => undefined);
  req.resume();
  req.on("end", () => SCENARIOS[current](res));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}`;

function measure(args, env) {
  return new Promise((resolve) => {
    const child = spawn("/usr/bin/time", ["-v", process.execPath, BIN, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("exit", (code) => {
      const rssKiB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1]);
      const exit = Number(/Exit status: (\d+)/.exec(err)?.[1] ?? code);
      const seconds = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)/.exec(err)?.[1];
      const line = err.split("\n").find((l) => l.startsWith("error:")) ?? "";
      resolve({ rssMiB: rssKiB / 1024, exit, seconds, line });
    });
  });
}

let over = 0;
console.log(`peak RSS per run (target < ${LIMIT_MIB} MiB; Node ${process.version})`);
for (const name of Object.keys(SCENARIOS)) {
  current = name;
  const dir = mkdtempSync(join(tmpdir(), "simadmin-bench-answers-"));
  try {
    const env = {
      ...process.env,
      SIMADMIN_BASE_URL: baseUrl,
      SIMADMIN_API_KEY: "sk_bench_0123456789",
      SIMADMIN_ORG: "org-bench",
      SIMADMIN_CONFIG_DIR: join(dir, "cfg"),
      SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s",
    };
    for (const key of Object.keys(env)) if (/^(https?_proxy|all_proxy|no_proxy)$/i.test(key)) delete env[key];
    const args = COMMANDS[name.split(":")[0]](dir);
    const r = await measure(args, env);
    let written = "";
    try {
      written = `, wrote ${(statSync(join(dir, "out.ndjson")).size / 1e6).toFixed(0)} MB`;
    } catch {
      // Only the report writes a file.
    }
    const ok = r.rssMiB < LIMIT_MIB;
    if (!ok) over++;
    console.log(
      `  ${name.padEnd(38)} ${r.rssMiB.toFixed(1).padStart(6)} MiB  ${ok ? "ok  " : "OVER"}  exit ${r.exit} in ${r.seconds}${written}`,
    );
    if (r.line) console.log(`      ${r.line.slice(0, 150)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
server.close();
server.closeAllConnections();
console.log(over === 0 ? "answers: every run under the limit" : `answers: ${over} run(s) over the limit`);
process.exitCode = over === 0 ? 0 : 1;
