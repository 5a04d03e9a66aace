// Per-module mutation scores of one or two Stryker JSON reports (docs/mutation-testing.md):
//   node scripts/mutation-compare.mjs reports/mutation/mutation.json            # one run
//   node scripts/mutation-compare.mjs before/mutation.json after/mutation.json  # before → after
// Score = (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker counts
// it; ignored (static) and compile-error mutants are left out.
import { readFileSync } from "node:fs";

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

function scores(path) {
  const report = JSON.parse(readFileSync(path, "utf8"));
  const byFile = new Map();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const s = { detected: 0, undetected: 0 };
    for (const m of mutants) {
      if (DETECTED.has(m.status)) s.detected++;
      else if (UNDETECTED.has(m.status)) s.undetected++;
    }
    byFile.set(file.replace(/^.*?(src\/)/, "$1"), s);
  }
  return byFile;
}

const pct = (s) => (s && s.detected + s.undetected > 0 ? (100 * s.detected) / (s.detected + s.undetected) : NaN);
const fmt = (n) => (Number.isNaN(n) ? "   —  " : `${n.toFixed(1).padStart(5)} %`);
const total = (m) =>
  [...m.values()].reduce((a, s) => ({ detected: a.detected + s.detected, undetected: a.undetected + s.undetected }), {
    detected: 0,
    undetected: 0,
  });

const [first, second] = process.argv.slice(2);
if (!first) {
  console.error("usage: node scripts/mutation-compare.mjs <mutation.json> [<after mutation.json>]");
  process.exit(2);
}
const before = scores(first);
const after = second ? scores(second) : undefined;
const files = [...new Set([...before.keys(), ...(after?.keys() ?? [])])].sort();
const width = Math.max(...files.map((f) => f.length), 6);
console.log(`${"module".padEnd(width)}  mutants  ${after ? "before    after" : "score"}`);
for (const f of [...files, "all"]) {
  const b = f === "all" ? total(before) : before.get(f);
  const a = after && (f === "all" ? total(after) : after.get(f));
  const n = a ?? b;
  const count = n ? n.detected + n.undetected : 0;
  console.log(`${f.padEnd(width)}  ${String(count).padStart(7)}  ${fmt(pct(b))}${after ? `  ${fmt(pct(a))}` : ""}`);
}
