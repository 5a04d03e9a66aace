#!/usr/bin/env node
// Thin launcher: all logic lives in dist/bundle/main.js (src/main.ts bundled with its
// dependencies by scripts/bundle.mjs, which starts faster than dist/main.js's ~120 module
// files); only the exit code is set here.
import module from "node:module";

// Node 22.1+ keeps compiled code between runs (faster start-up); absent on Node 20, and then
// this line does nothing. It must run before main.js loads, hence the dynamic import.
module.enableCompileCache?.();
const { run } = await import("../dist/bundle/main.js");
process.exitCode = await run(process.argv.slice(2));
