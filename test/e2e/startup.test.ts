import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import Module from "node:module";
import { join, relative, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, binaryEnv, cleanEnv, runBinary, startSandboxWithSettings, tempDir } from "../helpers/cli.js";

// What the process loads to start (README, Start-up): the benchmark (bench/startup.mjs)
// measures the time, this checks the design that makes it, with no clock involved.
// `--help` and `--version` are answered by bin/simadmin.js alone; everything else loads
// boot.cjs and the one CommonJS bundle, cli.cjs — no ES module evaluated, no child_process. Node's own modules are compared with what an empty CommonJS script loads, on the
// same Node: which of its internals start-up loads differs between majors.

const ROOT = resolve(import.meta.dirname, "../..");

interface Loaded {
  /** Package files required through CommonJS, relative to the package root. */
  files: string[];
  /** Node's own modules that were loaded ("NativeModule child_process", …). */
  natives: string[];
  /** Whether zod was run. */
  zod: boolean;
}

/** Node's internal module that sets up `import.meta`: loaded once an ES module is evaluated. */
const ES_MODULE_EVALUATED = "NativeModule internal/modules/esm/initialize_import_meta";

let dir: { path: string; remove(): Promise<void> };
let preload: string;
/** What `node -r preload empty.cjs` loads of Node's own modules. */
let baseline: Set<string>;

beforeAll(async () => {
  dir = await tempDir("simadmin-startup-");
  preload = join(dir.path, "record.cjs");
  // Runs before bin/simadmin.js and writes down, on exit, what the process loaded.
  await writeFile(
    preload,
    // zod's first module leaves its registry on globalThis: whether zod ran at all.
    `process.on("exit", () => require("node:fs").writeFileSync(process.env.RECORD_TO, JSON.stringify({ files: Object.keys(require.cache), natives: process.moduleLoadList, zod: "__zod_globalRegistry" in globalThis })));`,
  );
  const empty = join(dir.path, "empty.cjs");
  await writeFile(empty, "");
  baseline = new Set((await record([empty])).natives);
});
afterAll(async () => {
  await dir.remove();
});

async function record(argv: string[], env: Record<string, string> = {}): Promise<Loaded & { exitCode: number }> {
  const recordTo = join(dir.path, "loaded.json");
  // From the code earlier runs saved, as a user's second run (binaryEnv): what start-up loads
  // is the same either way, and a run compiling the whole bundle costs ~0.06 s of CPU more.
  // The cold and damaged caches are "the code cache" tests' below.
  const result = await execa(process.execPath, ["-r", preload, ...argv], {
    env: binaryEnv({ ...env, RECORD_TO: recordTo }),
    extendEnv: false,
    reject: false,
  });
  const raw = JSON.parse(await readFile(recordTo, "utf8")) as Loaded;
  return { exitCode: result.exitCode ?? -1, ...raw };
}

/** The package files and Node modules `simadmin <args>` loads beyond an empty script. */
async function loadedBy(args: string[], env: Record<string, string> = {}): Promise<Loaded & { exitCode: number }> {
  const loaded = await record([BIN, ...args], env);
  return {
    exitCode: loaded.exitCode,
    files: loaded.files.filter((file) => file !== preload).map((file) => relative(ROOT, file)),
    natives: loaded.natives.filter((name) => !baseline.has(name)),
    zod: loaded.zod,
  };
}

