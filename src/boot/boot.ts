import { readFileSync, statSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { userCacheDir } from "./cache-dir.js";
import { codeCacheFile, MAX_COMMANDS, privateDir, readCodeCache, writeCodeCache } from "./code-cache.js";

// bin/simadmin.js → start(argv) → dist/bundle/cli.cjs's run(argv), loaded with the code V8
// compiled for it on an earlier run (docs/architecture.md, Start-up), through vm.Script's
// cachedData, on every Node; on Node 22.1+ Node's own compile cache (module.enableCompileCache)
// keeps the vendor files' code. Both in the user's own cache directory; without one, the
// bundle loads as any module does.

type Run = (argv: string[]) => Promise<number>;

// boot.cjs and cli.cjs lie side by side in dist/bundle/.
const CLI = join(__dirname, "cli.cjs");
const requireCli = (): { run: Run } => createRequire(CLI)(CLI) as { run: Run };

interface CompileCacheModule {
  enableCompileCache?: (dir: string) => unknown;
}

export function start(argv: string[]): Promise<number> {
  return loadCli(argv).run(argv);
}

/**
 * The command a run is for, as the code cache names it: the first word of argv that looks
 * like one (a global flag's value may pass for one too: it only costs one more save).
 */
function commandOf(argv: readonly string[]): string {
  return argv.find((word) => /^[a-z][a-z0-9-]{0,31}$/.test(word)) ?? "-";
}

function loadCli(argv: readonly string[]): { run: Run } {
  let dir: string | undefined;
  try {
    dir = userCacheDir(process.env, process.platform, homedir());
  } catch {
    // No home directory: run without a cache.
  }
  // Node 22.1+: Node's own compile cache, for the files required later (dist/bundle/vendor/).
  // Not for cli.cjs: Node saves a module's code as compiled when it was loaded (its top level,
  // 360 KB), not what its run compiled afterwards; the code cache below, saved after the run,
  // holds that too (`config list` 70 → 57 ms of CPU on Node 22, 77 → 68 on 24).
  const nodeCache = (Module as unknown as CompileCacheModule).enableCompileCache;
  if (typeof nodeCache === "function") {
    const compileDir = dir && join(dir, "compile-cache");
    if (compileDir && privateDir(compileDir)) nodeCache(compileDir);
  }
  const codeDir = dir && join(dir, "code-cache");
  return codeDir && privateDir(codeDir) ? loadWithCodeCache(codeDir, commandOf(argv)) : requireCli();
}

/**
 * cli.cjs compiled as Node compiles a CommonJS module, with the cached code when it fits.
 * The code is saved after a run when there was none that fit, and again after the first run
 * of each command the saved code was not made by (V8 compiles a function when it first runs:
 * a cache saved after `token` lacks what `reports` runs), so every command a user runs
 * starts from compiled code, at the cost of one save per command and build.
 */
function loadWithCodeCache(dir: string, command: string): { run: Run } {
  // The build made it ASCII (scripts/bundle.mjs), so latin1 reads the same text without decoding UTF-8.
  const source = readFileSync(CLI, "latin1");
  const stat = statSync(CLI);
  // What the cached code was made from: this very file (a new version or build replaces it).
  const key = `${stat.size} ${stat.mtimeMs} ${stat.ino} ${process.version} ${process.arch}`;
  const file = codeCacheFile(dir);
  const cached = readCodeCache(file, key);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: CLI,
    lineOffset: -1,
    cachedData: cached?.payload,
  });
  const fits = cached !== undefined && script.cachedDataRejected !== true;
  const known = fits ? cached.commands : [];
  if (!fits || (!known.includes(command) && known.length < MAX_COMMANDS)) {
    // After the run, so that the functions it compiled are in the cache too (with those of
    // the code it was given, which stay compiled).
    process.once("exit", () => writeCodeCache(file, key, script.createCachedData(), [...known, command]));
  }
  const cli = new Module(CLI, module);
  cli.filename = CLI;
  createRequire(CLI).cache[CLI] = cli;
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(cli.exports, cli.exports, createRequire(CLI), cli, CLI, dirname(CLI));
  cli.loaded = true;
  return cli.exports as { run: Run };
}
