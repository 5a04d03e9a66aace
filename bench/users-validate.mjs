#!/usr/bin/env node
// Benchmark for issue 7: validating a users CSV must cost at most 1.5× bare csv-parse
// parsing of the same file (measured in the same run, in this process), and as the user runs
// it — `simadmin users import <file> --dry-run`, a whole process — at most 1.2× a bare
// process parsing the file with csv-parse, at 100k and 1M rows; and validating 1,000,000 rows must
// stay under 150 MiB peak RSS. Issue 14: validating the same rows from a UTF-16LE file
// (Excel's "Unicode Text": BOM, tab-separated, CRLF) must cost at most 2× the UTF-8 file.
//
//   npm run build && node bench/users-validate.mjs [--rows 100000] [--big-rows 1000000] [--rounds 5]
//
// The baseline streams the same file through csv-parse with the very options the
// validator uses (usersCsvParseOptions) and only counts records: what reading the file with
// that library costs. simadmin's reader splits simple lines itself and leaves the other
// records to csv-parse (docs/architecture.md, "Reading CSV"), so its ratios can be below 1. Both sides run in pairs,
// back to back, for several rounds (which side goes first alternates); the reported ratio
// is the median of the pairs' ratios, so that a neighbour loading a shared machine for a
// while shifts both sides of a pair rather than the result. CPU time is printed as well,
// being nearly immune to such neighbours. Memory is measured in a child process, so that
// this process's own heap does not count.
import { spawn } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse";
import { generateUsersCsv } from "../fixtures/users/generate.mjs";
import { goalLine } from "./lib.mjs";

const DIST = new URL("../dist/domain/users-csv/", import.meta.url);
const BIN = fileURLToPath(new URL("../bin/simadmin.js", import.meta.url));
const BARE_PARSE = fileURLToPath(new URL("baselines/users-csv-parse.mjs", import.meta.url));
const COMMAND_RATIO_TARGET = 1.2;
const CA_CERTS =
  process.env.NODE_EXTRA_CA_CERTS ??
  (existsSync("/etc/ssl/certs/ca-certificates.crt") ? "/etc/ssl/certs/ca-certificates.crt" : undefined);
// Preloaded (`node -r`) into each measured process: its CPU time (ms) on stderr as it exits.
const CPU_PRELOAD = `process.on("exit", () => { const u = process.resourceUsage(); require("node:fs").writeSync(2, "\\nBENCH_CPU_MS=" + (u.userCPUTime + u.systemCPUTime) / 1000 + "\\n"); });`;
const RATIO_TARGET = 1.5;
const RSS_TARGET_MIB = 150;
const UTF16_RATIO_TARGET = 2;

async function loadDomain() {
  const csv = await import(new URL("validate.js", DIST).href);
  const batches = await import(new URL("batches.js", DIST).href);
  return { ...csv, ...batches };
}

function label(rows) {
  return rows % 1_000_000 === 0 ? `${rows / 1_000_000}M` : rows % 1000 === 0 ? `${rows / 1000}k` : String(rows);
}

async function timeBareParse(file, options) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let records = 0;
  await new Promise((resolve, reject) => {
    const input = createReadStream(file);
    const parser = parse(options);
    input.on("error", reject);
    parser.on("error", reject);
    parser.on("data", () => records++);
    parser.on("end", resolve);
    input.pipe(parser);
  });
  return { ms: performance.now() - start, cpuMs: cpuMs(cpu), records };
}

