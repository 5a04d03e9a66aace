// @ts-nocheck
import { readFile, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, tempDir } from "../helpers/cli.js";

// What the process loads to start (README, Start-up): the benchmark (bench/startup.mjs)
// measures the time, this checks the design that makes it, with no clock involved.
// `--help` and `--version` run on the CommonJS half of the bundle alone — two files of the
// package, no ES module evaluated, no child_process — and a command loads the ES module half
// on top. Node's own modules are compared with what an empty CommonJS script loads, on the
// same Node: which of its internals start-up loads differs between majors.

const ROOT = resolve(import.meta.dirname, "../..");

interface Loaded {
  /** Package files required through CommonJS, relative to the package root. */
  files: string[];
  /** Node's own modules that were loaded ("NativeModule child_process", …). */
  natives: string[];
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
    `process.on("exit", () => require("node:fs").writeFileSync(process.env.RECORD_TO, JSON.stringify({ files: Object.keys(require.cache), natives: process.moduleLoadList })));`,
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
  const result = await execa(process.execPath, ["-r", preload, ...argv], {
    env: cleanEnv({ ...env, RECORD_TO: recordTo }),
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
  };
}

describe("start-up", () => {
  it.each([[["--help"]], [["--version"]], [["help", "reports"]], [["auth", "--help"]]])(
    "`simadmin %s` loads bin/simadmin.js and dist/bundle/main.cjs only, without an ES module or child_process",
    async (args) => {
      const loaded = await loadedBy(args);
      expect(loaded.exitCode).toBe(0);
      expect(loaded.files).toEqual(["bin/simadmin.js", "dist/bundle/main.cjs"]);
      expect(loaded.natives).not.toContain(ES_MODULE_EVALUATED);
      expect(loaded.natives).not.toContain("NativeModule child_process");
    },
  );

  it("a command loads the ES module half on top (and still no child_process)", async () => {
    const loaded = await loadedBy(["config", "path"], { SIMADMIN_CONFIG_DIR: join(dir.path, "config") });
    expect(loaded.exitCode).toBe(0);
    expect(loaded.natives).toContain(ES_MODULE_EVALUATED);
    expect(loaded.natives).not.toContain("NativeModule child_process");
  });
});
