import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { BIN, binaryEnv, closedPort, startTestEnv, type TestEnv } from "../helpers/cli.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

// SIMADMIN_RATE_STORE through the built binary (issue 17): separate settings directories
// ("machines") share one budget through Redis; an unreachable Redis costs one warning line;
// the password never shows, not even in --verbose traces.

const PASSWORD = "fleet-pw-Zq81x";

let redis: TestRedis;
let t: TestEnv;
beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
  t = await startTestEnv({ rateLimits: { access: { limit: 100, windowMs: 60_000 } } });
});
afterAll(async () => {
  await t.close();
  await redis.stop();
});

async function machineDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "simadmin-machine-"));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

describe("SIMADMIN_RATE_STORE=redis://…", () => {
  it("two machines (separate settings directories) spend one budget: the third token waits for it", async () => {
    const [a, b] = [await machineDir(), await machineDir()];
    try {
      const env = (dir: string) => ({
        SIMADMIN_CONFIG_DIR: dir,
        SIMADMIN_RATE_STORE: redis.url,
        SIMADMIN_RATE_LIMITS: "access=2/60s",
      });
      const before = t.sandbox.requests.length;
      for (let i = 0; i < 2; i++) expect((await t.run(["token", "--user", "user-demo"], { env: env(a.path) })).exitCode).toBe(0);
      // Machine B has never sent anything, yet waits for the budget machine A spent.
      const third = execa(process.execPath, [BIN, "token", "--user", "user-demo", "--verbose"], {
        env: binaryEnv({ ...t.env, ...env(b.path) }),
        extendEnv: false,
        reject: false,
        stdin: "ignore",
        timeout: 30_000,
      });
      let stderr = "";
      third.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      for (let i = 0; !/waiting \d+(\.\d+)? s \(access rate budget\) before/.test(stderr); i++) {
        if (i > 1_000) throw new Error(`no budget wait announced: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      third.kill("SIGINT");
      expect((await third).exitCode).toBe(130);
      expect(stderr).toContain(`rate budget: redis redis://127.0.0.1:${redis.port}/0`);
      expect(stderr).not.toContain(PASSWORD);
      expect(stderr).not.toMatch(/^warning:/m);
      expect(t.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await Promise.all([a.remove(), b.remove()]);
    }
  });

  it("Redis unreachable: one warning line without the password, and the run succeeds on the local budget", async () => {
    const port = await closedPort();
    const result = await t.run(["token", "--user", "user-demo", "--verbose"], {
      env: { SIMADMIN_RATE_STORE: `redis://ci:${PASSWORD}@127.0.0.1:${port}/0` },
    });
    expect(result.exitCode).toBe(0);
    const warnings = result.stderr.split("\n").filter((line) => line.startsWith("warning:"));
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warning: the shared rate budget at redis://127\\.0\\.0\\.1:${port}/0 cannot be used \\(.+\\); this run keeps this machine's own budget instead$`,
        ),
      ),
    ]);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(result.stdout).not.toContain(PASSWORD);
  });

  it("a value that is not a redis:// URL is a usage error (exit 2) before anything is sent, without echoing it", async () => {
    const before = t.sandbox.requests.length;
    const result = await t.run(["token", "--user", "user-demo"], { env: { SIMADMIN_RATE_STORE: `http://u:${PASSWORD}@host` } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: SIMADMIN_RATE_STORE: unsupported scheme/);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(t.sandbox.requests.length).toBe(before);
  });
});
