import { spawnSync } from "node:child_process";
import { lstat, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";

// docs/cli-contract.md "Output files": what only the built binary shows — --out /dev/stdout
// reaching the process's real stdout, the temp files of a killed process cleared by the next
// run, and the bundle's warnings. The other --out targets (FIFOs, devices, symlinks, modes,
// missing or unwritable places) are test/cli/out-special-files.test.ts, in-process.

const TOKEN = ["token", "--user", "user-demo", "-o", "json"];

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv(ROOMY);
});
afterAll(async () => {
  await env.close();
});

/** A pid that certainly ran on this machine and certainly is gone now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("--out /dev/stdout", () => {
  it("writes through /dev/stdout to the real stdout, and /dev/stdout stays what it was", async () => {
    const before = await lstat("/dev/stdout");
    const result = await env.capture([...TOKEN, "--out", "/dev/stdout"]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { userId: string }).userId).toBe("user-demo");
    const after = await lstat("/dev/stdout");
    expect(after.isSymbolicLink()).toBe(before.isSymbolicLink());
    expect(after.isFile()).toBe(false);
  });
});

describe("leftovers of a killed run", () => {
  it("the next run writing the same output removes a temp file whose process is dead, and keeps a live one's", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "t.json");
      const stale = `.t.json.${deadPid()}.0badf00d.tmp`;
      const live = `.t.json.${process.pid}.00c0ffee.tmp`;
      const unrelated = `.other.json.${deadPid()}.0badf00d.tmp`;
      for (const name of [stale, live, unrelated]) await writeFile(join(dir.path, name), "half a file");
      const result = await env.capture([...TOKEN, "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect((await readdir(dir.path)).sort()).toEqual([live, unrelated, "t.json"].sort());
    } finally {
      await dir.remove();
    }
  });
});

describe("xlsx through the built binary", () => {
  // issue 21: exceljs inside the bundle called `new Buffer()`, and Node printed its DEP0005
  // line on stderr for every workbook, even with -q (scripts/bundle.mjs, noLegacyBuffer).
  it("writes a workbook with -q and prints nothing on stderr (no DEP0005 warning)", async () => {
    const dir = await tempDir();
    try {
      const path = join(dir.path, "users.xlsx");
      const result = await env.capture(["-q", "reports", "users", "--last", "7d", "-o", "xlsx", "--out", path]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toBe("");
      expect((await readFile(path)).subarray(0, 2).toString("latin1")).toBe("PK");
    } finally {
      await dir.remove();
    }
  });
});
