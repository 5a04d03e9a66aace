import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Files that ship beside the code (package.json, fixtures/) are found from the package root,
// not by a fixed "../.." from the calling module: the same code runs from src/ (tests on the
// TypeScript), dist/ (the tsc build) and dist/bundle/ (esbuild chunks, one level deeper).
let cached: string | undefined;

/** The nearest directory at or above this module that holds a package.json. */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return (cached = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** A path inside the package, e.g. packagePath("fixtures", "sandbox-seed.json"). */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}

/** This package's version (`--version`, and the tool version `reports sync` records per window). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}
