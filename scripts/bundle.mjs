#!/usr/bin/env node
// Bundles src/ for bin/simadmin.js into dist/bundle/ (docs/architecture.md, Start-up):
//
// - cli.cjs: src/main.ts and everything it imports, statically or with import() — commander,
//   every command, the client, zod — as ONE minified CommonJS file. One file means one copy
//   of every module: an error class thrown by a command is the class report-error.ts checks
//   (two bundle halves each had their own copy). What a run does not reach stays behind
//   esbuild's lazy module wrappers and is parsed, never run.
// - vendor/<package>.cjs: each package src/ loads with import() (exceljs, ora, cli-table3,
//   JMESPath): optional features, loaded by require() on first use, kept out of the file
//   every start reads.
// - boot.cjs: src/boot/ — finds the user's code cache and loads cli.cjs with it.
// - help.txt: `simadmin --help` as the program prints it at 80 columns; bin/simadmin.js
//   answers `--help` (and `--version`, from package.json) without loading anything else.
//
// The packages of package.json's "dependencies" (native addons, and pg for pg-native) are
// required from node_modules as they are. No import() is left in cli.cjs: boot.cjs compiles
// it with vm.Script on Node 20 (for its code cache), where import() needs a module loader.
//
// First, every module of src/ is transpiled on its own to dist/ (dist/main.js, dist/domain/…):
// tests and benchmarks import those one by one. esbuild only strips the types — tsconfig's
// isolatedModules and verbatimModuleSyntax make that exactly what tsc would emit — in well
// under a second where `tsc` took 6–10 s of every `npm test`; the type check is
// `npm run check` (tsc --noEmit), which CI runs too.
//
//   npm run build   (this script)
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/bundle`;
const { dependencies } = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
const installed = new Set(Object.keys(dependencies));

/** "@scope/name/sub" → "@scope/name"; "name/sub" → "name". */
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
const isBuiltin = (specifier) => specifier.startsWith("node:") || builtinModules.includes(specifier);
/** "@jmespath-community/jmespath" → "vendor/jmespath-community-jmespath.cjs" */
const vendorFile = (specifier) => `vendor/${specifier.replace(/^@/, "").replace(/[^\w.-]+/g, "-")}.cjs`;

// import() of what is not src/: a Node built-in or an installed dependency becomes require()
// of it, a bundled package require() of its vendor file. Each is a small CommonJS module that
// esbuild wraps like any other, so `await import("exceljs")` still gets the namespace.
const vendors = new Map();
const requireInstead = {
  name: "require-instead-of-import",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      if (isBuiltin(args.path) || installed.has(packageOf(args.path))) {
        return { path: args.path, namespace: "require", pluginData: args.path };
      }
      vendors.set(vendorFile(args.path), args.path);
      return { path: args.path, namespace: "require", pluginData: `./${vendorFile(args.path)}` };
    });
    pluginBuild.onResolve({ filter: /.*/, namespace: "require" }, (args) => ({ path: args.path, external: true }));
    pluginBuild.onLoad({ filter: /.*/, namespace: "require" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.pluginData)});`,
      loader: "js",
    }));
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

// Modules of src/ that hold zod schemas reached by every command that sends a request (the
// settings, the service's answers): their checks are made by hand first (settings/values.ts,
// api/endpoints.ts), and the schema is needed only for what those do not take — to say what is
// wrong. In the bundle such a module runs, and zod with it, on the first use of one of its
// exports instead of when a module importing it starts: an ES import of it becomes a property
// read of a CommonJS module (`import_schema.BaseUrl`), and that module is a Proxy that requires
// the real one on its first read. Its export names are known here, at build time, so that
// esbuild's namespace copy lists them without loading it. Tests import dist/ one module at a
// time, where nothing is lazy (docs/architecture.md, Start-up).
const LAZY_MODULES = new Set(["src/settings/schema.ts", "src/api/schemas.ts"].map((file) => `${root}${file}`));

async function exportNames(file) {
  const result = await build({
    entryPoints: [file],
    bundle: false,
    write: false,
    metafile: true,
    format: "esm",
    logLevel: "warning",
  });
  return Object.values(result.metafile.outputs)[0].exports;
}

