// @ts-nocheck
// Bulk link benchmark (issue 16): `link --from-csv` of 60 rows for 20 users through the built
// binary against the sandbox, with the access limit scaled to 10 per 10 s (as bench/scheduler.mjs
// scales the reports limit, so the safety margin costs the same share of a window).
//
//   node bench/bulk-link.mjs          (after `npm run build`; also run by `npm run bench`)
//
// Targets: requests sent = 60 deep links + 20 tokens (one token per user, not per row);
// time ≤ 1.05 × the minimum the limit allows for 80 requests; no 429.
//
// The minimum for N requests at L per W is (ceil(N / L) − 1) · W: L at once, then L more every
// W. Like the minimum, the time is measured from the first request to the last one as the
// sandbox received them; the wall time (start-up and the last answer added) is printed beside.

import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "simadmin.js");
const SERVER = join(ROOT, "dist", "sandbox", "server.js");

const LIMIT = 10;
const WINDOW_MS = 10_000;
const USERS = 20;
const ROWS = 60;

const minimumMs = (requests) => (Math.ceil(requests / LIMIT) - 1) * WINDOW_MS;

const { startSandbox } = await import(pathToFileURL(SERVER).href);
const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimits: { access: { limit: LIMIT, windowMs: WINDOW_MS } } });
const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-bulk-"));
try {
  const users = [];
  for (let i = 1; i <= USERS; i++) {
    users.push(sandbox.state.createUser(sandbox.org, { email: `bench${i}@example.com` }).user.userId);
  }
  const sims = sandbox.state.listSimulations(sandbox.org).map((s) => s.id);
  const lines = ["userId,simulationId"];
  for (let i = 0; i < ROWS; i++) lines.push(`${users[i % USERS]},${sims[Math.floor(i / USERS)]}`);
  const csv = join(dir, "cohort.csv");
  await writeFile(csv, `${lines.join("\n")}\n`);

  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SIMADMIN_BASE_URL: sandbox.baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_ORG: sandbox.org,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
    SIMADMIN_RATE_LIMITS: `access=${LIMIT}/${WINDOW_MS / 1000}s`,
    SIMADMIN_KEYCHAIN: "off",
  };
  const started = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "link", "--from-csv", csv, "-q", "--out", join(dir, "links.csv")], {
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.on("exit", (c) => resolve(c ?? 1));
  });
  const wallMs = performance.now() - started;

  const access = sandbox.requests.filter((r) => r.group === "access");
  const deepLinks = access.filter((r) => r.path.endsWith("/simulation/deep-links") && r.status === 200).length;
  const tokens = access.filter((r) => r.path.endsWith("/user/token") && r.status === 200).length;
  const rejected = access.filter((r) => r.status === 429).length;
  const accepted = access.filter((r) => r.status === 200).map((r) => r.at);
  const spanMs = Math.max(...accepted) - Math.min(...accepted);
  const min = minimumMs(deepLinks + tokens);
  const ratio = spanMs / min;
  const ok = code === 0 && deepLinks === ROWS && tokens === USERS && rejected === 0 && ratio <= 1.05;
  console.log(
    `link --from-csv ${ROWS} rows / ${USERS} users: ${deepLinks} deep links + ${tokens} tokens in ${(spanMs / 1000).toFixed(1)} s ` +
      `(wall ${(wallMs / 1000).toFixed(1)} s), minimum ${(min / 1000).toFixed(1)} s, ratio ${ratio.toFixed(3)} (target <= 1.05), ` +
      `429s: ${rejected}, exit ${code}${ok ? "" : "  MISSED"}`,
  );
  if (!ok) process.exitCode = 1;
} finally {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
}
