import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv, runBinary, tempDir } from "../helpers/cli.js";

// `--sandbox` and `simadmin sandbox`: usable with no key and no settings, and they never
// write anything outside a temp directory.

describe("simadmin --sandbox <command>", () => {
  it("runs library and a month of reports with no key and no settings, touching nothing in HOME", async () => {
    const home = await tempDir("simadmin-home-");
    try {
      const env = { HOME: home.path, XDG_CONFIG_HOME: join(home.path, ".config") };
      const library = await runBinary(["--sandbox", "library", "--user", "user-demo", "-o", "json"], { env });
      expect(library.exitCode).toBe(0);
      const sims = JSON.parse(library.stdout) as { id: string }[];
      expect(sims.length).toBeGreaterThan(0);
      expect(sims[0]).toHaveProperty("id");

      const reports = await runBinary(["--sandbox", "reports", "users", "--month", "2026-10", "-o", "json"], { env });
      expect(reports.exitCode).toBe(0);
      const records = JSON.parse(reports.stdout) as { date?: string }[];
      expect(records.length).toBeGreaterThan(0);

      expect(await readdir(home.path)).toEqual([]);
    } finally {
      await home.remove();
    }
  });

  it("never uses the stored profile, even when one exists", async () => {
    const dir = await tempDir();
    try {
      const env = { SIMADMIN_CONFIG_DIR: dir.path };
      expect((await runBinary(["config", "set", "baseUrl", "https://prod.example.invalid"], { env })).exitCode).toBe(0);
      const r = await runBinary(["--sandbox", "token", "--user", "user-demo", "-o", "json"], { env });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ userId: "user-demo", expiresIn: 3600 });
      expect(await readdir(dir.path)).toEqual(["settings.json"]); // no ledger, nothing new
    } finally {
      await dir.remove();
    }
  });
});

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

  it("rejects a bad port with exit 2", async () => {
    const r = await runBinary(["sandbox", "--port", "99999"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--port/);
  });
});
