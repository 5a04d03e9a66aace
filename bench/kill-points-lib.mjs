// Kill-point harness (issue 22 item 7; docs/cli-contract.md "Retries", "Output files",
// "Concurrency"): the built binary runs against a sandbox through a loopback HTTP relay that
// SIGKILLs it at a chosen moment of a chosen request — when the request arrives, halfway
// through its body, once the whole request reached the service, once the service answered
// (before the answer is relayed), or once the answer was relayed. The run is then repeated
// (`--resume` for an import) and the result checked: nothing doubled, nothing lost, no
// half-written file, no temp file or lock left behind. Shared by test/e2e/kill-points.test.ts
// (a spread of points) and bench/kill-points.mjs (all of them). `progress` and `progress notify`
// with their state in PostgreSQL are killed the same way, notify also at each moment of each
// SMTP message (a sink on loopback that kills the sender, shaped like the relay).
//
// The relay, not the sandbox, decides the moment: it sees the bytes the client sends and
// the answer before the client does, so every point is reached deterministically, with no
// wall-clock timing.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer, request as httpRequest } from "node:http";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { setImmediate } from "node:timers";
import { keepCodeCache, seedCodeCache } from "./parts/code-cache-seed.mjs";
import { join } from "node:path";

export const PHASES = ["arrive", "mid-body", "sent", "answered", "relayed"];
const UPLOAD = "/v2/access-api/user/bulk-import";
const ROOMY = { reports: { limit: 10_000, windowMs: 1000 }, access: { limit: 10_000, windowMs: 1000 } };
const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

/**
 * An HTTP relay to `target` (a base URL). `arm({ request, phase, onKill })` makes it call
 * onKill (synchronously) at that phase of the request-th request; requests are counted
 * from 1 from the moment of arming.
 */
export async function startRelay(target) {
  const upstream = new URL(target);
  let armed;
  let count = 0;
  const inFlight = new Set();
  const fire = (n, phase) => {
    if (armed && armed.request === n && armed.phase === phase) {
      const { onKill } = armed;
      armed = undefined;
      onKill();
      return true;
    }
    return false;
  };
  const server = createServer((req, res) => {
    const n = ++count;
    if (fire(n, "arrive")) {
      req.socket.destroy();
      return;
    }
    const done = new Promise((resolveDone) => {
      const up = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const chunks = [];
          answer.on("data", (c) => chunks.push(c));
          answer.on("end", () => {
            resolveDone();
            if (fire(n, "answered")) {
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks), () => fire(n, "relayed"));
          });
          answer.on("error", () => resolveDone());
        },
      );
      up.on("error", () => {
        resolveDone();
        res.destroy();
      });
      // Mid-body: the service gets the first half of the body (or of the first chunk, when
      // the length is not known), then the client is killed; it never sees the body's end.
      const length = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
      let seen = 0;
      req.on("data", (chunk) => {
        if (armed && armed.request === n && armed.phase === "mid-body") {
          const half = Math.max(1, Math.floor(((length ?? seen + chunk.length) - seen) / 2));
          up.write(chunk.subarray(0, Math.min(half, chunk.length)));
          fire(n, "mid-body");
          up.destroy();
          req.socket.destroy();
          return;
        }
        seen += chunk.length;
        up.write(chunk);
      });
      req.on("end", () => {
        up.end();
        fire(n, "sent");
      });
      req.on("error", () => up.destroy());
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  });
  // Idle connections stay open between a run's requests, as a service's do; close() ends them.
  // With 1 s, a run slowed by load can reuse a connection the relay is closing: its next
  // upload then fails as possibly received before the kill point (once, at load 18: first:8).
  server.keepAliveTimeout = 60_000;
  await new Promise((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    arm(point) {
      armed = point;
      count = 0;
    },
    disarm() {
      armed = undefined;
    },
    /** Waits for every relayed request to be answered by the service (its state settled). */
    async settle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

/**
 * One run of the built CLI; with `relay` and `point`, SIGKILLed at that point. Its cache
 * directory (each kill point has its own) starts with the code earlier runs of this process
 * saved, so no run compiles the whole bundle again (parts/code-cache-seed.mjs).
 */
export function runCli(bin, args, { env, cwd, relay, point }) {
  if (env.XDG_CACHE_HOME) seedCodeCache(env.XDG_CACHE_HOME);
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let killed = false;
    if (relay && point) {
      relay.arm({
        ...point,
        onKill: () => {
          killed = true;
          child.kill("SIGKILL");
        },
      });
    }
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => {
      relay?.disarm();
      if (env.XDG_CACHE_HOME) keepCodeCache(env.XDG_CACHE_HOME);
      resolveRun({ code, killed, stdout, stderr });
    });
  });
}

