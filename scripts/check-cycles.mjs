#!/usr/bin/env node
// `npm run check`: no import cycle among src/ files (issue 27 item 2), counting every edge —
// static imports, `import type`, re-exports and dynamic `import()` — since a cycle through a
// lazy import or a shared type still ties two modules into one unit. Prints each cycle found
// (as a path of files) and exits 1; prints the module count and exits 0 otherwise.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const files = walk(src);
const known = new Set(files);
/** @type {Map<string, string[]>} */
const graph = new Map();
for (const file of files) {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const targets = info.importedFiles
    .map((ref) => ref.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => resolve(dirname(file), name).replace(/\.js$/, ".ts"))
    .filter((target) => known.has(target));
  graph.set(file, [...new Set(targets)]);
}

// Tarjan's strongly connected components: every component of more than one file (or a file
// importing itself) is a cycle.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function connect(file) {
  const node = { index, low: index, onStack: true };
  index++;
  state.set(file, node);
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    const seen = state.get(next);
    if (!seen) {
      connect(next);
      node.low = Math.min(node.low, state.get(next).low);
    } else if (seen.onStack) node.low = Math.min(node.low, seen.index);
  }
  if (node.low === node.index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component);
  }
}
for (const file of files) if (!state.has(file)) connect(file);

if (cycles.length > 0) {
  for (const component of cycles) {
    console.error(`import cycle: ${component.map((f) => relative(root, f)).join(" ↔ ")}`);
  }
  console.error(`${cycles.length} import cycle(s) in src/; move the shared part down a layer (README, Architecture)`);
  process.exit(1);
}
console.log(`no import cycles among ${files.length} modules of src/ (static, type and dynamic imports)`);