describe("start-up", () => {
  it.each([[["--help"]], [["-h"]], [["--version"]], [["-V"]]])(
    "`simadmin %s` is answered by bin/simadmin.js alone: the bundle is not loaded",
    async (args) => {
      const loaded = await loadedBy(args);
      expect(loaded.exitCode).toBe(0);
      expect(loaded.files).toEqual(["bin/simadmin.js"]);
      expect(loaded.natives).not.toContain(ES_MODULE_EVALUATED);
      expect(loaded.natives).not.toContain("NativeModule child_process");
    },
  );

  it("`simadmin --help` prints what the whole program prints for `simadmin help`", async () => {
    const fast = await runBinary(["--help"]);
    const program = await runBinary(["help"]);
    expect(program.exitCode).toBe(0);
    expect(fast.exitCode).toBe(0);
    expect(fast.stdout).toBe(program.stdout);
    expect(fast.stdout).toMatch(/^Usage: simadmin /);
  });

  it("`simadmin --version` prints package.json's version", async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect((await runBinary(["--version"])).stdout).toBe(`${version}\n`);
  });

  it.each([[["help", "reports"]], [["auth", "--help"]], [["config", "path"]]])(
    "`simadmin %s` loads the one CommonJS bundle, without an ES module or child_process",
    async (args) => {
      const loaded = await loadedBy(args, { SIMADMIN_CONFIG_DIR: join(dir.path, "config") });
      expect(loaded.exitCode).toBe(0);
      expect(loaded.files).toEqual(["bin/simadmin.js", "dist/bundle/boot.cjs", "dist/bundle/cli.cjs"]);
      expect(loaded.natives).not.toContain(ES_MODULE_EVALUATED);
      expect(loaded.natives).not.toContain("NativeModule child_process");
    },
  );
});

