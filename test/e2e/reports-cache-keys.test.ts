import { hostname } from "node:os";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BIN, binaryEnv, FAST, startTestEnv, tempDir, usersWindowFailure, type TestEnv } from "../helpers/cli.js";

// Issue 12 items 4 and 8; docs/cli-contract.md "Concurrency" (the resume cache is keyed by
// base URL, API version, kind, dates and a fingerprint of the key) and "Output files".

const LIMITS = { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } };
const Q1 = ["--from", "2025-01-01", "--to", "2025-03-31"]; // three windows

let env: TestEnv;
/** Armed by a test: fail the `users` windows once the first one has been answered. */
const failure = usersWindowFailure();
beforeAll(async () => {
  env = await startTestEnv({ rateLimits: LIMITS, log: failure.log });
});
afterAll(async () => {
  await env.close();
});
beforeEach(() => {
  env.sandbox.requests.length = 0;
  env.sandbox.faults.clear();
  failure.disarm();
});

function reportRequests(): unknown[] {
  return env.sandbox.requests.filter((r) => r.path.includes("/report/") && r.status === 200).map((r) => r.body);
}

describe("the report resume cache never crosses API keys", () => {
  it("an export interrupted with key A, then run with key B, fetches every window for B", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "users.json");
      const args = ["reports", "users", ...Q1, "--out", out, "--retries", "0"];
      failure.arm(env.sandbox);
      const withA = await env.run(args, { env: { ...FAST, SIMADMIN_API_KEY: env.sandbox.keys.full } });
      expect(withA.exitCode, withA.stderr).toBe(8);
      const cacheDir = join(env.configDir, "report-cache");
      const cached = await readdir(cacheDir);
      expect(cached).toHaveLength(1); // A's first window waits for A's resume
      for (const name of cached) {
        expect(name).not.toContain(env.sandbox.keys.full);
        expect(await readFile(join(cacheDir, name), "utf8")).not.toContain(env.sandbox.keys.full);
      }

      env.sandbox.faults.clear();
      env.sandbox.requests.length = 0;
      const withB = await env.run(args, { env: { ...FAST, SIMADMIN_API_KEY: env.sandbox.keys.readOnly } });
      expect(withB.exitCode, withB.stderr).toBe(0);
      expect(withB.stderr).not.toContain("resuming");
      expect(reportRequests()).toHaveLength(3); // no window of A reused

      // A's window is still there for A, and A resumes from it.
      env.sandbox.requests.length = 0;
      const againA = await env.run(args, { env: { ...FAST, SIMADMIN_API_KEY: env.sandbox.keys.full } });
      expect(againA.exitCode, againA.stderr).toBe(0);
      expect(againA.stderr).toContain("resuming: 1 of 3 windows from cache");
      expect(reportRequests()).toHaveLength(2);
    } finally {
      await dir.remove();
    }
  });
});

describe("the CSV row spool", () => {
  it("lives under the settings directory (0700), and a spool left by a SIGKILLed run is removed by the next run", async () => {
    const dir = await tempDir();
    const privateTmp = await tempDir("simadmin-tmpdir-");
    try {
      const out = join(dir.path, "users.csv");
      const args = ["reports", "users", ...Q1, "--out", out];
      // The second window hangs: the run is killed while it waits, with rows of window 1 spooled.
      env.sandbox.faults.delayNext("/v2/report/users", 1, 0);
      env.sandbox.faults.delayNext("/v2/report/users", 1, 60_000);
      const child = execa(process.execPath, [BIN, ...args], {
        reject: false,
        env: binaryEnv({ ...env.env, ...FAST, TMPDIR: privateTmp.path }),
        extendEnv: false,
        stdin: "ignore",
      });
      const spoolRoot = join(env.configDir, "report-spool");
      const runSpool = join(spoolRoot, `${hostname()}-${child.pid}`);
      // Wait until the second window has been asked for: the first one's rows are spooled.
      while (env.sandbox.requests.filter((r) => r.path === "/v2/report/users").length < 1 || !(await exists(runSpool))) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill("SIGKILL");
      await child;
      expect((await stat(spoolRoot)).mode & 0o777).toBe(0o700);
      expect(await exists(runSpool)).toBe(true);
      // Nothing of the report in the temp dir. Node 22+ keeps its own compile cache there
      // (module.enableCompileCache in the launcher): code, not data, so it is not counted.
      const reportFilesInTemp = async (): Promise<string[]> =>
        (await readdir(privateTmp.path)).filter((name) => name !== "node-compile-cache");
      expect(await reportFilesInTemp()).toEqual([]);

      env.sandbox.faults.clear();
      const next = await env.run(args, { env: { ...FAST, TMPDIR: privateTmp.path } });
      expect(next.exitCode, next.stderr).toBe(0);
      expect(await exists(runSpool)).toBe(false);
      expect(await readdir(spoolRoot)).toEqual([]); // this run's own spool went at its end
      expect(await reportFilesInTemp()).toEqual([]);
      expect(await readdir(dir.path)).toEqual(["users.csv"]);
    } finally {
      await dir.remove();
      await privateTmp.remove();
    }
  });
});

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
