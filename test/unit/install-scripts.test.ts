import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// npm 11 warns at `npm ci` about every package whose install scripts the project has not
// reviewed ("install scripts not yet covered by allowScripts"), and npm 12 will block them
// (docs/development.md "Install scripts"). The lock file says which packages have them; each
// must be named in package.json's allowScripts, as `npm install-scripts approve <pkg>` writes
// it — so a fresh clone installs without the warning, and a new package that brings a script
// is reviewed, not waved through.

const ROOT = resolve(import.meta.dirname, "../..");
const read = (name: string): unknown => JSON.parse(readFileSync(resolve(ROOT, name), "utf8"));

describe("install scripts", () => {
  it("every locked package with an install script is reviewed in allowScripts, and nothing else is", () => {
    const lock = read("package-lock.json") as {
      packages: Record<string, { hasInstallScript?: boolean; name?: string }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && entry.hasInstallScript === true)
      .map(([path, entry]) => entry.name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length))
      .sort();
    const { allowScripts } = read("package.json") as { allowScripts?: Record<string, boolean> };
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(allowScripts ?? {}).sort()).toEqual(withScripts);
  });
});