const lazyModules = {
  name: "lazy-modules",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.{1,2}\/.*\.js$/ }, (args) => {
      if (args.namespace === "lazy-module" || !args.importer.startsWith(`${root}src`)) return undefined;
      const file = join(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
      return LAZY_MODULES.has(file) ? { path: file, namespace: "lazy-module" } : undefined;
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: "lazy-module" }, async (args) => ({
      contents: `const names = ${JSON.stringify(await exportNames(args.path))};
let real;
const load = () => (real ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy({}, {
  get: (_, key) => (key === "__esModule" ? true : load()[key]),
  has: (_, key) => names.includes(key),
  ownKeys: () => names,
  getOwnPropertyDescriptor: (_, key) => (names.includes(key) ? { configurable: true, enumerable: true, writable: false, value: undefined } : undefined),
});
`,
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

// exceljs's zip writer (archiver-utils' normalizeInputSource) and a few other old packages
// call `new Buffer(…)`, and Node prints "[DEP0005] DeprecationWarning: Buffer()" on stderr
// for it — even with -q, on every xlsx a cron job writes — because, bundled, that code no
// longer lives under node_modules, where Node stays silent. The call is rewritten to what it
// means on Node >= 8 (a number: zero-filled bytes; else the bytes of the value), which is
// what the packages get at run time anyway.
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

// The Node built-ins every start has loaded before the first line of simadmin runs: requiring
// them costs nothing, and the hot loops of exports call into fs directly.
const LOADED_AT_START = new Set([
  "events",
  "buffer",
  "path",
  "querystring",
  "async_hooks",
  "timers",
  "util",
  "fs",
  "url",
  "module",
]);
// Every other built-in cli.cjs requires is loaded on first use instead of when the module that
// names it starts: esbuild runs each bundled module's imports when the module is first reached,
// so `simadmin token` loaded node:crypto, fs/promises, readline, zlib… for modules it reaches
// but whose functions it never calls. An import of a built-in is compiled to
// `(0, import_node_crypto.randomBytes)(…)`, a property read at the call, so a Proxy that
// requires the module on its first read keeps every import exact; whatever lists its keys
// (a namespace copy, a destructuring `require`) loads it at once, as before.
const LAZY_REQUIRE = `const __lazyRequire = (id) => {
  let real;
  const load = () => (real ??= require(id));
  return new Proxy({}, {
    get: (_, key) => (key === "__esModule" ? undefined : load()[key]),
    has: (_, key) => key in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(load(), key);
      return found && { ...found, configurable: true };
    },
  });
};
`;

// A module that is itself a function (node:assert, node:stream) is called or extended: a
// Proxy of a plain object cannot be, so those load as before.
const requireHere = createRequire(import.meta.url);
const isCallable = (name) => typeof requireHere(`node:${name}`) === "function";

/** Rewrites `require("node:crypto")` (and `require("crypto")`) in `file` to `__lazyRequire(…)`. */
function lazyBuiltins(file) {
  const bytes = readFileSync(file);
  // The bundle is ASCII (esbuild escapes the rest), so boot.ts may read it as latin1: a copy
  // of the bytes, no UTF-8 decoding, on every start.
  if (!bytes.every((byte) => byte < 0x80)) throw new Error(`${file} is not ASCII: boot.ts reads it as latin1`);
  const text = bytes.toString("latin1");
  let count = 0;
  const rewritten = text.replace(/\brequire\("((?:node:)?([a-z_/]+))"\)/g, (call, id, name) => {
    if (!builtinModules.includes(name) || LOADED_AT_START.has(name) || isCallable(name)) return call;
    count++;
    return `__lazyRequire(${JSON.stringify(id)})`;
  });
  if (count === 0) throw new Error(`${file}: no built-in require() found to make lazy`);
  // After the "use strict" directive (if any), before the first use.
  const at = rewritten.startsWith('"use strict";') ? '"use strict";'.length : 0;
  writeFileSync(file, `${rewritten.slice(0, at)}${LAZY_REQUIRE}${rewritten.slice(at)}`);
}

rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: readdirSync(`${root}src`, { recursive: true, encoding: "utf8" })
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
  format: "cjs",
  // Whitespace and syntax only: identifiers stay, so a --verbose stack trace still names the
  // function. Less to read and to parse on every start.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
  external: [...installed],
  plugins: [noLegacyBuffer],
};

const cli = await build({
  ...common,
  entryPoints: ["src/main.ts"],
  outfile: `${outdir}/cli.cjs`,
  metafile: true,
  // package-root.ts finds package.json from its own file's URL.
  define: { "import.meta.url": "__mainUrl" },
  // zod compiles a parser per object schema with new Function on its first parse (after a
  // probe that new Function works): worth it for a server parsing millions of objects, pure
  // cost for a run that parses a few (settings, flags, one answer), and simadmin parses no
  // bulk data with zod. Its documented global settings, set before its first module runs.
  banner: {
    js: 'const __mainUrl = require("node:url").pathToFileURL(__filename).href; globalThis.__zod_globalConfig ??= { jitless: true };',
  },
  plugins: [lazyModules, requireInstead, lazyChildProcess, noLegacyBuffer],
});
lazyBuiltins(`${outdir}/cli.cjs`);
for (const [file, output] of Object.entries(cli.metafile.outputs)) {
  const left = output.imports.filter((entry) => entry.kind === "dynamic-import");
  if (left.length > 0) throw new Error(`${file} still has import(): ${left.map((entry) => entry.path).join(", ")}`);
}

await Promise.all(
  [...vendors].map(([file, specifier]) =>
    build({
      ...common,
      stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: root },
      outfile: `${outdir}/${file}`,
    }),
  ),
);

await build({ ...common, entryPoints: ["src/boot/boot.ts"], outfile: `${outdir}/boot.cjs` });

// `simadmin --help` as the program prints it for a pipe or a terminal of 80 columns or more.
const { run } = createRequire(import.meta.url)(`${outdir}/cli.cjs`);
let help = "";
const sink = { write: (text) => ((help += text), true) };
const code = await run(["--help"], {
  io: { stdout: sink, stderr: sink, columns: undefined, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
  env: {},
  clock: { now: () => Date.now() },
  signal: new AbortController().signal,
});
if (code !== 0 || !help.startsWith("Usage:")) throw new Error(`--help printed no help (exit ${code}):\n${help}`);
writeFileSync(`${outdir}/help.txt`, help);
