#!/usr/bin/env node
// Bundles src/main.ts and its dependencies into dist/bundle/ for bin/simadmin.js (issue 8,
// start-up). `token` otherwise loads ~120 module files, 96 of them zod's; Node pays per file
// for resolution, reading and compiling, so fewer, larger files start faster. The tsc build
// in dist/ stays as it is: tests and benchmarks import its modules one by one.
//
//   npm run build   (tsc, then this script)
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/bundle`;
const minify = process.argv.includes("--minify");

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: "src/main.ts" },
  outdir,
  bundle: true,
  // Each lazy `import()` of a command stays a chunk of its own, so `--help` loads only the
  // entry chunk and what it imports statically (commander).
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  // A native addon (.node files per platform) cannot be bundled: loaded from node_modules.
  external: ["@napi-rs/keyring"],
  // CommonJS dependencies (commander, cli-table3, …) call require() for Node built-ins,
  // which an ES module does not have; every chunk gets one. The names cannot clash: ES
  // modules have no `require` binding of their own, and esbuild's helpers are `__`-prefixed
  // words (`__require`, `__toESM`), never `__cr`.
  banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  // Identifiers stay readable so that a --verbose stack trace still names the function.
  // Whitespace/syntax minification was measured to make no difference to start-up.
  minifyWhitespace: minify,
  minifySyntax: minify,
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
});
