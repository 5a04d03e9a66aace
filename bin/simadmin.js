#!/usr/bin/env node
// Thin launcher: all logic lives in dist/main.js; only the exit code is set here.
import { run } from "../dist/main.js";

process.exitCode = await run(process.argv.slice(2));
