#!/usr/bin/env node
// Bundles src/ for bin/simadmin.js into dist/bundle/ (docs/architecture.md, Start-up), in two halves:
//
// - main.cjs: src/main.ts and everything it imports statically — commander, the program
//   built from the command declarations, errors, sanitising — as ONE CommonJS file. A
//   CommonJS entry starts without Node's ES module loader, and `simadmin --help` or
//   `--version` never needs it: measured 1.42× → 1.27× `node -e 0` for `--help`.
// - everything main.ts (or a declaration's `load`) imports dynamically — the runner, each
//   command's module, and what they import — as ES modules with code splitting: a run loads
//   the chunks of the command it runs, nothing else.
//
// Each half has its own copy of the few modules both use (errors.ts, sanitize.ts, the
// declarations). They are data and stateless functions, with one exception that the code
// respects: error classes are checked on the side that threw them (src/report-error.ts).
// First, every module of src/ is transpiled on its own to dist/ (dist/main.js, dist/domain/…):
// tests and benchmarks import those one by one. esbuild only strips the types — tsconfig's
// isolatedModules and verbatimModuleSyntax make that exactly what tsc would emit — in well
// under a second where `tsc` took 6–10 s of every `npm test`; the type check is
// `npm run check` (tsc --noEmit), which CI runs too.
//
//   npm run build   (this script)
import { readdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/bundle`;
const src = `${root}src`;

/** "src/commands/token/token.ts" → "commands/token/token": its name in dist/bundle/. */
const entryName = (path) => relative(src, path).replace(/\.ts$/, "");

// What main.cjs imports dynamically: each becomes an entry of the ES module half, at the
// path main.cjs asks for (the file's place under src/, with .js).
const lazyEntries = new Map();
const lazyImports = {
  name: "lazy-imports",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== "dynamic-import" || args.pluginData === "lazy-imports") return undefined;
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "lazy-imports",
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      // A package (the OS keychain's native addon) is loaded from node_modules as it is.
      if (!resolved.path.startsWith(`${src}/`)) return { path: args.path, external: true };
      const name = entryName(resolved.path);
      lazyEntries.set(name, resolved.path);
      return { path: `./${name}.js`, external: true };
    });
  },
};

// commander requires node:child_process at load time, for executable subcommands, which
// simadmin does not have; loading it (and net, dgram, … behind it) cost every start-up.
// Commander gets it on first use instead — never, here.
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: "child_process", namespace: "lazy" } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: "lazy" }, () => ({
      contents:
        'let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] });',
      loader: "js",
    }));
  },
};

// exceljs's zip writer (archiver-utils' normalizeInputSource) and a few other old packages
// call `new Buffer(…)`, and Node prints "[DEP0005] DeprecationWarning: Buffer()" on stderr
// for it — even with -q, on every xlsx a cron job writes (issue 21) — because, bundled,
// that code no longer lives under node_modules, where Node stays silent. The call is
// rewritten to what it means on Node >= 8 (a number: zero-filled bytes; else the bytes of
// the value), which is what the packages get at run time anyway.
const LEGACY_BUFFER = '(function (a, b, c) { return typeof a === "number" ? Buffer.alloc(a) : Buffer.from(a, b, c); })(';
const noLegacyBuffer = {
  name: "no-legacy-buffer",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, async (args) => {
      const contents = await readFile(args.path, "utf8");
      if (!/\bnew Buffer\(/.test(contents)) return undefined;
      return { contents: contents.replace(/\bnew Buffer\(/g, LEGACY_BUFFER), loader: "js" };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => `src/${file}`),
  outdir: `${root}dist`,
  outbase: "src",
  bundle: false,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20",
  // Identifiers stay readable so that a --verbose stack trace still names the function.
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: ["src/main.ts"],
  outfile: `${outdir}/main.cjs`,
  format: "cjs",
  // package-root.ts finds package.json from its own file's URL.
  define: { "import.meta.url": "__mainUrl" },
  banner: { js: 'const __mainUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [lazyImports, lazyChildProcess],
});

await build({
  ...common,
  entryPoints: Object.fromEntries(lazyEntries),
  outdir,
  format: "esm",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  // A native addon (.node files per platform) cannot be bundled: loaded from node_modules.
  // DuckDB's binding is one too; pg is left to node_modules as well (its optional pg-native).
  external: ["@napi-rs/keyring", "@duckdb/node-api", "pg"],
  plugins: [noLegacyBuffer],
  // CommonJS dependencies (cli-table3, exceljs, …) call require() for Node built-ins, which
  // an ES module does not have; every chunk gets one. The names cannot clash: ES modules
  // have no `require` binding of their own, and esbuild's helpers are `__`-prefixed words
  // (`__require`, `__toESM`), never `__cr`.
  banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
});