/** A run's last line on stderr, for the steps of a point that ended before its kill: " (…)". */
function lastLine(stderr) {
  const line = stderr.trim().split("\n").pop();
  return line ? ` (${line})` : "";
}

/** Names a killed run may leave that the next run must clear: temp files and locks. */
async function leftovers(dir) {
  return (await readdir(dir)).filter((n) => n.endsWith(".tmp") || n.endsWith(".lock"));
}

function cleanEnv(extra) {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    SIMADMIN_KEYCHAIN: "off",
    SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s",
    ...extra,
  };
}

export function usersCsv(rows, userCells) {
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) {
    const cells = userCells(i).cells;
    cells[7] = "Add";
    lines.push(cells.join(","));
  }
  return `${lines.join("\n")}\n`;
}

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/**
 * `users import` of a 1,600-row file (3 batches) killed at `point`, then resumed the way a
 * user following the messages would: `--resume`; a batch held back as possibly received is
 * checked at the service (as the message says) and re-sent with --resend-ambiguous only when
 * the service never got it. Returns the violations found (empty: all well).
 */
export async function importKillPoint({ bin, startSandbox, userCells, point, sandboxOptions = {} }) {
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    rateLimits: { access: { limit: 10_000, windowMs: 1000 } },
    importStepMs: 50,
    ...sandboxOptions,
  });
  const relay = await startRelay(sandbox.baseUrl);
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-"));
  const violations = [];
  const steps = [];
  try {
    await writeFile(join(dir, "staff.csv"), usersCsv(1600, userCells));
    const env = cleanEnv({
      SIMADMIN_BASE_URL: relay.baseUrl,
      SIMADMIN_API_KEY: sandbox.keys.full,
      SIMADMIN_ORG: sandbox.org,
      SIMADMIN_CONFIG_DIR: join(dir, "config"),
      XDG_CACHE_HOME: join(dir, "cache"),
    });
    const args = ["users", "import", "staff.csv", "-o", "json"];
    const first = await runCli(bin, args, { env, cwd: dir, relay, point });
    await relay.settle();
    steps.push(`first:${first.killed ? "killed" : `${first.code}${lastLine(first.stderr)}`}`);
    // At the kill: the manifest, if any, is whole JSON (written atomically).
    const manifestText = await readFile(join(dir, "staff.import.json"), "utf8").catch(() => undefined);
    if (manifestText !== undefined) {
      try {
        JSON.parse(manifestText);
      } catch {
        violations.push("half-written manifest after the kill");
      }
    }
    let last = first;
    for (let round = 0; round < 3; round++) {
      const manifest = await readFile(join(dir, "staff.import.json"), "utf8")
        .then((t) => JSON.parse(t))
        .catch(() => undefined);
      // After a kill the user runs it again even when every batch made it (the run's end was
      // not seen): that run must clear what the killed one left (its lock, temp files).
      if (manifest && manifest.batches.every((b) => b.state === "uploaded") && (round > 0 || !first.killed)) break;
      let extra = manifest ? ["--resume"] : [];
      if (manifest && last.code === 8 && /--resend-ambiguous/.test(last.stderr)) {
        // What the message asks the user to do: check the service for the held batches.
        const held = manifest.batches.filter((b) => b.state === "ambiguous" || b.state === "uploading");
        const received = held.filter((b) => tasksOf(sandbox, b.sha256) > 0);
        if (received.length === held.length) break; // they are there: nothing to send
        extra = ["--resume", "--resend-ambiguous"];
      }
      last = await runCli(bin, [...args, ...extra], { env, cwd: dir });
      steps.push(`${extra.join(" ") || "plain"}:${last.code}`);
      if (last.code === 2 && /another simadmin process/.test(last.stderr)) violations.push("a stale lock blocked the re-run");
      if (![0, 8].includes(last.code)) violations.push(`re-run ended ${last.code}: ${last.stderr.trim().split("\n").pop()}`);
    }
    const manifest = JSON.parse(await readFile(join(dir, "staff.import.json"), "utf8"));
    for (const batch of manifest.batches) {
      const tasks = tasksOf(sandbox, batch.sha256);
      if (tasks > 1) violations.push(`batch ${batch.number} imported ${tasks} times`);
      if (tasks === 0) violations.push(`batch ${batch.number} never imported`);
    }
    const left = await leftovers(dir);
    if (left.length > 0) violations.push(`left behind: ${left.join(", ")}`);
    return { point, reached: first.killed, steps, violations };
  } finally {
    await relay.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** How many tasks the service created from this batch (uploads of it answered 200). */
function tasksOf(sandbox, batchSha) {
  return sandbox.requests.filter((r) => r.path === UPLOAD && r.status === 200 && r.body && sha256(r.body.csvText) === batchSha)
    .length;
}

/**
 * `reports all` into --out-dir killed at `point`, then run again: every file present right
 * after the kill is complete (identical to an uninterrupted run's), and after the re-run the
 * directory holds exactly the uninterrupted run's files — no record doubled or lost, no temp
 * file left. `reference` maps file names to their content (see referenceReports).
 */
export async function reportsKillPoint({ bin, startSandbox, point, reference, range }) {
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimits: ROOMY });
  const relay = await startRelay(sandbox.baseUrl);
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-"));
  const out = join(dir, "out");
  const violations = [];
  try {
    const env = reportEnv(sandbox, relay.baseUrl, dir);
    const args = ["reports", "all", "--from", range.from, "--to", range.to, "-o", "json", "--out-dir", out];
    const first = await runCli(bin, args, { env, cwd: dir, relay, point });
    await relay.settle();
    for (const name of await readdir(out).catch(() => [])) {
      if (name.endsWith(".tmp")) continue;
      if (reference.get(name) !== (await readFile(join(out, name), "utf8")))
        violations.push(`half-written ${name} after the kill`);
    }
    const again = await runCli(bin, args, { env, cwd: dir });
    if (again.code !== 0) violations.push(`re-run ended ${again.code}: ${again.stderr.trim().split("\n").pop()}`);
    const names = (await readdir(out)).sort();
    const expected = [...reference.keys()].sort();
    if (names.join() !== expected.join()) violations.push(`files ${names.join(", ")} instead of ${expected.join(", ")}`);
    for (const name of expected) {
      const text = await readFile(join(out, name), "utf8").catch(() => undefined);
      if (text !== undefined && text !== reference.get(name)) violations.push(`${name} differs from an uninterrupted run`);
    }
    const left = await leftovers(dir);
    if (left.length > 0) violations.push(`left behind: ${left.join(", ")}`);
    return {
      point,
      reached: first.killed,
      steps: [`first:${first.killed ? "killed" : first.code}`, `again:${again.code}`],
      violations,
    };
  } finally {
    await relay.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function reportEnv(sandbox, baseUrl, dir) {
  return cleanEnv({
    SIMADMIN_BASE_URL: baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
    XDG_CACHE_HOME: join(dir, "cache"),
  });
}

/** The files of an uninterrupted `reports all` run, and how many requests it made. */
export async function referenceReports({ bin, startSandbox, range }) {
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimits: ROOMY });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-"));
  const out = join(dir, "out");
  try {
    const env = reportEnv(sandbox, sandbox.baseUrl, dir);
    const run = await runCli(bin, ["reports", "all", "--from", range.from, "--to", range.to, "-o", "json", "--out-dir", out], {
      env,
      cwd: dir,
    });
    if (run.code !== 0) throw new Error(`reference reports run ended ${run.code}: ${run.stderr}`);
    const files = new Map();
    for (const name of await readdir(out)) files.set(name, await readFile(join(out, name), "utf8"));
    return { files, requests: sandbox.requests.length };
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `users sync` of a 1,600-user roster (3 batches) with its state in PostgreSQL (`stateUrl`,
 * a fresh database), killed at `point`, then run again the way a user following its messages
 * would: plain runs; when one ends 8 naming held batches, the user checks the service (here:
 * whether the sandbox took an upload holding those users) and passes `--mark-imported <n>`
 * when it did, `--resend-ambiguous` when it did not (or always, with `resendAlways`). Converged: a `--plan` ends 0. Violations:
 * a user whose Add the service took twice, a user never imported, a run that does not end
 * 0 or 8, or no convergence within five runs.
 */
export async function syncKillPoint({ bin, startSandbox, point, stateUrl, resendAlways = false, sandboxOptions = {} }) {
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    rateLimits: { access: { limit: 10_000, windowMs: 1000 } },
    importStepMs: 20,
    ...sandboxOptions,
  });
  const relay = await startRelay(sandbox.baseUrl);
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-sync-"));
  const violations = [];
  const steps = [];
  const USERS = 1600;
  try {
    const rows = Array.from({ length: USERS }, (_, i) => `First${i + 1},Last${i + 1},p${i + 1}@example.com,Sales`);
    await writeFile(join(dir, "hr.csv"), `firstName,lastName,email,teamName\n${rows.join("\n")}\n`);
    const env = cleanEnv({
      SIMADMIN_BASE_URL: relay.baseUrl,
      SIMADMIN_API_KEY: sandbox.keys.full,
      SIMADMIN_ORG: sandbox.org,
      SIMADMIN_CONFIG_DIR: join(dir, "config"),
      SIMADMIN_STATE: stateUrl,
      XDG_CACHE_HOME: join(dir, "cache"),
    });
    const args = ["users", "sync", "hr.csv", "--yes", "-o", "json"];
    const first = await runCli(bin, args, { env, cwd: dir, relay, point });
    await relay.settle();
    steps.push(`first:${first.killed ? "killed" : `${first.code}${lastLine(first.stderr)}`}`);
    let last = first;
    let converged = false;
    for (let round = 0; round < 5 && !converged; round++) {
      let extra = ["--wait"];
      const held = /held batch (\d+) \(/.exec(last.stderr);
      if (last.code === 8 && held) {
        // What the message asks: check at the service whether the held users exist.
        const emails = [...last.stderr.matchAll(/held batch \d+ \([\d,]+ users? of the plan of \S+Z: ([^,)]+)/g)].map(
          (m) => m[1],
        );
        const received = emails.length > 0 && emails.every((e) => acceptedAdds(sandbox).has(e.trim()));
        // resendAlways: a user who sends them again without checking; the Adds the service
        // refuses as existing (a 400 naming all 750 rows) are then taken as done.
        extra = received && !resendAlways ? ["--mark-imported", held[1]] : ["--resend-ambiguous", "--wait"];
      }
      last = await runCli(bin, [...args, ...extra], { env, cwd: dir });
      steps.push(`${extra.join(" ")}:${last.code}`);
      if (![0, 8].includes(last.code)) violations.push(`re-run ended ${last.code}: ${last.stderr.trim().split("\n").pop()}`);
      if (last.code === 0) {
        const plan = await runCli(bin, ["users", "sync", "hr.csv", "--plan", "-o", "json"], { env, cwd: dir });
        steps.push(`--plan:${plan.code}`);
        converged = plan.code === 0;
        if (!converged && plan.code !== 12) violations.push(`--plan ended ${plan.code}`);
      }
    }
    if (!converged) violations.push("no convergence within five runs");
    const adds = acceptedAdds(sandbox);
    for (const [email, n] of adds) if (n > 1) violations.push(`${email} imported ${n} times`);
    const missing = rows.length - [...adds.keys()].length;
    if (missing > 0) violations.push(`${missing} users never imported`);
    return { point, reached: first.killed, steps, violations, imported: adds.size };
  } finally {
    await relay.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Each email an Add of which the sandbox took into an import task (its valid rows: an Add of
 * an existing user is rejected at upload), with how many times: more than once is a row
 * imported twice.
 */
function acceptedAdds(sandbox) {
  const counts = new Map();
  for (const task of sandbox.state.snapshot().tasks) {
    if (task.final === "FAILED") continue;
    for (const row of task.rows) if (row.action === "Add") counts.set(row.email, (counts.get(row.email) ?? 0) + 1);
  }
  return counts;
}

/** Rows per window of a `reports sync` database against its meta table: `kind window_start` → { rows, meta }. */
async function syncCounts(target) {
  const sql = [
    "SELECT 'meta' AS what, kind AS t, CAST(window_start AS VARCHAR) AS s, records AS n FROM simadmin_sync_windows",
    ...SYNC_TABLES.map(
      (t) =>
        `SELECT 'rows' AS what, '${t}' AS t, CAST(window_start AS VARCHAR) AS s, count(*) AS n FROM ${t} GROUP BY window_start`,
    ),
  ];
  const rows = await syncQuery(target, sql);
  const counts = new Map();
  for (const row of rows) {
    const key = `${row.t} ${row.s}`;
    const entry = counts.get(key) ?? { rows: 0, meta: undefined };
    if (row.what === "meta") entry.meta = Number(row.n);
    else entry.rows = Number(row.n);
    counts.set(key, entry);
  }
  return counts;
}

const SYNC_KINDS = ["user-results", "users"];
const SYNC_TABLES = SYNC_KINDS.map((k) => k.replace("-", "_"));

/** Each statement's rows; a table or the meta table not made yet has none. */
async function syncQuery(target, statements) {
  const rows = [];
  if (target.kind === "duckdb") {
    const { existsSync } = await import("node:fs");
    if (!existsSync(target.path)) return rows;
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const instance = await DuckDBInstance.create(target.path, { access_mode: "READ_ONLY" });
    const connection = await instance.connect();
    try {
      for (const sql of statements)
        rows.push(
          ...(await connection.runAndReadAll(sql).then(
            (r) => r.getRowObjectsJson(),
            () => [],
          )),
        );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    return rows;
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    for (const sql of statements)
      rows.push(
        ...(await client.query(sql).then(
          (r) => r.rows,
          () => [],
        )),
      );
  } finally {
    await client.end();
  }
  return rows;
}

/** Windows whose rows differ from their meta count (rows of a window the meta table does not name included). */
function countViolations(counts, when) {
  const out = [];
  for (const [key, { rows, meta }] of counts)
    if (rows !== (meta ?? 0)) out.push(`${when}: ${key} has ${rows} rows, meta says ${meta ?? "nothing"}`);
  return out;
}

function syncArgs(target, since) {
  const db = target.kind === "duckdb" ? target.path : target.url;
  return ["reports", "sync", "--db", db, "--kinds", SYNC_KINDS.join(","), "--since", since, "-o", "json"];
}

/** 90 days ending today (UTC): 4 fixed windows per kind, the last one open. */
export function syncSince() {
  return new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
}

/** The windows and counts of an uninterrupted `reports sync` (into `target`, as reportsSyncKillPoint's), and how many requests it made. */
export async function referenceSync({ bin, startSandbox, target: given, since }) {
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimits: ROOMY, reportRecordsPerDay: 5 });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-sync-"));
  const target = given.kind === "duckdb" ? { kind: "duckdb", path: join(dir, "reports.duckdb") } : given;
  try {
    const env = { ...reportEnv(sandbox, sandbox.baseUrl, dir), SIMADMIN_ORG: sandbox.org };
    const run = await runCli(bin, syncArgs(target, since), { env, cwd: dir });
    if (run.code !== 0) throw new Error(`reference reports sync ended ${run.code}: ${run.stderr}`);
    return { counts: await syncCounts(target), requests: sandbox.requests.length };
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `reports sync` of two kinds over 90 days (8 windows) into `target` (`{ kind: "duckdb" }`: a
 * file of its own; `{ kind: "postgres", url }`: a fresh database), killed at `point` — a window's load overlaps the next one's request,
 * so the kills land in every step: fetching, preparing, loading, committing. Checked right
 * after the kill and after the re-run: every window's rows equal its meta count (a window is
 * whole or absent); after the re-run, the same windows and counts as an uninterrupted run, no
 * spool file left behind.
 */
export async function reportsSyncKillPoint({ bin, startSandbox, point, target: given, reference, since }) {
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimits: ROOMY, reportRecordsPerDay: 5 });
  const relay = await startRelay(sandbox.baseUrl);
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-sync-"));
  const target = given.kind === "duckdb" ? { kind: "duckdb", path: join(dir, "reports.duckdb") } : given;
  const violations = [];
  try {
    const env = { ...reportEnv(sandbox, relay.baseUrl, dir), SIMADMIN_ORG: sandbox.org };
    const args = syncArgs(target, since);
    const first = await runCli(bin, args, { env, cwd: dir, relay, point });
    await relay.settle();
    violations.push(...countViolations(await syncCounts(target), "after the kill"));
    const again = await runCli(bin, args, { env, cwd: dir });
    if (again.code !== 0) violations.push(`re-run ended ${again.code}: ${again.stderr.trim().split("\n").pop()}`);
    const counts = await syncCounts(target);
    violations.push(...countViolations(counts, "after the re-run"));
    for (const [key, { meta }] of reference)
      if (counts.get(key)?.meta !== meta)
        violations.push(`${key}: ${counts.get(key)?.meta ?? "no"} records, uninterrupted ${meta}`);
    for (const key of counts.keys())
      if (!reference.has(key)) violations.push(`${key}: a window an uninterrupted run does not have`);
    const spool = join(dir, "config", "report-spool");
    const left = [];
    for (const sub of await readdir(spool).catch(() => [])) left.push(...(await readdir(join(spool, sub)).catch(() => [sub])));
    if (left.length > 0) violations.push(`spool left behind: ${left.join(", ")}`);
    return {
      point,
      reached: first.killed,
      steps: [`first:${first.killed ? "killed" : first.code}`, `again:${again.code}`],
      violations,
    };
  } finally {
    await relay.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The cohort of the `progress` and `progress notify` kill points: pairs of the sandbox's seeded
 * users that never complete (src/sandbox/progress-script.ts: emma's sim-004 and sim-005,
 * grace's sim-004, hugo's sim-003) and two completed before they are first asked (hugo's
 * sim-001, ben's sim-003), all due today, with each trainee's address and their manager's.
 * Notify sends five messages: emma (two pairs), grace and hugo a reminder each (step 0), dana
 * and sam a digest each.
 */
const COHORT = [
  ["user-emma", "sim-004", "emma@example.test", "dana@example.test"],
  ["user-emma", "sim-005", "emma@example.test", "dana@example.test"],
  ["user-grace", "sim-004", "grace@example.test", "dana@example.test"],
  ["user-hugo", "sim-003", "hugo@example.test", "sam@example.test"],
  ["user-hugo", "sim-001", "hugo@example.test", "sam@example.test"],
  ["user-ben", "sim-003", "ben@example.test", "sam@example.test"],
];
const COMPLETED = new Set(["user-hugo/sim-001", "user-ben/sim-003"]);
/** The messages an uninterrupted notify run sends, one per recipient. */
export const NOTIFY_RECIPIENTS = [
  "dana@example.test",
  "emma@example.test",
  "grace@example.test",
  "hugo@example.test",
  "sam@example.test",
];
/** The kill moments of one SMTP message: its MAIL FROM, its data read whole (no answer yet), its 250 written. */
export const SMTP_PHASES = ["smtp-mail", "smtp-data", "smtp-accepted"];

async function progressFixture(dir, startSandbox, stateUrl) {
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimits: ROOMY, scriptedAttemptStepMs: 3_600_000 });
  const relay = await startRelay(sandbox.baseUrl);
  const today = new Date().toISOString().slice(0, 10);
  await writeFile(
    join(dir, "cohort.csv"),
    `userId,simulationId,dueDate,email,managerEmail\n${COHORT.map(([u, s, e, m]) => [u, s, today, e, m].join(",")).join("\n")}\n`,
  );
  const env = cleanEnv({
    SIMADMIN_BASE_URL: relay.baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_ORG: sandbox.org,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
    SIMADMIN_STATE: stateUrl,
    XDG_CACHE_HOME: join(dir, "cache"),
  });
  return { sandbox, relay, env };
}

/** The entries of one kind in the PostgreSQL state store (docs/state.md). */
async function stateEntries(stateUrl, kind) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: stateUrl });
  await client.connect();
  try {
    const result = await client
      .query("SELECT key, value FROM simadmin_state.entries WHERE kind = $1", [kind])
      .catch(() => ({ rows: [] })); // no schema yet: killed before its first change
    return result.rows;
  } finally {
    await client.end();
  }
}

