// Link service benchmark (docs/links.md): `links serve` of the built binary against the sandbox.
//
//   node bench/links.mjs          (after `npm run build`; also run by `npm run bench`)
//   node bench/links.mjs burst    (part 1 only)
//
// 1. A campaign morning: 500 distinct trainees press Start at once, against the sandbox at
//    its real access limit of 100 requests per window (the window scaled from 300 s to 10 s,
//    as bench/bulk-link.mjs scales it). Each trainee's browser does what the pages say: a 503
//    is followed after its Retry-After by the page's reload URL. Targets: every click ends in
//    the simulation (303 to the deep link with a token), 0 × 429, and the time from the first
//    click to the last redirect ≤ 1.1 × the least the budget allows for the requests needed
//    (500 tokens + 1 deep link: (ceil(501 / 100) − 1) × 10 s).
// 2. Clicks served from the token cache per second ≥ 0.5 × a bare node:http server answering
//    every POST with a 303 (both separate processes, same client, rounds in alternation).
// 3. Peak RSS of the server (VmHWM) flat from 1k to 100k distinct links opened and clicked:
//    ratio ≤ 1.25 with a fixed young generation (the default heap's ratio is printed too).

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSandboxProcess } from "./parts/sandbox-process.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "simadmin.js");
const dist = (path) => import(pathToFileURL(join(ROOT, "dist", path)).href);
const { signLinkId } = await dist("domain/durable-links.js");

const LIMIT = 100;
const WINDOW_MS = 10_000;
const TRAINEES = 500;
const LINK_KEY = "bench-links-key-0123456789abcdef0123456789";
const minimumMs = (requests) => (Math.ceil(requests / LIMIT) - 1) * WINDOW_MS;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request; a keep-alive socket the server closed just as it was reused (ECONNRESET) is
 * tried once more on a new one, as browsers do.
 */
function send(agent, url, method = "GET") {
  return sendOnce(agent, url, method).catch((error) => {
    if (error.code !== "ECONNRESET") throw error;
    return sendOnce(agent, url, method);
  });
}

