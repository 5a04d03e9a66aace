#!/usr/bin/env node
// Sums what test/cpu-probe.ts recorded: CPU seconds per test file (its worker's and its reaped
// children's), per directory, and the files that cost most (docs/development.md, "How long the
// suite takes"):
//
//   SIMADMIN_TEST_CPU=/tmp/cpu.jsonl npm test
//   node scripts/test-cpu.mjs /tmp/cpu.jsonl [how many files to list, 30]
import { readFileSync } from "node:fs";

const [path, top = "30"] = process.argv.slice(2);
if (!path) {
  console.error("usage: node scripts/test-cpu.mjs <file written under SIMADMIN_TEST_CPU> [files to list]");
  process.exit(2);
}
const lines = readFileSync(path, "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));
// PostgreSQL's servers, detached by pg_ctl, are no test process's children: their CPU is
// written when each is stopped (test/helpers/postgres-cluster.ts), apart from the files'.
const servers = lines.filter((r) => r.server !== undefined);
const rows = lines
  .filter((r) => r.server === undefined)
  .map((r) => ({ ...r, file: r.file.slice(r.file.lastIndexOf("/test/") + 1), total: r.worker + r.children }));
const sum = (list, key) => list.reduce((s, r) => s + r[key], 0);
const fixed = (n) => n.toFixed(1).padStart(6);
console.log(
  `${rows.length} files: ${fixed(sum(rows, "total"))} s CPU (workers ${fixed(sum(rows, "worker"))}, children ${fixed(sum(rows, "children"))})`,
);
const lastOfWorker = new Map(rows.map((r) => [r.pid, r.process]));
const workers = [...lastOfWorker.values()].reduce((s, n) => s + n, 0);
console.log(
  `${lastOfWorker.size} workers: ${fixed(workers)} s CPU, of which ${fixed(workers - sum(rows, "worker"))} s outside the files (start-up, imports)`,
);
if (servers.length > 0)
  console.log(
    `${String(servers.length).padStart(3)} PostgreSQL servers: ${fixed(servers.reduce((s, r) => s + r.seconds, 0))} s CPU (server and backends; the shared one ${fixed(servers.filter((r) => r.server === "postgres shared").reduce((s, r) => s + r.seconds, 0))} s)`,
  );
const dirs = new Map();
for (const r of rows) {
  const dir = r.file.split("/").slice(0, 2).join("/");
  dirs.set(dir, [...(dirs.get(dir) ?? []), r]);
}
for (const [dir, list] of [...dirs].sort((a, b) => sum(b[1], "total") - sum(a[1], "total")))
  console.log(
    `${dir.padEnd(12)} ${String(list.length).padStart(3)} files ${fixed(sum(list, "total"))} s (workers ${fixed(sum(list, "worker"))}, children ${fixed(sum(list, "children"))})`,
  );
console.log("\n  total  worker children   wall  file");
for (const r of rows.sort((a, b) => b.total - a.total).slice(0, Number(top)))
  console.log(`${fixed(r.total)}  ${fixed(r.worker)}  ${fixed(r.children)}  ${fixed(r.wall)}  ${r.file}`);