/** Violations of the progress cache: an entry not of its shape, or more than the completed pairs. */
async function cacheViolations(stateUrl, when) {
  const rows = await stateEntries(stateUrl, "progress-cache");
  const out = [];
  for (const { value } of rows) {
    const ok =
      value !== null &&
      typeof value === "object" &&
      typeof value.attempts === "number" &&
      typeof value.seenAt === "string" &&
      (value.completedAt === null || typeof value.completedAt === "string");
    if (!ok) out.push(`${when}: a cache entry of another shape`);
  }
  if (rows.length > COMPLETED.size) out.push(`${when}: ${rows.length} cached pairs, only ${COMPLETED.size} completed`);
  return { out, cached: rows.length };
}

/**
 * `progress` of six pairs with its completion cache in PostgreSQL (`stateUrl`, a fresh
 * database), killed at `point` (a completion-data request), then run again. Converged: the
 * re-run ends 0 with each pair's state as the sandbox has it (two completed, four not), the
 * cache holds exactly the two completed pairs, each entry whole, and a third run asks only the
 * four pairs not known completed.
 */
export async function progressKillPoint({ bin, startSandbox, point, stateUrl }) {
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-progress-"));
  const { sandbox, relay, env } = await progressFixture(dir, startSandbox, stateUrl);
  const violations = [];
  const steps = [];
  try {
    const args = ["progress", "--from-csv", "cohort.csv", "-o", "json"];
    const first = await runCli(bin, args, { env, cwd: dir, relay, point });
    await relay.settle();
    steps.push(`first:${first.killed ? "killed" : `${first.code}${lastLine(first.stderr)}`}`);
    violations.push(...(await cacheViolations(stateUrl, "after the kill")).out);
    const again = await runCli(bin, args, { env, cwd: dir });
    steps.push(`again:${again.code}`);
    if (again.code !== 0) violations.push(`re-run ended ${again.code}: ${again.stderr.trim().split("\n").pop()}`);
    else {
      for (const record of JSON.parse(again.stdout)) {
        const pair = `${record.userId}/${record.simulationId}`;
        if ((record.state === "completed") !== COMPLETED.has(pair)) violations.push(`${pair} shown ${record.state}`);
      }
    }
    const { out, cached } = await cacheViolations(stateUrl, "after the re-run");
    violations.push(...out);
    if (cached !== COMPLETED.size) violations.push(`the cache holds ${cached} pairs, not the ${COMPLETED.size} completed`);
    const before = sandbox.requests.length;
    const third = await runCli(bin, args, { env, cwd: dir });
    const asked = sandbox.requests.slice(before).filter((q) => q.path.endsWith("/completion-data")).length;
    steps.push(`third:${third.code} (${asked} asked)`);
    if (asked !== COHORT.length - COMPLETED.size)
      violations.push(`a third run asked ${asked} pairs, not the ${COHORT.length - COMPLETED.size} not known completed`);
    return { point, reached: first.killed, steps, violations };
  } finally {
    await relay.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A plain SMTP sink on loopback (no TLS, no AUTH) that counts each message it takes per
 * recipient and can call `onKill` at one moment of the n-th message (SMTP_PHASES). Shaped as
 * a relay for runCli: arm() / disarm().
 */
async function startKillSink() {
  const { SMTPServer } = await import("smtp-server");
  const delivered = new Map();
  // Recipients whose transaction reached DATA at this server (MAIL FROM, RCPT TO, DATA taken):
  // only such a message may be left ambiguous by a kill.
  const begun = new Set();
  let armed;
  let messages = 0;
  const fire = (n, phase) => {
    if (armed && armed.request === n && armed.phase === phase) {
      const { onKill } = armed;
      armed = undefined;
      onKill();
    }
  };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    disableReverseLookup: true,
    onMailFrom(_address, _session, callback) {
      fire(messages + 1, "smtp-mail");
      callback();
    },
    onData(stream, session, callback) {
      const n = ++messages;
      for (const to of session.envelope.rcptTo) begun.add(to.address);
      stream.on("data", () => {});
      stream.on("end", () => {
        // Read whole: the server has the message (counted as delivered, the worst case for
        // doubles) whether or not its answer reaches the killed client.
        for (const to of session.envelope.rcptTo) delivered.set(to.address, (delivered.get(to.address) ?? 0) + 1);
        fire(n, "smtp-data");
        callback(null, "queued");
        setImmediate(() => fire(n, "smtp-accepted"));
      });
    },
  });
  // A client killed mid-session resets its connection: expected here, not a failure of the sink.
  server.on("error", () => undefined);
  await new Promise((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    delivered,
    begun,
    arm(point) {
      armed = point;
      messages = 0;
    },
    disarm() {
      armed = undefined;
    },
    close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
  };
}

/**
 * `progress notify` of the cohort (five messages, --digest) with its ledger in PostgreSQL,
 * killed at `point`: a completion-data request at one of PHASES, or the n-th SMTP message at
 * one of SMTP_PHASES (one connection, so messages go one after the other). Then run again, and
 * a --plan. Converged: the re-run ends 0, the --plan ends 0, no recipient got a message twice,
 * and every message never delivered is either sent by the re-run or named ambiguous by it
 * (none lost in silence); a message named ambiguous was begun at the sink (its transaction
 * reached DATA there: one never begun is sent by the re-run, not named); the progress cache
 * holds the two completed pairs, whole. `ambiguous` counts the messages the re-run named,
 * `unsentAmbiguous` those of them that never arrived (cut off mid-transaction: they wait for
 * --resend-ambiguous), `unbegunAmbiguous` those never begun (each a violation).
 */
export async function notifyKillPoint({ bin, startSandbox, point, stateUrl, connections = 1 }) {
  const dir = await mkdtemp(join(tmpdir(), "simadmin-kill-notify-"));
  const { sandbox, relay, env } = await progressFixture(dir, startSandbox, stateUrl);
  const sink = await startKillSink();
  const violations = [];
  const steps = [];
  try {
    const args = ["progress", "notify", "--from-csv", "cohort.csv", "--digest", "managerEmail", "-o", "json"];
    const send = [
      ...args,
      "--smtp",
      sink.url,
      "--from",
      "training@example.test",
      "--connections",
      String(connections),
      "--rate",
      "0",
    ];
    const killer = point.phase.startsWith("smtp-") ? sink : relay;
    const first = await runCli(bin, send, { env, cwd: dir, relay: killer, point });
    await relay.settle();
    steps.push(`first:${first.killed ? "killed" : `${first.code}${lastLine(first.stderr)}`}`);
    const afterKill = new Map(sink.delivered);
    const begunAtKill = new Set(sink.begun);
    const again = await runCli(bin, send, { env, cwd: dir });
    steps.push(`again:${again.code}`);
    let records = [];
    if (again.code !== 0) violations.push(`re-run ended ${again.code}: ${again.stderr.trim().split("\n").pop()}`);
    else records = JSON.parse(again.stdout);
    const named = new Set(records.filter((r) => r.status === "ambiguous").map((r) => r.recipient));
    const plan = await runCli(bin, [...args, "--plan"], { env, cwd: dir });
    steps.push(`--plan:${plan.code}`);
    if (plan.code !== 0) violations.push(`--plan ended ${plan.code}`);
    for (const [to, n] of sink.delivered) if (n > 1) violations.push(`${to} got ${n} messages`);
    for (const to of NOTIFY_RECIPIENTS) {
      if (!sink.delivered.has(to) && !named.has(to)) violations.push(`${to} never got its message and it was not named`);
      if (named.has(to) && !begunAtKill.has(to)) violations.push(`${to} named ambiguous, but its transaction never began`);
      // The re-run sends nothing the killed run handed over: that is what "named" is for.
      if (afterKill.has(to) && records.some((r) => r.recipient === to && r.status === "sent"))
        violations.push(`${to} sent again by the re-run`);
    }
    const { out, cached } = await cacheViolations(stateUrl, "after the re-run");
    violations.push(...out);
    if (cached !== COMPLETED.size) violations.push(`the cache holds ${cached} pairs, not the ${COMPLETED.size} completed`);
    const unsentAmbiguous = [...named].filter((to) => !sink.delivered.has(to)).length;
    const unbegunAmbiguous = [...named].filter((to) => !begunAtKill.has(to)).length;
    return { point, reached: first.killed, steps, violations, ambiguous: named.size, unsentAmbiguous, unbegunAmbiguous };
  } finally {
    await sink.close();
    await relay.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}