function cpuMs(since) {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

async function timeValidate(domain, file) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const summary = await domain.validateUsersCsv(createReadStream(file));
  return { ms: performance.now() - start, cpuMs: cpuMs(cpu), summary };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs in a child: validate (and optionally batch) a file, report peak RSS as JSON. */
async function child(mode, file) {
  const domain = await loadDomain();
  const start = performance.now();
  const summary = await domain.validateUsersCsv(createReadStream(file));
  let batches = 0;
  if (mode === "batches") {
    for await (const _ of domain.batchUserRows(domain.readValidUserRows(createReadStream(file), summary))) batches++;
  }
  const ms = performance.now() - start;
  process.stdout.write(
    JSON.stringify({ ms, validRows: summary.validRows, batches, maxRssKiB: process.resourceUsage().maxRSS }) + "\n",
  );
}

function runChild(mode, file) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), "--child", mode, file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (d) => (out += d));
    proc.on("error", reject);
    proc.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`))));
  });
}

/** One process to its end: wall ms and CPU ms (from the preload). */
function timeProcess(args, env, preload) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const proc = spawn(process.execPath, ["-r", preload, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    proc.stderr.on("data", (d) => (err += d));
    proc.on("error", reject);
    proc.on("close", (code) => {
      const ms = performance.now() - start;
      const cpu = /BENCH_CPU_MS=([\d.]+)/.exec(err);
      if (code !== 0) reject(new Error(`${args.join(" ")} exited ${code}: ${err.trim().slice(0, 400)}`));
      else resolve({ ms, cpuMs: cpu ? Number(cpu[1]) : NaN });
    });
  });
}

/**
 * `simadmin users import <file> --dry-run --skip-invalid` (read, validate, plan; nothing sent)
 * as a whole process, against a bare process parsing the same file with csv-parse: pairs back
 * to back, which goes first alternating; the median of the pairs' ratios.
 */
async function wholeCommand(file, rows, dir, rounds, log, ca) {
  const preload = join(dir, "cpu.cjs");
  await writeFile(preload, CPU_PRELOAD);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SIMADMIN_CONFIG_DIR: join(dir, "config"),
    XDG_CACHE_HOME: join(dir, "cache"),
    ...(ca ? { NODE_EXTRA_CA_CERTS: ca } : {}),
  };
  const cli = () => timeProcess([BIN, "users", "import", file, "--dry-run", "--skip-invalid", "-q"], env, preload);
  const bare = () => timeProcess([BARE_PARSE, file], env, preload);
  await cli(); // warm-up: file cache, and the CLI's code cache
  await bare();
  const pairs = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? await cli() : await bare();
    const second = round % 2 === 0 ? await bare() : await cli();
    pairs.push(round % 2 === 0 ? { cli: first, bare: second } : { cli: second, bare: first });
  }
  const ratio = median(pairs.map((p) => p.cli.ms / p.bare.ms));
  const cpuRatio = median(pairs.map((p) => p.cli.cpuMs / p.bare.cpuMs));
  log(
    `users import --dry-run ${label(rows)} (whole process, ${ca ? "with" : "without"} NODE_EXTRA_CA_CERTS): ` +
      `csv-parse ${median(pairs.map((p) => p.bare.ms)).toFixed(0)} ms, ` +
      `simadmin ${median(pairs.map((p) => p.cli.ms)).toFixed(0)} ms, ratio ${ratio.toFixed(2)} ` +
      `(target <= ${COMMAND_RATIO_TARGET}; median of ${rounds} pairs); cpu ratio ${cpuRatio.toFixed(2)} ` +
      `(${median(pairs.map((p) => p.cli.cpuMs)).toFixed(0)} vs ${median(pairs.map((p) => p.bare.cpuMs)).toFixed(0)} ms); ` +
      `load ${loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")}`,
  );
  const name = `users import --dry-run ${label(rows)} vs bare csv-parse (Node ${process.version})`;
  log(goalLine({ name, ca: Boolean(ca), ratio, cpu: cpuRatio, target: COMMAND_RATIO_TARGET }));
  return ratio;
}

/**
 * Runs the benchmark and prints one line per measurement. Returns the figures and whether
 * every target was met.
 */
