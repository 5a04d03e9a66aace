#!/usr/bin/env node
// Sums a V8 CPU profile's (`node --cpu-prof`) self time per function and per file, so that
// two profiles — the CLI's and its bare baseline's (bench/exports.mjs --cpu-prof) — can be
// compared: `node bench/parts/profile-summary.mjs file.cpuprofile [--top 30]`.
import { readFileSync } from "node:fs";

const [file] = process.argv.slice(2);
const at = process.argv.indexOf("--top");
const top = at > 0 ? Number(process.argv[at + 1]) : 30;
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
}
const byFunction = new Map();
const byFile = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const where = callFrame.url.replace(/^.*\/(node_modules|dist|src)\//, "$1/") || "(native)";
  const name = `${callFrame.functionName || "(anonymous)"} ${where}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  byFile.set(where, (byFile.get(where) ?? 0) + us);
  total += us;
}
const print = (title, map) => {
  console.log(`${title} (total ${(total / 1e3).toFixed(0)} ms)`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${(us / 1e3).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
};
print("self time by function", byFunction);
print("self time by file", byFile);
