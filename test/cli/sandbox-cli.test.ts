import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/in-process.js";

// `--sandbox` and `simadmin sandbox`: usable with no key and no settings, and they never
// write anything outside a temp directory. In-process; the foreground sandbox's Ctrl-C is in
// test/e2e/sandbox-cli.test.ts.

describe("simadmin --sandbox <command>", () => {
  it("runs library and a month of reports with no key and no settings, touching nothing in HOME", async () => {
    const home = await tempDir("simadmin-home-");
    try {
      const env = { HOME: home.path, XDG_CONFIG_HOME: join(home.path, ".config") };
      const library = await runCli(["--sandbox", "library", "--user", "user-demo", "-o", "json"], { env });
      expect(library.exitCode).toBe(0);
      const sims = JSON.parse(library.stdout) as { id: string }[];
      // The seed's first page for user-demo: sim-001 … sim-010.
      expect(sims.map((sim) => sim.id)).toEqual(Array.from({ length: 10 }, (_, i) => `sim-${String(i + 1).padStart(3, "0")}`));

      const reports = await runCli(["--sandbox", "reports", "users", "--month", "2026-10", "-o", "json"], { env });
      expect(reports.exitCode).toBe(0);
      const records = JSON.parse(reports.stdout) as { date?: string }[];
      // The sandbox's users report: three records a day, 1 to 31 October.
      expect(records).toHaveLength(93);
      expect([records[0]?.date, records.at(-1)?.date]).toEqual(["2026-10-01", "2026-10-31"]);

      expect(await readdir(home.path)).toEqual([]);
    } finally {
      await home.remove();
    }
  });

  it("answers in the dialect SIMADMIN_SANDBOX_DIALECT names, and refuses an unknown one with exit 2", async () => {
    const home = await tempDir("simadmin-home-");
    try {
      const env = { HOME: home.path, XDG_CONFIG_HOME: join(home.path, ".config") };
      // terse answers tokens without expiresIn: `api` shows the raw answer, `token` the spec's 3600 s.
      const terseEnv = { ...env, SIMADMIN_SANDBOX_DIALECT: "terse" };
      const raw = await runCli(
        ["--sandbox", "api", "/v2/access-api/user/token", "--data", '{"organizationId":"org-demo","userId":"user-demo"}'],
        { env: terseEnv },
      );
      expect(raw.exitCode, raw.stderr).toBe(0);
      expect(Object.keys(JSON.parse(raw.stdout) as object)).toEqual(["token"]);
      const token = await runCli(["--sandbox", "token", "--user", "user-demo", "-o", "json"], { env: terseEnv });
      expect(token.exitCode, token.stderr).toBe(0);
      expect(JSON.parse(token.stdout)).toMatchObject({ userId: "user-demo", expiresIn: 3600 });
      const bad = await runCli(["--sandbox", "token", "--user", "user-demo"], {
        env: { ...env, SIMADMIN_SANDBOX_DIALECT: "klingon" },
      });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('SIMADMIN_SANDBOX_DIALECT: unknown sandbox dialect "klingon"');
    } finally {
      await home.remove();
    }
  });

  it("never uses the stored profile, even when one exists", async () => {
    const dir = await tempDir();
    try {
      const env = { SIMADMIN_CONFIG_DIR: dir.path };
      expect((await runCli(["config", "set", "baseUrl", "https://prod.example.invalid"], { env })).exitCode).toBe(0);
      const r = await runCli(["--sandbox", "token", "--user", "user-demo", "-o", "json"], { env });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ userId: "user-demo", expiresIn: 3600 });
      expect(await readdir(dir.path)).toEqual(["settings.json"]); // no ledger, nothing new
    } finally {
      await dir.remove();
    }
  });
});

describe("simadmin sandbox (foreground)", () => {
  it("rejects a bad port with exit 2", async () => {
    const r = await runCli(["sandbox", "--port", "99999"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--port/);
  });
});
