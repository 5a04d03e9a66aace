import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import durations from "../durations.json" with { type: "json" };

// test/sequencer.ts starts the longest files first by test/durations.json, looked up by the
// file's path in the repository. Keys written from another checkout ("../<worktree>/test/…")
// matched nothing, and a fresh clone (CI) ran the files in name order, the longest last.

describe("test/durations.json", () => {
  it("names files of this repository by their path in it", () => {
    const root = resolve(import.meta.dirname, "../..");
    const missing = Object.keys(durations).filter((path) => !path.startsWith("test/") || !existsSync(resolve(root, path)));
    expect(missing).toEqual([]);
  });
});
