import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, tempDir } from "../helpers/cli.js";

// What users get from `npm install simadmin`: the packed tarball holds only what the tool
// needs to run, and installs and runs in an empty directory. Slow (one real npm install,
// dependencies from the npm cache `npm ci` filled), so everything shares that one install.

const ROOT = resolve(import.meta.dirname, "../..");
const ALLOWED_TOP_LEVEL = ["package.json", "README.md", "LICENSE", "bin", "dist", "fixtures", "man"];
const INSTALL_TIMEOUT_MS = 120_000;

/** npm with the variables `npm test` sets for its own script removed (they describe this repo). */
function npmEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env = cleanEnv(extra);
  for (const key of Object.keys(env)) {
    if (
      key.startsWith("npm_package_") ||
      key.startsWith("npm_lifecycle_") ||
      key === "npm_config_local_prefix" ||
      key === "INIT_CWD"
    )
      delete env[key];
  }
  return env;
}

interface PackResult {
  filename: string;
  files: { path: string }[];
}

let dir: { path: string; remove(): Promise<void> };
let tarball: string;
let files: string[];
let appDir: string;

/**
 * The working tree without node_modules and .git, hard-linked (copied where links cannot
 * cross file systems) into `into`: what `npm pack` makes from it is the repository's tarball,
 * byte for byte (same shasum), for ~0.6 s less CPU — in the repository npm first reads the
 * whole node_modules tree, for bundled dependencies this package has none of (checked below).
 */
async function packageSources(into: string): Promise<string> {
  const stage = join(into, "source");
  await mkdir(stage);
  const entries = readdirSync(ROOT).filter((name) => name !== "node_modules" && name !== ".git");
  const copy = (flags: string) => execa("cp", [flags, ...entries, stage], { cwd: ROOT, reject: false });
  if ((await copy("-al")).exitCode !== 0) {
    await execa("rm", ["-rf", stage]);
    await mkdir(stage);
    await execa("cp", ["-a", ...entries, stage], { cwd: ROOT });
  }
  return stage;
}

beforeAll(async () => {
  dir = await tempDir("simadmin-pack-");
  // `npm test` has just built dist/; --ignore-scripts skips `prepare` (a second build).
  const pack = await execa("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir.path], {
    cwd: await packageSources(dir.path),
    env: npmEnv(),
    extendEnv: false,
  });
  const [result] = JSON.parse(pack.stdout) as PackResult[];
  if (!result) throw new Error(`npm pack printed no result: ${pack.stdout}`);
  tarball = join(dir.path, result.filename);
  files = result.files.map((file) => file.path);

  appDir = join(dir.path, "app");
  await mkdir(appDir);
  await writeFile(
    join(appDir, "package.json"),
    `${JSON.stringify({ name: "simadmin-install-check", private: true }, null, 2)}\n`,
  );
  const install = (mode: string) =>
    execa("npm", ["install", "--no-audit", "--no-fund", mode, tarball], {
      cwd: appDir,
      env: npmEnv(),
      extendEnv: false,
      reject: false,
    });
  let installed = await install("--offline");
  // A cache missing something (e.g. a CI cache restored partially): the registry is reachable.
  if (installed.exitCode !== 0) installed = await install("--prefer-offline");
  if (installed.exitCode !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await dir?.remove();
});