function sendOnce(agent, url, method) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: method === "POST" ? { "Content-Length": "0" } : {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** `links serve` as a process; resolves once it listens. */
async function startServer(env) {
  const child = spawn(process.execPath, [BIN, "links", "serve", "--listen", ":0"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let text = "";
  child.stderr.on("data", (chunk) => (text += chunk));
  for (let i = 0; ; i++) {
    const match = /listening on (http:\/\/\S+)/.exec(text);
    if (match) return { url: match[1], child, log: () => text };
    if (child.exitCode !== null || i > 3000) throw new Error(`links serve did not start:\n${text}`);
    await sleep(10);
  }
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Peak resident set of a process (Linux), in MiB. */
function peakRssMiB(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match[1]) / 1024;
}

/** Runs `count` calls of `task(i)` with at most `concurrency` at once. */
async function pool(count, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

// The sandbox in its own process: in this one it would stamp arrivals late while the 500
// clients keep this event loop busy (bench/parts/sandbox-process.mjs).
const sandbox = await startSandboxProcess({
  access: { limit: LIMIT, windowMs: WINDOW_MS },
  reports: { limit: 10, windowMs: WINDOW_MS },
});
const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-links-"));
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SIMADMIN_BASE_URL: sandbox.baseUrl,
  SIMADMIN_API_KEY: sandbox.key,
  SIMADMIN_ORG: sandbox.org,
  SIMADMIN_CONFIG_DIR: join(dir, "config"),
  SIMADMIN_RATE_LIMITS: `access=${LIMIT}/${WINDOW_MS / 1000}s`,
  SIMADMIN_LINKS_KEY: LINK_KEY,
  SIMADMIN_KEYCHAIN: "off",
};
const scope = { service: sandbox.baseUrl, organizationId: sandbox.org };
const now = Date.now();
const linkPath = (userId, simulationId, n = 0) =>
  `/l/${signLinkId(Buffer.from(LINK_KEY), scope, { userId, simulationId, issuedAt: now, expiresAt: now + 86_400_000 + n * 1000 })}`;
let failed = false;

try {
  // 1. The campaign morning.
  const users = await sandbox.createUsers(TRAINEES);
  const server = await startServer(env);
  // No keep-alive: a socket idle through a Retry-After would race the server's keep-alive timeout.
  const agent = new Agent({ keepAlive: false, maxSockets: TRAINEES });
  const before = await sandbox.count();
  const started = performance.now();
  let busy = 0;
  let lastRedirect = 0;
  const outcomes = await Promise.all(
    users.map(async (userId) => {
      const link = `${server.url}${linkPath(userId, "sim-001")}`;
      let answer = await send(agent, link, "POST").catch((error) => {
        throw new Error(`click failed: ${error.message}\n${server.log().slice(-2000)}`);
      });
      while (answer.status === 503) {
        busy++;
        const refresh = /<meta http-equiv="refresh" content="(\d+);url=([^"]+)">/.exec(answer.body);
        await sleep(Number(answer.headers["retry-after"]) * 1000);
        answer = await send(agent, new URL(refresh[2].replace(/&amp;/g, "&"), link).href);
      }
      lastRedirect = performance.now();
      return answer.status === 303 && new URL(answer.headers.location).searchParams.has("token");
    }),
  );
  const wallMs = lastRedirect - started;
  const access = (await sandbox.requests(before)).filter((r) => r.group === "access");
  const rejected = access.filter((r) => r.status === 429).length;
  const needed = access.filter((r) => r.status === 200).length;
  const ratio = wallMs / minimumMs(needed);
  const landed = outcomes.filter(Boolean).length;
  const ok1 = landed === TRAINEES && rejected === 0 && ratio <= 1.1;
  console.log(
    `campaign burst: ${landed}/${TRAINEES} trainees in the simulation, ${needed} requests (${access.length - needed} refused), ` +
      `${rejected} x 429, ${busy} waiting pages; ${(wallMs / 1000).toFixed(1)} s vs minimum ${(minimumMs(needed) / 1000).toFixed(1)} s, ` +
      `ratio ${ratio.toFixed(3)} (target <= 1.1)${ok1 ? "" : "  MISSED"}`,
  );
  failed ||= !ok1;
  // `node bench/links.mjs burst`: the campaign morning alone.
  if (process.argv[2] === "burst") {
    await stop(server.child);
    throw Object.assign(new Error("burst only"), { burstOnly: true });
  }

  // 2. Cached-token clicks per second against a bare node:http redirect server.
  const bare = spawn(
    process.execPath,
    [
      "-e",
      `require("node:http").createServer((q, s) => { q.resume(); q.on("end", () => { s.writeHead(303, { Location: "https://app.example/x?token=t" }); s.end(); }); })
        .listen(0, "127.0.0.1", function () { process.stdout.write(String(this.address().port) + "\\n"); });`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const barePort = await new Promise((resolve) => bare.stdout.once("data", (chunk) => resolve(Number(String(chunk).trim()))));
  const clickAgent = new Agent({ keepAlive: true, maxSockets: 16 });
  const cachedLinks = users.slice(0, 200).map((userId) => `${server.url}${linkPath(userId, "sim-001")}`);
  const round = async (urlOf) => {
    const count = 3000;
    const t0 = performance.now();
    await pool(count, 16, async (i) => {
      const answer = await send(clickAgent, urlOf(i), "POST");
      if (answer.status !== 303) throw new Error(`click answered ${answer.status}`);
    });
    return count / ((performance.now() - t0) / 1000);
  };
  const ratios = [];
  let linksRate = 0;
  let bareRate = 0;
  for (let i = 0; i < 5; i++) {
    linksRate = await round((n) => cachedLinks[n % cachedLinks.length]);
    bareRate = await round(() => `http://127.0.0.1:${barePort}/l/x`);
    ratios.push(linksRate / bareRate);
  }
  bare.kill();
  ratios.sort((a, b) => a - b);
  const median = ratios[2];
  const ok2 = median >= 0.5;
  console.log(
    `cached-token clicks: ${Math.round(linksRate)}/s vs bare node:http redirect ${Math.round(bareRate)}/s (last round); ` +
      `median ratio of 5 paired rounds ${median.toFixed(2)} (target >= 0.5)${ok2 ? "" : "  MISSED"}`,
  );
  failed ||= !ok2;
  await stop(server.child);

  // 3. Peak RSS from 1k to 100k distinct links (each opened, one in ten clicked; 50 trainees
  //    whose tokens are kept after their first click). Twice: with Node's default heap, where
  //    V8 grows the young generation (up to 3 × 16 MiB) and lets garbage collect in the old one
  //    before a full collection (not memory held per link: it stops between 100k and 200k and
  //    falls back),
  //    and with a small fixed heap (NODE_OPTIONS, docs/links.md "Memory"), where anything the
  //    server kept per link would show as growth, or end it out of memory — the target.
  const rssFor = async (links, nodeOptions) => {
    // A fresh budget window: the 50 trainees' first clicks must not wait for it.
    await sleep(WINDOW_MS + 1000);
    const fresh = await startServer(nodeOptions ? { ...env, NODE_OPTIONS: nodeOptions } : env);
    const rssAgent = new Agent({ keepAlive: true, maxSockets: 16 });
    await pool(links, 16, async (i) => {
      const path = linkPath(users[i % 50], `sim-00${1 + (i % 3)}`, i);
      const view = await send(rssAgent, `${fresh.url}${path}`);
      if (view.status !== 200) throw new Error(`view answered ${view.status}`);
      if (i % 10 === 0) {
        const click = await send(rssAgent, `${fresh.url}${path}`, "POST");
        if (click.status !== 303) throw new Error(`click answered ${click.status}`);
      }
    });
    const peak = peakRssMiB(fresh.child.pid);
    await stop(fresh.child);
    return peak;
  };
  const small = await rssFor(1_000);
  const large = await rssFor(100_000);
  console.log(
    `peak RSS, default heap: ${small.toFixed(1)} MiB after 1k distinct links, ${large.toFixed(1)} MiB after 100k, ratio ${(large / small).toFixed(2)} (V8's heap sizing; see below)`,
  );
  const FLAT = "--max-semi-space-size=2 --max-old-space-size=64";
  const smallFlat = await rssFor(1_000, FLAT);
  const largeFlat = await rssFor(100_000, FLAT);
  const ok3 = largeFlat / smallFlat <= 1.25;
  console.log(
    `peak RSS, ${FLAT}: ${smallFlat.toFixed(1)} MiB after 1k, ${largeFlat.toFixed(1)} MiB after 100k, ratio ${(largeFlat / smallFlat).toFixed(2)} (target <= 1.25: nothing kept per link)${ok3 ? "" : "  MISSED"}`,
  );
  failed ||= !ok3;
} catch (error) {
  if (!error.burstOnly) {
    console.error(error);
    failed = true;
  }
} finally {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
}
if (failed) process.exitCode = 1;
