#!/usr/bin/env node
// `npm run bench` (after the build): every bench/*.mjs except this file, one after the
// other, each in its own Node process so that none warms the module cache or the JIT for the
// next. Output is forwarded as it comes; the exit code is non-zero if any benchmark failed.
// At the end, every goal line the benchmarks printed ("GOAL …": a ratio measured in that
// run, wall and CPU, with and without NODE_EXTRA_CA_CERTS where the bench runs both) is
// repeated in one summary, with the load average at the start and at the end.
//
//   node bench/run.mjs [name …]      e.g. `node bench/run.mjs startup` runs bench/startup.mjs only
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).map((name) => name.replace(/\.mjs$/, ""));

const benches = readdirSync(here)
  .filter((file) => file.endsWith(".mjs") && file !== self)
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace(/\.mjs$/, "")))
  .sort();

if (benches.length === 0) {
  console.error(`bench: nothing to run${wanted.length ? ` for ${wanted.join(", ")}` : ""}`);
  process.exit(2);
}

const goals = [];
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

function runOne(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, file)], { stdio: ["inherit", "pipe", "inherit"] });
    let partial = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text) => {
      process.stdout.write(text);
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (line.trimStart().startsWith("GOAL ")) goals.push(line.trim().slice(5));
    });
    // A last line without a line break still counts.
    child.stdout.on("end", () => partial.trimStart().startsWith("GOAL ") && goals.push(partial.trim().slice(5)));
    child.on("error", (error) => resolve({ code: 1, error }));
    // "close", not "exit": after the last of its output has been read.
    child.on("close", (code, signal) => resolve({ code: code ?? 1, signal }));
  });
}

const failed = [];
const loadAtStart = load();
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const started = performance.now();
  const { code, signal, error } = await runOne(file);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code === 0) {
    console.log(`=== bench/${file}: done in ${seconds} s ===`);
  } else {
    failed.push(file);
    console.log(
      `=== bench/${file}: FAILED (${error ? error.message : signal ? `signal ${signal}` : `exit ${code}`}) after ${seconds} s ===`,
    );
  }
}
if (goals.length > 0) {
  console.log(`\nGoals (Node ${process.version}; load average ${loadAtStart} at the start, ${load()} at the end):`);
  for (const goal of goals) console.log(`  ${goal}`);
}
if (failed.length > 0) {
  console.log(`\nbench: ${failed.length} of ${benches.length} failed: ${failed.join(", ")}`);
  process.exitCode = 1;
}
