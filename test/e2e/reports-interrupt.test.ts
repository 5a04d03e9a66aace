import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, binaryEnv, FAST, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";

// Ctrl-C of a running `simadmin reports` process (the signal handler in src/main.ts is the
// subject, so the built binary runs here); everything else about reports is in test/cli.

const Q1 = ["--from", "2025-01-01", "--to", "2025-03-31"];

describe("reports: interruption", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({
      rateLimits: { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } },
    });
  });
  afterAll(async () => {
    await env.close();
  });

  it("stops on Ctrl-C with exit 130 and leaves no partial output file", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "syms.json");
      env.sandbox.faults.delayNext("/v2/report/syms", 1, 10_000);
      const child = execa(process.execPath, [BIN, "reports", "syms", ...Q1, "--out", out], {
        env: binaryEnv({ ...env.env, ...FAST }),
        extendEnv: false,
        reject: false,
        stdin: "ignore",
      });
      const deadline = Date.now() + 10_000;
      while (env.sandbox.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // The first window's answer is held back by the sandbox: interrupt while it waits.
      child.kill("SIGINT");
      const result = await child;
      expect(result.exitCode).toBe(130);
      expect(String(result.stderr)).toContain("interrupted");
      expect(await readdir(dir.path)).toEqual([]);
    } finally {
      await dir.remove();
    }
  });
});
