#!/usr/bin/env node
// @ts-nocheck
// Thin launcher: all logic lives in dist/bundle/main.cjs (src/main.ts bundled by
// scripts/bundle.mjs); only the exit code is set here. CommonJS (bin/package.json), like
// main.cjs: `simadmin --help` then starts without Node's ES module loader (README, Start-up).
"use strict";

// Node 22.1+ keeps compiled code between runs (faster start-up); absent on Node 20, and then
// this line does nothing. It must run before main.cjs loads.
require("node:module").enableCompileCache?.();
require("../dist/bundle/main.cjs")
  .run(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