export async function main(options = {}) {
  const { rows = 100_000, bigRows = 1_000_000, rounds = 5, log = console.log } = options;
  const domain = await loadDomain();
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-users-"));
  try {
    const file = join(dir, `users-${rows}.csv`);
    await generateUsersCsv(rows, file, { invalidEvery: 1000 });
    const parseOptions = domain.usersCsvParseOptions(",");

    // Warm-up: JIT and file cache.
    await timeBareParse(file, parseOptions);
    await timeValidate(domain, file);
    const pairs = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first, so neither always gets the warmer machine.
      let bare;
      let validate;
      if (round % 2 === 0) {
        bare = await timeBareParse(file, parseOptions);
        validate = await timeValidate(domain, file);
      } else {
        validate = await timeValidate(domain, file);
        bare = await timeBareParse(file, parseOptions);
      }
      pairs.push({ bare, validate });
    }
    const ratio = median(pairs.map((p) => p.validate.ms / p.bare.ms));
    const cpuRatio = median(pairs.map((p) => p.validate.cpuMs / p.bare.cpuMs));
    const bareMs = median(pairs.map((p) => p.bare.ms));
    const validateMs = median(pairs.map((p) => p.validate.ms));
    log(
      `users-validate ${label(rows)}: csv-parse ${bareMs.toFixed(0)} ms, validate ${validateMs.toFixed(0)} ms, ` +
        `ratio ${ratio.toFixed(2)} (target <= ${RATIO_TARGET}; median of ${rounds} back-to-back pairs)`,
    );
    log(
      `users-validate ${label(rows)} cpu: csv-parse ${median(pairs.map((p) => p.bare.cpuMs)).toFixed(0)} ms, ` +
        `validate ${median(pairs.map((p) => p.validate.cpuMs)).toFixed(0)} ms, ratio ${cpuRatio.toFixed(2)}`,
    );

    // The same rows as Excel's "Unicode Text" writes them. Generated values hold no comma,
    // tab or quote, so swapping the delimiter needs no quoting.
    const utf16 = join(dir, `users-${rows}-utf16.txt`);
    const text = (await readFile(file, "utf8")).replaceAll(",", "\t").replaceAll("\n", "\r\n");
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    await timeValidate(domain, utf16);
    const utfPairs = [];
    for (let round = 0; round < rounds; round++) {
      let utf8;
      let wide;
      if (round % 2 === 0) {
        utf8 = await timeValidate(domain, file);
        wide = await timeValidate(domain, utf16);
      } else {
        wide = await timeValidate(domain, utf16);
        utf8 = await timeValidate(domain, file);
      }
      if (wide.summary.validRows !== utf8.summary.validRows || wide.summary.encoding !== "utf-16le") {
        throw new Error(
          `the UTF-16 file did not validate like the UTF-8 one (${wide.summary.encoding}, ${wide.summary.validRows} rows)`,
        );
      }
      utfPairs.push({ utf8, wide });
    }
    const utf16Ratio = median(utfPairs.map((p) => p.wide.ms / p.utf8.ms));
    const utf16CpuRatio = median(utfPairs.map((p) => p.wide.cpuMs / p.utf8.cpuMs));
    log(
      `users-validate ${label(rows)} UTF-16LE (tabs, CRLF): utf-8 ${median(utfPairs.map((p) => p.utf8.ms)).toFixed(0)} ms, ` +
        `utf-16 ${median(utfPairs.map((p) => p.wide.ms)).toFixed(0)} ms, ratio ${utf16Ratio.toFixed(2)} ` +
        `(target <= ${UTF16_RATIO_TARGET}; median of ${rounds} back-to-back pairs); cpu ratio ${utf16CpuRatio.toFixed(2)}`,
    );
    // Without NODE_EXTRA_CA_CERTS, then with it (these machines set it: ~44 ms more per Node start).
    const commandRatio = await wholeCommand(file, rows, dir, rounds, log, undefined);
    const commandRatioCa = CA_CERTS ? await wholeCommand(file, rows, dir, rounds, log, CA_CERTS) : commandRatio;
    await rm(file);
    await rm(utf16);

    const big = join(dir, `users-${bigRows}.csv`);
    await generateUsersCsv(bigRows, big, { invalidEvery: 1000 });
    const bigCommandRatio = await wholeCommand(big, bigRows, dir, Math.min(rounds, 3), log, undefined);
    const bigCommandRatioCa = CA_CERTS
      ? await wholeCommand(big, bigRows, dir, Math.min(rounds, 3), log, CA_CERTS)
      : bigCommandRatio;
    const v = await runChild("validate", big);
    const rssMiB = v.maxRssKiB / 1024;
    log(
      `users-validate ${label(bigRows)}: peak RSS ${rssMiB.toFixed(1)} MiB, validate ${v.ms.toFixed(0)} ms, ` +
        `${v.validRows} valid rows (target < ${RSS_TARGET_MIB} MiB)`,
    );
    const b = await runChild("batches", big);
    const batchRssMiB = b.maxRssKiB / 1024;
    log(
      `users-validate ${label(bigRows)} + pass 2 into ${b.batches} batches: peak RSS ${batchRssMiB.toFixed(1)} MiB, ` +
        `${b.ms.toFixed(0)} ms (target < ${RSS_TARGET_MIB} MiB)`,
    );
    const ok =
      ratio <= RATIO_TARGET &&
      utf16Ratio <= UTF16_RATIO_TARGET &&
      rssMiB < RSS_TARGET_MIB &&
      batchRssMiB < RSS_TARGET_MIB &&
      Math.max(commandRatio, commandRatioCa, bigCommandRatio, bigCommandRatioCa) <= COMMAND_RATIO_TARGET;
    return { ok, ratio, cpuRatio, utf16Ratio, bareMs, validateMs, rssMiB, batchRssMiB, commandRatio, bigCommandRatio };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args[0] === "--child") {
    await child(args[1], args[2]);
  } else {
    const num = (name, fallback) => {
      const at = args.indexOf(name);
      return at >= 0 ? Number(args[at + 1]) : fallback;
    };
    const result = await main({
      rows: num("--rows", 100_000),
      bigRows: num("--big-rows", 1_000_000),
      rounds: num("--rounds", 5),
    });
    if (!result.ok) process.exitCode = 1;
  }
}
