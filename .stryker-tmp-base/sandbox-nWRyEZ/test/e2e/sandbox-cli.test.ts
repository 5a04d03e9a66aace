// @ts-nocheck
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv, runBinary, tempDir } from "../helpers/cli.js";

// The foreground `simadmin sandbox` as a process: it starts, serves another process and stops
// on Ctrl-C (SIGINT) with exit 0. The rest of the sandbox command is in test/cli.

describe("simadmin sandbox (foreground)", () => {
  it("prints its base URL, keys and org, serves requests and stops cleanly on Ctrl-C", async () => {
    const child = execa(process.execPath, [BIN, "sandbox", "--port", "0"], {
      env: cleanEnv(),
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 20_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("SIMADMIN_ORG=")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const vars = Object.fromEntries(
      out
        .split("\n")
        .filter((l) => /^SIMADMIN_/.test(l))
        .map((l) => l.split("=", 2) as [string, string]),
    );
    expect(vars.SIMADMIN_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(vars.SIMADMIN_ORG).toBe("org-demo");
    const dir = await tempDir();
    try {
      const token = await runBinary(["token", "--user", "user-demo", "-o", "text"], {
        env: { ...vars, SIMADMIN_CONFIG_DIR: dir.path },
      });
      expect(token.exitCode).toBe(0);
      expect(token.stdout.trim().length).toBeGreaterThan(20);
    } finally {
      await dir.remove();
    }
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toMatch(/sandbox stopped/);
  });
});
