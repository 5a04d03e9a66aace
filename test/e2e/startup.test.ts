import { readFile, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, tempDir } from "../helpers/cli.js";

// What the process loads to start (README, Start-up): the benchmark (bench/startup.mjs)
// measures the time, this checks the design that makes it, with no clock involved.
// `--help` and `--version` run on the CommonJS half of the bundle alone — two files of the
// package, Node's ES module loader never started, no child_process — and a command loads the
// ES module half on top.

const ROOT = resolve(import.meta.dirname, "../..");

interface Loaded {
  /** Package files required through CommonJS, relative to the package root. */
  files: string[];
  /** Node's own modules that were loaded ("NativeModule child_process", …). */
  natives: string[];
}

let dir: { path: string; remove(): Promise<void> };
let preload: string;

beforeAll(async () => {
  dir = await tempDir("simadmin-startup-");
  preload = join(dir.path, "record.cjs");
  // Runs before bin/simadmin.js and writes down, on exit, what the process loaded.
  await writeFile(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(process.env.RECORD_TO, JSON.stringify({ files: Object.keys(require.cache), natives: process.moduleLoadList })));`,
  );
});
afterAll(async () => {
  await dir.remove();
});

async function loadedBy(args: string[], env: Record<string, string> = {}): Promise<Loaded & { exitCode: number }> {
  const record = join(dir.path, "loaded.json");
  const result = await execa(process.execPath, ["-r", preload, BIN, ...args], {
    env: cleanEnv({ ...env, RECORD_TO: record }),
    extendEnv: false,
    reject: false,
  });
  const raw = JSON.parse(await readFile(record, "utf8")) as { files: string[]; natives: string[] };
  return {
    exitCode: result.exitCode ?? -1,
    files: raw.files.filter((file) => file !== preload).map((file) => relative(ROOT, file)),
    natives: raw.natives,
  };
}

const ES_MODULE_LOADER = "NativeModule internal/modules/esm/module_job";

describe("start-up", () => {
  it.each([[["--help"]], [["--version"]], [["help", "reports"]], [["auth", "--help"]]])(
    "`simadmin %s` loads bin/simadmin.js and dist/bundle/main.cjs only, without the ES module loader or child_process",
    async (args) => {
      const loaded = await loadedBy(args);
      expect(loaded.exitCode).toBe(0);
      expect(loaded.files).toEqual(["bin/simadmin.js", "dist/bundle/main.cjs"]);
      expect(loaded.natives).not.toContain(ES_MODULE_LOADER);
      expect(loaded.natives).not.toContain("NativeModule child_process");
    },
  );

  it("a command loads the ES module half on top (and still no child_process)", async () => {
    const loaded = await loadedBy(["config", "path"], { SIMADMIN_CONFIG_DIR: join(dir.path, "config") });
    expect(loaded.exitCode).toBe(0);
    expect(loaded.natives).toContain(ES_MODULE_LOADER);
    expect(loaded.natives).not.toContain("NativeModule child_process");
  });
});
