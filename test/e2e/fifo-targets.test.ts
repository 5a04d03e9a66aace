import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, binaryEnv, FAST, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";

// Named pipes as targets (docs/local-files.md "Named pipes"): the process is the subject — a
// blocking open or write of a FIFO held the process past Ctrl-C and SIGTERM, since Node's exit
// waits for the thread stuck in it — so the built binary runs here. No test bounds the time:
// a run that hangs is ended by execa's timeout (SIGKILL, within the test's longer timeout) and
// fails its assertions.

const HANG_GUARD = { timeout: 60_000, killSignal: "SIGKILL" as const, reject: false, stdin: "ignore" as const };

describe("FIFOs as targets", () => {
  let env: TestEnv;
  let dir: { path: string; remove(): Promise<void> };
  beforeAll(async () => {
    env = await startTestEnv({
      rateLimits: { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } },
    });
    dir = await tempDir();
  });
  afterAll(async () => {
    await Promise.all([env.close(), dir.remove()]);
  });

  function fifo(name: string): string {
    const path = join(dir.path, name);
    execFileSync("mkfifo", [path]);
    return path;
  }

  it("reports sync --db <a FIFO nobody writes>: exit 11 naming it, before any request", async () => {
    const path = fifo("reports.duckdb");
    const before = env.sandbox.requests.length;
    const result = await execa(process.execPath, [BIN, "reports", "sync", "--db", path, "--kinds", "syms"], {
      ...HANG_GUARD,
      env: binaryEnv({ ...env.env, ...FAST }),
      extendEnv: false,
    });
    expect(result.signal, result.stderr).toBeUndefined();
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toContain(`cannot use ${path} as the DuckDB database: it is a named pipe (FIFO)`);
    expect(env.sandbox.requests.slice(before)).toEqual([]);
  }, 90_000);

  it("--out <a FIFO whose reader stopped reading>: SIGTERM ends the run with 130", async () => {
    const path = fifo("syms.json");
    // A reader that never reads (this test): six months of syms (about 130 KB) fill the pipe
    // (64 KiB) and the writer must wait.
    const reader = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const child = execa(
        process.execPath,
        [BIN, "reports", "syms", "--from", "2025-01-01", "--to", "2025-06-30", "-o", "json", "--out", path],
        { ...HANG_GUARD, env: binaryEnv({ ...env.env, ...FAST }), extendEnv: false },
      );
      // The pipe is full when even one more byte has no room (EAGAIN on this non-blocking end).
      for (;;) {
        if (child.exitCode !== null) break;
        try {
          writeSync(reader, "x");
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EAGAIN") break;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(child.exitCode, "the run ended before the signal").toBeNull();
      child.kill("SIGTERM");
      const result = await child;
      expect(result.signal, result.stderr).toBeUndefined();
      expect(result.exitCode).toBe(130);
      expect(result.stderr).toContain("interrupted");
    } finally {
      closeSync(reader);
    }
  }, 90_000);
});
