// How close `reports sync` loads to the databases' own bulk loaders (docs/reports-sync.md,
// Figures; docs/cli-contract.md, Warehouse rules). For each size (BENCH_SIZES, default
// 100000,1000000 records of user-results over 400 days), on the same records, measured in
// the same run, in alternation:
//
// - DuckDB: `CREATE TABLE … AS SELECT r.*, o.json AS raw FROM read_json_auto(f) r POSITIONAL
//   JOIN read_ndjson_objects(f) o` on an NDJSON file of the records (DuckDB's own reader with
//   a raw column) against the whole `simadmin reports sync --db file.duckdb` (fetching from a
//   sandbox included). Goal ≤ 2.0×.
// - PostgreSQL (a private server, when installed): `psql -c "\copy t FROM f.csv CSV"` of the
//   same records flattened to the same columns plus raw, against the whole sync into it.
//   Goal ≤ 1.5×.
// - Peak RSS of the sync process: ≤ 200 MiB at 1 M records, and flat from 100 k to 1 M.
//
// BENCH_TARGETS=duckdb (or postgres) measures one target only.
//
// What the sync's time holds: the whole process (start-up, fetching over HTTP, the spool, the
// load, DuckDB's checkpoint at close), but not the making of the answers — the report server
// runs in its own process (report-replay.mjs) and serves answers it generated during one
// untimed warm-up sync, as a real service would serve them: otherwise the sandbox generating
// the JSON on the same two cores would be counted as the tool's time.

import { spawn, spawnSync } from "node:child_process";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { DAY_MS, distModule, fail, isoDay, runCli } from "../lib.mjs";