describe("npm package", () => {
  it("holds only package.json, README.md, LICENSE, bin/, the bundled dist/, the man pages and the sandbox's fixtures", () => {
    const outside = files.filter((path) => !ALLOWED_TOP_LEVEL.includes(path.split("/")[0] ?? ""));
    expect(outside).toEqual([]);
    for (const required of [
      "package.json",
      "README.md",
      "LICENSE",
      "bin/simadmin.js",
      "bin/package.json",
      "dist/bundle/boot.cjs",
      "dist/bundle/cli.cjs",
      "dist/bundle/help.txt",
      "fixtures/sandbox-seed.json",
      "man/simadmin.1",
      "man/simadmin-users-import.1",
    ]) {
      expect(files).toContain(required);
    }
    // The binary runs the bundle: the per-module tsc output (for tests and benchmarks) and the
    // users-CSV test corpus stay out of the package.
    expect(files.filter((path) => path.startsWith("dist/") && !path.startsWith("dist/bundle/"))).toEqual([]);
    expect(files.filter((path) => path.startsWith("fixtures/users/"))).toEqual([]);
    expect(files.some((path) => path.endsWith(".ts") || path.endsWith(".map"))).toBe(false);
    // Every man page package.json declares (npm links them on a global install) is in the tarball.
    const { man, bundleDependencies, bundledDependencies } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      man: string[];
      bundleDependencies?: unknown;
      bundledDependencies?: unknown;
    };
    expect(man.length).toBeGreaterThan(10);
    for (const page of man) expect(files).toContain(page.replace(/^\.\//, ""));
    // Nothing of node_modules goes into the package: packed from a copy without it, it is the same.
    expect([bundleDependencies, bundledDependencies]).toEqual([undefined, undefined]);
  });

  // scripts/bundle.mjs bundles every dependency but the native ones: only what the bundle still
  // loads from node_modules is a dependency users install (80 MB instead of 150 MB); the rest
  // are devDependencies, needed to build.
  it("declares as dependencies exactly the packages the bundle loads from node_modules", () => {
    const bundleDir = join(ROOT, "dist/bundle");
    const loaded = new Set<string>();
    for (const file of readdirSync(bundleDir, { recursive: true, encoding: "utf8" })) {
      if (!/\.(c?js)$/.test(file)) continue;
      const code = readFileSync(join(bundleDir, file), "utf8");
      // A package name, not a comment's `Buffer.from "\ufeff"`.
      for (const match of code.matchAll(/(?:require\(|import\(|from )"((?:@[\w.-]+\/)?[\w:-][\w./-]*)"/g)) {
        const name = match[1] ?? "";
        const bare = name.startsWith("node:") ? name.slice(5) : name;
        if (builtinModules.includes(bare)) continue;
        loaded.add(name.startsWith("@") ? name.split("/").slice(0, 2).join("/") : (name.split("/")[0] ?? name));
      }
    }
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect([...loaded].sort()).toEqual(Object.keys(dependencies).sort());
  });

  it("installs into an empty directory and runs `npx simadmin --sandbox library --user user-demo`", async () => {
    const configDir = join(dir.path, "config");
    const result = await execa("npx", ["simadmin", "--sandbox", "library", "--user", "user-demo", "-o", "json"], {
      cwd: appDir,
      env: npmEnv({ SIMADMIN_CONFIG_DIR: configDir }),
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const simulations = JSON.parse(result.stdout) as unknown;
    // The bundled seed's first page for user-demo: sim-001 … sim-010.
    expect((simulations as { id: string }[]).map((sim) => sim.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `sim-${String(i + 1).padStart(3, "0")}`),
    );
  }, 60_000);

  // DuckDB's native binding is left out of the bundle (scripts/bundle.mjs): the installed
  // package must find it in its node_modules. Run through the bin link npm made, not npx:
  // npx is the test above's, and costs ~0.4 s of CPU a start.
  it("runs `reports sync` into a DuckDB file from the installed package", async () => {
    const result = await execa(
      join(appDir, "node_modules", ".bin", "simadmin"),
      [
        "--sandbox",
        "reports",
        "sync",
        "--db",
        join(dir.path, "r.duckdb"),
        "--kinds",
        "users",
        "--since",
        // One window: the sandbox keeps the real reports budget (10 a minute).
        new Date().toISOString().slice(0, 10),
        "-o",
        "json",
      ],
      {
        cwd: appDir,
        env: npmEnv({ SIMADMIN_CONFIG_DIR: join(dir.path, "config") }),
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ kind: "users", table: "users" })]);
  }, 60_000);
});