// `simadmin token`, the command scripts call in a loop, with a settings file as `auth login`
// leaves it: the settings, its flag, the rate ledger and the answer are read by hand, so
// neither zod nor node:crypto is loaded (each cost more than the rest of its own work).
describe("simadmin token", () => {
  let env: Awaited<ReturnType<typeof startSandboxWithSettings>>;
  beforeAll(async () => {
    env = await startSandboxWithSettings();
    await mkdir(env.configDir, { recursive: true, mode: 0o700 });
    const profile = {
      baseUrl: `${env.sandbox.baseUrl}/`,
      org: env.sandbox.org,
      apiVersion: 2,
      apiKeyCreatedAt: new Date().toISOString(),
    };
    await writeFile(join(env.configDir, "settings.json"), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  });
  afterAll(async () => {
    await env.sandbox.close();
    await rm(env.dir, { recursive: true, force: true });
  });

  it("loads neither zod nor node:crypto", async () => {
    const keyAndDir = { SIMADMIN_API_KEY: env.sandbox.keys.full, SIMADMIN_CONFIG_DIR: env.configDir };
    // Twice: the second run reads the rate ledger the first one wrote.
    for (let run = 0; run < 2; run++) {
      const loaded = await loadedBy(["token", "--user", "user-demo", "-o", "json"], keyAndDir);
      expect(loaded.exitCode).toBe(0);
      expect(loaded.natives).not.toContain("NativeModule crypto");
      expect(loaded.zod).toBe(false);
    }
    expect(env.sandbox.requests.filter((request) => request.path.endsWith("/user/token"))).toHaveLength(2);
  });

  it("still says what is wrong with a setting, in the schema's words", async () => {
    const loaded = await loadedBy(["token", "--user", "user-demo", "--base-url", "ftp://x"], env.env);
    expect(loaded.exitCode).toBe(2);
    expect(loaded.zod).toBe(true);
  });
});

// The code V8 compiled on an earlier run (docs/architecture.md, Start-up): cli.cjs's in
// boot.cjs's own file on every Node, and on Node 22.1+ Node's compile cache beside it (for
// the vendor files). Under the user's cache directory, private to the user.
const nodeKeepsCode = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe("the code cache", () => {
  async function runWithCache(cache: string, args = ["config", "path"]): Promise<{ exitCode: number; stdout: string }> {
    const result = await execa(process.execPath, [BIN, ...args], {
      env: cleanEnv({ XDG_CACHE_HOME: cache, SIMADMIN_CONFIG_DIR: join(dir.path, "config") }),
      extendEnv: false,
      reject: false,
    });
    return { exitCode: result.exitCode ?? -1, stdout: result.stdout };
  }

  it("is kept in the user's cache directory, private to the user", async () => {
    const cache = join(dir.path, "cache-kept");
    expect((await runWithCache(cache)).exitCode).toBe(0);
    const kept = join(cache, "simadmin", "code-cache");
    expect((await stat(kept)).mode & 0o777).toBe(0o700);
    expect(await readdir(kept)).toEqual([`cli-${process.version}-${process.arch}.v8`]);
    if (nodeKeepsCode) expect((await stat(join(cache, "simadmin", "compile-cache"))).mode & 0o777).toBe(0o700);
  });

  it("is written once and then used, not rewritten", async () => {
    const cache = join(dir.path, "cache-reused");
    const first = await runWithCache(cache);
    const [file] = await readdir(join(cache, "simadmin", "code-cache"));
    const path = join(cache, "simadmin", "code-cache", file!);
    const written = await stat(path);
    expect(written.mode & 0o777).toBe(0o600);
    const second = await runWithCache(cache);
    expect(second).toEqual(first);
    const after = await stat(path);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  it("is saved again after the first run of a command it was not made by, then used", async () => {
    const cache = join(dir.path, "cache-refreshed");
    await runWithCache(cache);
    const [file] = await readdir(join(cache, "simadmin", "code-cache"));
    const path = join(cache, "simadmin", "code-cache", file!);
    const first = await readFile(path);
    // Another command compiles functions `config path` never ran: the code is saved with them.
    expect((await runWithCache(cache, ["help"])).exitCode).toBe(0);
    const refreshed = await readFile(path);
    expect(refreshed.length).toBeGreaterThan(first.length);
    expect(refreshed.toString("latin1", 0, 300)).toMatch(/\ncommands config,help\n/);
    // Both commands are in it now: neither saves it again.
    const saved = await stat(path);
    await runWithCache(cache, ["config", "list"]);
    await runWithCache(cache, ["help"]);
    expect((await stat(path)).mtimeMs).toBe(saved.mtimeMs);
  });

  it("is ignored when damaged, and replaced", async () => {
    const cache = join(dir.path, "cache-damaged");
    const first = await runWithCache(cache);
    const kept = join(cache, "simadmin", "code-cache");
    const [file] = await readdir(kept);
    const path = join(kept, file!);
    const whole = await readFile(path);
    // The code's last byte flipped: what a disk error or a half-written copy leaves.
    const damaged = Buffer.concat([whole.subarray(0, -1), Buffer.from([whole.at(-1)! ^ 0xff])]);
    await writeFile(path, damaged);
    expect(await runWithCache(cache)).toEqual(first);
    // Replaced by a whole one, which the next run then uses as it is.
    const replaced = await readFile(path);
    expect(replaced.equals(damaged)).toBe(false);
    const written = await stat(path);
    expect(await runWithCache(cache)).toEqual(first);
    expect((await stat(path)).mtimeMs).toBe(written.mtimeMs);
  });
});

// One copy of every module of src/ (scripts/bundle.mjs): an error class thrown by a
// command's module is the very class report-error.ts checks with instanceof, wherever in
// the program it is thrown. The bundle used to be two halves, each with its own copy.
describe("the bundle", () => {
  it("defines the error classes of src/errors.ts once, in the one file every command runs from", async () => {
    const bundleDir = join(ROOT, "dist/bundle");
    const defining: string[] = [];
    for (const file of await readdir(bundleDir, { recursive: true, encoding: "utf8" })) {
      if (!/\.c?js$/.test(file)) continue;
      const code = await readFile(join(bundleDir, file), "utf8");
      for (const name of ["CliError", "UsageError", "ServiceError", "InterruptedError"]) {
        // `class CliError …`, or `CliError=class …` where esbuild defers a module's body.
        const count = code.split(new RegExp(`\\bclass ${name}\\b|\\b${name}=class\\b`)).length - 1;
        for (let i = 0; i < count; i++) defining.push(`${file}: ${name}`);
      }
    }
    expect(defining.sort()).toEqual([
      "cli.cjs: CliError",
      "cli.cjs: InterruptedError",
      "cli.cjs: ServiceError",
      "cli.cjs: UsageError",
    ]);
  });
});
