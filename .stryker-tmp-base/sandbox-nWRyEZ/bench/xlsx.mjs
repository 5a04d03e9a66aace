// @ts-nocheck
// Benchmark of `-o xlsx` (issue 14), run by `npm run bench` after the build.
//
// 1. Time: 100,000 report records (40 days × 2,500 a day) exported by the CLI with
//    `-o xlsx --out` and with `-o csv --out`, three runs each, alternating; median wall
//    time. Target: xlsx ≤ 4 × csv. The same records are also pushed through the output
//    engine in this process (no HTTP, no window files), which isolates the writers' cost.
// 2. Memory: a 1,000,000-record xlsx export (400 days × 2,500) — peak resident memory of the
//    CLI process. Target < 250 MiB.
//
//   node bench/xlsx.mjs [time|memory]

import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { DAY_MS, distModule, fail, isoDay, rangeEndingYesterday, runCli, withSandbox as withSandboxOf } from "./lib.mjs";

const { generateReport } = await distModule("sandbox", "reports.js");
const { createRecordWriter } = await distModule("output", "record-stream.js");
const { writeChunk } = await distModule("output", "io.js");

const PER_DAY = 2_500;

/** A sandbox of 2,500 records a day with the limits out of the way: this measures writing. */
const withSandbox = (body) =>
  withSandboxOf(
    { reportRecordsPerDay: PER_DAY, rateLimits: { reports: { limit: 1000, windowMs: 1000 } } },
    { SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" },
    body,
  );

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const only = process.argv[2];

// --- 1. xlsx vs csv time ---------------------------------------------------------------------
if (only === undefined || only === "time")
  await withSandbox(async ({ dir, env }) => {
    const { from, to } = rangeEndingYesterday(40);
    const times = { csv: [], xlsx: [] };
    for (let run = 0; run < 3; run++) {
      for (const format of ["csv", "xlsx"]) {
        const out = join(dir, `user-results.${format}`);
        const result = await runCli(
          ["reports", "user-results", "--from", from, "--to", to, "-o", format, "--out", out, "-q"],
          env,
        );
        if (result.code !== 0) fail(`${format} export exited ${result.code}: ${result.stderr.trim()}`);
        times[format].push(result.seconds);
        await rm(out, { force: true });
      }
    }
    const cliRatio = median(times.xlsx) / median(times.csv);
    console.log(
      `CLI export of 100,000 records: csv ${median(times.csv).toFixed(2)} s, xlsx ${median(times.xlsx).toFixed(2)} s ` +
        `(median of 3): ${cliRatio.toFixed(2)}x (target <= 4)`,
    );
    if (cliRatio > 4) fail(`xlsx/csv ratio ${cliRatio.toFixed(2)} above 4`);

    // The same records through the writers alone.
    const records = [];
    for (let day = Date.parse(`${from}T00:00:00Z`); records.length < 100_000; day += DAY_MS) {
      records.push(...generateReport("user-results", isoDay(day), isoDay(day), 2, PER_DAY));
    }
    records.length = 100_000;
    const engine = { csv: [], xlsx: [] };
    for (let run = 0; run < 3; run++) {
      for (const format of ["csv", "xlsx"]) {
        const path = join(dir, `engine.${format}`);
        const stream = createWriteStream(path);
        const started = performance.now();
        const writer = createRecordWriter({ toTerminal: false, write: (chunk) => writeChunk(stream, chunk) }, { format });
        for (let i = 0; i < records.length; i += PER_DAY) await writer.writeBatch(records.slice(i, i + PER_DAY));
        await writer.end();
        await new Promise((done) => stream.end(done));
        engine[format].push((performance.now() - started) / 1000);
        await rm(path, { force: true });
      }
    }
    const engineRatio = median(engine.xlsx) / median(engine.csv);
    console.log(
      `engine alone, same records: csv ${median(engine.csv).toFixed(2)} s, xlsx ${median(engine.xlsx).toFixed(2)} s ` +
        `(median of 3): ${engineRatio.toFixed(2)}x`,
    );
  });

// --- 2. memory of a million-record workbook --------------------------------------------------
if (only === undefined || only === "memory")
  await withSandbox(async ({ dir, env }) => {
    const { from, to } = rangeEndingYesterday(400);
    const out = join(dir, "user-results.xlsx");
    const result = await runCli(["reports", "user-results", "--from", from, "--to", to, "--out", out, "-q"], env, {
      maxRss: true,
    });
    const size = await stat(out)
      .then((s) => s.size)
      .catch(() => 0);
    const rss = result.maxRssMiB;
    console.log(
      `reports xlsx ${(400 * PER_DAY).toLocaleString("en")} records: ${result.seconds.toFixed(1)} s, ` +
        `${(size / 2 ** 20).toFixed(0)} MiB written, peak RSS ${rss === undefined ? "?" : rss.toFixed(0)} MiB (target < 250 MiB)`,
    );
    if (result.code !== 0) fail(`xlsx export exited ${result.code}: ${result.stderr.trim()}`);
    if (rss === undefined || rss >= 250) fail(`peak RSS ${rss?.toFixed(0)} MiB for xlsx`);
  });