const DAYS = 400;
const SIZES = (process.env.BENCH_SIZES ?? "100000,1000000").split(",").map(Number);
/** Pairs (baseline, sync) per target and size, in alternation; the best of each is compared. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** BENCH_TARGETS=duckdb (or postgres) measures one target only. */
const TARGETS = (process.env.BENCH_TARGETS ?? "duckdb,postgres").split(",");
const RATE = "reports=100000/1s,access=1000/1s";

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A private PostgreSQL (Debian's binaries), as test/helpers/postgres.ts starts one; undefined when not installed. */
async function startPostgres() {
  const bin = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"].find(
    (dir) => spawnSync(join(dir, "initdb"), ["--version"]).status === 0,
  );
  if (!bin) return undefined;
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
    await chown(dir, id("-u"), id("-g"));
  }
  await chmod(dir, 0o700);
  const exec = (args) => {
    const command = asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args;
    const result = spawnSync(command[0], command.slice(1), { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${args[0]}: ${result.stderr}`);
  };
  const port = await freePort();
  const data = join(dir, "data");
  exec([join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "simadmin", "--no-sync", "-E", "UTF8"]);
  exec([
    join(bin, "pg_ctl"),
    "-D",
    data,
    "-l",
    join(dir, "log"),
    "-w",
    "-o",
    `-k ${dir} -p ${port} -h 127.0.0.1 -c fsync=off -c full_page_writes=off`,
    "start",
  ]);
  return {
    url: (db) => `postgres://simadmin@127.0.0.1:${port}/${db}`,
    port,
    // psql is a client: it runs as this user, connecting as the cluster's trusted role.
    psql: (args) =>
      spawnSync(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-U", "simadmin", "-v", "ON_ERROR_STOP=1", ...args], {
        encoding: "utf8",
      }),
    stop: async () => {
      exec([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The report server (report-replay.mjs) in its own process, and the settings that reach it in
 * a temporary directory, for the length of `body`.
 */
async function withReplay(options, body) {
  const child = spawn(process.execPath, [fileURLToPath(new URL("report-replay.mjs", import.meta.url)), JSON.stringify(options)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const server = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve(JSON.parse(text.split("\n")[0]));
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the report server exited ${code}`)));
  });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-"));
  const env = {
    SIMADMIN_BASE_URL: server.baseUrl,
    SIMADMIN_API_KEY: server.key,
    SIMADMIN_ORG: server.org,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
  };
  try {
    return await body({ dir, env });
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

/** The records the sandbox serves for the range, as NDJSON (report data is a pure function of kind, date and index). */
async function writeRecords(file, since, until, perDay) {
  const { generateReport } = await distModule("sandbox", "reports.js");
  const out = createWriteStream(file);
  let count = 0;
  for (let day = Date.parse(since); day <= Date.parse(until); day += 30 * DAY_MS) {
    const end = Math.min(day + 29 * DAY_MS, Date.parse(until));
    for (const record of generateReport("user-results", isoDay(day), isoDay(end), 2, perDay)) {
      if (!out.write(`${JSON.stringify(record)}\n`)) await new Promise((resolve) => out.once("drain", resolve));
      count++;
    }
  }
  await new Promise((resolve) => out.end(resolve));
  return count;
}

/**
 * DuckDB's own load in a fresh process (its defaults: all memory and cores it wants), timed as
 * the sync is, like with like: from opening the database file to closing it — the close
 * checkpoints the load into the file, as the sync's close does (without it the rows would
 * still be waiting in the write-ahead log, work the sync's time counts). Only Node's own
 * start and the import of DuckDB's binding are left out (a user's `duckdb file -c …` has
 * neither), so the baseline is never slower than DuckDB alone. Wall and CPU seconds (every
 * thread) of that stretch.
 */
function duckDbBaseline(dir, file, csv) {
  const script = `
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const path = ${JSON.stringify(join(dir, `baseline-${Date.now()}.duckdb`))};
    const started = performance.now();
    const cpu = process.cpuUsage();
    const instance = await DuckDBInstance.create(path);
    const c = await instance.connect();
    await c.run("CREATE TABLE b AS SELECT r.*, o.json AS raw FROM read_json_auto('${file}') r POSITIONAL JOIN read_ndjson_objects('${file}') o");
    c.closeSync();
    instance.closeSync();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    ${csv ? `const again = await DuckDBInstance.create(path); const d = await again.connect(); await d.run("COPY b TO '${csv}' (HEADER false)"); const cols = (await d.runAndReadAll("SELECT column_name FROM information_schema.columns WHERE table_name = 'b' ORDER BY ordinal_position")).getRows().map((r) => r[0]); console.log(JSON.stringify({ seconds, cpuSeconds, cols }));` : "console.log(JSON.stringify({ seconds, cpuSeconds }));"}
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", cwd: process.cwd() });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout.trim().split("\n").pop());
}

const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

for (const size of SIZES) {
  const perDay = Math.max(1, Math.round(size / DAYS));
  await withReplay(
    { reportRecordsPerDay: perDay, rateLimits: { reports: { limit: 100000, windowMs: 1000 } } },
    async ({ dir, env }) => {
      const since = isoDay(Date.now() - (DAYS - 1) * DAY_MS);
      const today = isoDay(Date.now());
      const file = join(dir, "records.ndjson");
      const csv = join(dir, "records.csv");
      const records = await writeRecords(file, since, today, perDay);
      const runEnv = { ...env, SIMADMIN_RATE_LIMITS: RATE };
      const sync = (db) =>
        runCli(["reports", "sync", "--db", db, "--kinds", "user-results", "--since", since, "-q", "-o", "json"], runEnv, {
          maxRss: true,
        });

      // The warm-up: the report server keeps every answer this sync asks for.
      const warm = await sync(join(dir, "warm-up.duckdb"));
      if (warm.code !== 0) return fail(`warm-up sync exited ${warm.code}: ${warm.stderr.trim()}`);
      await rm(join(dir, "warm-up.duckdb"), { force: true });

      // DuckDB, in alternation: baseline, sync, baseline, sync.
      const duck = { base: [], sync: [], rss: [], baseCpu: [], syncCpu: [] };
      let columns = [];
      for (let round = 0; round < (TARGETS.includes("duckdb") ? ROUNDS : 0); round++) {
        const base = duckDbBaseline(dir, file, round === 0 ? csv : undefined);
        if (base.cols) columns = base.cols;
        duck.base.push(base.seconds);
        duck.baseCpu.push(base.cpuSeconds);
        const result = await sync(join(dir, `sync-${round}.duckdb`));
        if (result.code !== 0) return fail(`sync into DuckDB exited ${result.code}: ${result.stderr.trim()}`);
        duck.sync.push(result.seconds);
        duck.syncCpu.push(result.cpuSeconds);
        duck.rss.push(result.maxRssMiB);
      }
      const best = (list) => Math.min(...list);
      // On a shared machine the wall ratio moves with the load; CPU time (every thread) much less.
      if (duck.sync.length > 0)
        console.log(
          `reports sync ${records.toLocaleString("en")} records into DuckDB: ${best(duck.sync).toFixed(1)} s against read_json_auto with raw ${best(duck.base).toFixed(1)} s = ${ratio(best(duck.sync), best(duck.base))} (goal ≤ 2.0×); ` +
            `CPU ${best(duck.syncCpu).toFixed(1)} s / ${best(duck.baseCpu).toFixed(1)} s = ${ratio(best(duck.syncCpu), best(duck.baseCpu))}; peak RSS ${Math.max(...duck.rss).toFixed(0)} MiB; load average ${loadavg()[0].toFixed(1)}`,
        );

      if (!TARGETS.includes("postgres")) return undefined;
      // PostgreSQL's table has the columns DuckDB's own reader finds, its CSV DuckDB's export.
      if (columns.length === 0) columns = duckDbBaseline(dir, file, csv).cols;
      const pg = await startPostgres();
      if (!pg) return console.log("PostgreSQL not installed: its part skipped");
      try {
        const pgRuns = { base: [], sync: [], rss: [], syncCpu: [] };
        for (let round = 0; round < ROUNDS; round++) {
          const db = `b${round}`;
          pg.psql(["-d", "postgres", "-c", `CREATE DATABASE ${db}`]);
          const table = `CREATE TABLE b (${columns.map((c) => `"${c}" ${c === "raw" ? "jsonb" : "text"}`).join(", ")})`;
          pg.psql(["-d", db, "-c", table]);
          const started = performance.now();
          const copied = pg.psql(["-d", db, "-c", `\\copy b FROM '${csv}' CSV`]);
          if (copied.status !== 0) return fail(`psql \\copy: ${copied.stderr}`);
          pgRuns.base.push((performance.now() - started) / 1000);
          const result = await sync(pg.url(db));
          if (result.code !== 0) return fail(`sync into PostgreSQL exited ${result.code}: ${result.stderr.trim()}`);
          pgRuns.sync.push(result.seconds);
          pgRuns.syncCpu.push(result.cpuSeconds);
          pgRuns.rss.push(result.maxRssMiB);
        }
        console.log(
          `reports sync ${records.toLocaleString("en")} records into PostgreSQL: ${best(pgRuns.sync).toFixed(1)} s against psql \\copy ${best(pgRuns.base).toFixed(1)} s = ${ratio(best(pgRuns.sync), best(pgRuns.base))} (goal ≤ 1.5×); ` +
            `the sync's own CPU ${best(pgRuns.syncCpu).toFixed(1)} s (the server's not counted); peak RSS ${Math.max(...pgRuns.rss).toFixed(0)} MiB; load average ${loadavg()[0].toFixed(1)}`,
        );
      } finally {
        await pg.stop();
      }
    },
  );
}
