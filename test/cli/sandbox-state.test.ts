import { copyFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// Issue 15 item 6 (docs/cli-contract.md, Sandbox): `--sandbox` keeps its state between runs of
// the same user under $XDG_CACHE_HOME/simadmin, `sandbox --reset` forgets it, SIMADMIN_*
// service settings are ignored, nothing is saved by config/auth, and a started attempt
// completes over time so `completion --wait` finishes. Item 7: -v never prints a stack for a
// 404 or a timeout.

const SAMPLE = resolve(import.meta.dirname, "../../fixtures/users-import-sample.csv");
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function cacheEnv(): Promise<{ XDG_CACHE_HOME: string }> {
  const dir = await tempDir("simadmin-cache-");
  cleanups.push(() => dir.remove());
  return { XDG_CACHE_HOME: dir.path };
}

describe("--sandbox keeps its state between runs", () => {
  it("finds the import task of the previous run (the printed import-status command works), until sandbox --reset", async () => {
    const env = await cacheEnv();
    const work = await tempDir("simadmin-import-");
    cleanups.push(() => work.remove());
    const csv = join(work.path, "staff.csv");
    await copyFile(SAMPLE, csv); // the import writes its manifest beside the CSV
    const imported = await runCli(["--sandbox", "users", "import", csv, "--yes", "-o", "json"], { env });
    expect(imported.exitCode).toBe(0);
    const taskId = /task-[\w-]+/.exec(imported.stdout + imported.stderr)?.[0];
    expect(taskId).toMatch(/^task-[\w-]+$/);

    const status = await runCli(["--sandbox", "import-status", "--task", taskId!, "-o", "json"], { env });
    expect(status.stderr).toMatch(/1 task: 1 (SCHEDULED|STARTED|COMPLETED)/);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(taskId!);

    const dir = join(env.XDG_CACHE_HOME, "simadmin");
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, "sandbox-state.json"))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["sandbox-state.json"]); // the lock is gone

    const reset = await runCli(["sandbox", "--reset"], { env });
    expect(reset.exitCode).toBe(0);
    expect(reset.stderr).toMatch(/sandbox state reset: removed/);
    const after = await runCli(["--sandbox", "import-status", "--task", taskId!, "-o", "json"], { env });
    expect(after.exitCode).toBe(5);
  });

  it("keeps an assignment: unassign in a later run finds it", async () => {
    const env = await cacheEnv();
    expect(
      (await runCli(["--sandbox", "assign", "--user", "user-ava", "--sim", "sim-009", "-o", "json"], { env })).exitCode,
    ).toBe(0);
    const state = JSON.parse(await readFile(join(env.XDG_CACHE_HOME, "simadmin", "sandbox-state.json"), "utf8")) as {
      assignments: string[][];
    };
    expect(state.assignments).toContainEqual(["org-demo", "user-ava", "sim-009"]);
    const unassigned = await runCli(["--sandbox", "unassign", "--user", "user-ava", "--sim", "sim-009", "-o", "json"], { env });
    expect(unassigned.exitCode).toBe(0);
  });

  it("while another run holds the state, a run starts from it, says it keeps nothing and leaves the file alone", async () => {
    const env = await cacheEnv();
    expect(
      (await runCli(["--sandbox", "assign", "--user", "user-ava", "--sim", "sim-009", "-o", "json"], { env })).exitCode,
    ).toBe(0);
    const dir = join(env.XDG_CACHE_HOME, "simadmin");
    const before = await readFile(join(dir, "sandbox-state.json"), "utf8");
    await writeFile(join(dir, "sandbox-state.lock"), `${process.pid}\n`); // a live holder

    const r = await runCli(["--sandbox", "unassign", "--user", "user-ava", "--sim", "sim-009", "-o", "json"], { env });
    expect(r.exitCode).toBe(0); // it saw the assignment of the first run
    expect(r.stderr).toMatch(
      new RegExp(
        `another --sandbox run \\(pid ${process.pid}\\) holds the sandbox state: this run starts from it and keeps nothing`,
      ),
    );
    expect(await readFile(join(dir, "sandbox-state.json"), "utf8")).toBe(before);
  });

  it("treats a lock left by a dead run as stale", async () => {
    const env = await cacheEnv();
    const dir = join(env.XDG_CACHE_HOME, "simadmin");
    expect((await runCli(["--sandbox", "sandbox", "--reset"], { env })).exitCode).toBe(0);
    const { mkdir } = await import("node:fs/promises");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, "sandbox-state.lock"), "2147483646\n");
    const r = await runCli(["--sandbox", "assign", "--user", "user-ava", "--sim", "sim-010", "-o", "json"], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(await readdir(dir)).toEqual(["sandbox-state.json"]);
  });
});

describe("--sandbox ignores the real service's settings", () => {
  it("an exported SIMADMIN_ORG, SIMADMIN_BASE_URL and SIMADMIN_API_KEY change nothing", async () => {
    const env = {
      ...(await cacheEnv()),
      SIMADMIN_ORG: "org-elsewhere",
      SIMADMIN_BASE_URL: "https://api.example.invalid",
      SIMADMIN_API_KEY: "sk_real_key_that_must_not_be_used",
    };
    const r = await runCli(["--sandbox", "token", "--user", "user-demo", "-o", "json"], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ userId: "user-demo" });
    const status = await runCli(["--sandbox", "auth", "status", "-o", "json"], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ org: "org-demo", orgSource: "sandbox", apiKeySource: "sandbox" });
  });

  it.each([
    [["config", "set", "timeout", "60"]],
    [["config", "unset", "output"]],
    [["auth", "logout"]],
    [["auth", "login", "--with-key"]],
  ])("%j says plainly that nothing is saved, and writes no settings", async (args) => {
    const settings = await tempDir();
    cleanups.push(() => settings.remove());
    const env = { ...(await cacheEnv()), SIMADMIN_CONFIG_DIR: settings.path };
    const r = await runCli(["--sandbox", ...args], { env, input: "sk_some_key" });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^warning: nothing saved: --sandbox never saves settings or keys/);
    expect(r.stderr).not.toMatch(/^(Set|Unset|Stored|Removed)/m);
    expect(await readdir(settings.path)).toEqual([]);
  });
});

describe("--sandbox attempts complete over time", () => {
  it("`completion --user user-demo --sim sim-002 --wait --wait-timeout 30m` (the README example) finishes", async () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 21, 12));
    const env = await cacheEnv();
    const r = await runCli(
      ["--sandbox", "completion", "--user", "user-demo", "--sim", "sim-002", "--wait", "--wait-timeout", "30m", "-o", "json"],
      { env, clock },
    );
    expect(r.exitCode).toBe(0);
    const attempts = JSON.parse(r.stdout) as { status: string; state: string }[];
    expect(attempts.filter((a) => a.state === "completed")).toHaveLength(1);
    // It took two polls a minute apart (the attempt completes 45 s after the first one).
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(45_000);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(30 * 60_000);
  });

  it("a sandbox started by a test keeps its attempts as seeded (deterministic)", async () => {
    const t = await startTestEnv();
    cleanups.push(() => t.close());
    const clock = createFakeClock(Date.UTC(2026, 10, 21, 12));
    const r = await t.capture(
      ["completion", "--user", "user-demo", "--sim", "sim-002", "--wait", "--wait-timeout", "5m", "-o", "json"],
      {
        clock,
      },
    );
    expect(r.exitCode).toBe(9);
  });
});

describe("-v shows the HTTP exchange, not JavaScript internals (issue 15 item 7)", () => {
  let t: TestEnv;
  afterEach(async () => t.close());

  it("a 404 under -v: the request and its 404 on stderr, no stack", async () => {
    t = await startTestEnv();
    const r = await t.capture(["-v", "library", "--user", "user-nobody"]);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/404/);
    expect(r.stderr).toMatch(/simulation\/library/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it("a timeout under -v: one cause line, no stack", async () => {
    t = await startTestEnv();
    t.sandbox.faults.delayNext("/v2/access-api/user/token", 1, 3000);
    const r = await t.capture(["-v", "token", "--user", "user-demo", "--retries", "0", "--timeout", "0.5"]);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/no answer within 0.5 s/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it("a key from SIMADMIN_API_KEY that the service refuses is told it came from the environment", async () => {
    t = await startTestEnv();
    const r = await t.capture(["token", "--user", "user-demo"], { env: { SIMADMIN_API_KEY: "sk_wrong_key_0000" } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/the key came from SIMADMIN_API_KEY in the environment/);
    expect(r.stderr).not.toMatch(/auth login/);
  });
});

describe("hints that are true (issue 15 item 5)", () => {
  it("`help nope` says unknown command, exit 2", async () => {
    const r = await runCli(["help", "nope"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("error: unknown command 'nope'; run `simadmin --help` for the list of commands\n");
  });

  it("the -o help names every command that accepts text, and each of them does", async () => {
    const help = await runCli(["help", "options"], { columns: 200, stdoutIsTTY: true });
    const line = help.stdout.replace(/\s+/g, " ");
    // The list comes from the command declarations (their `outputs`), in help order.
    expect(line).toContain(
      "text (the bare value) for config get, config path, assign, token, link, completion-script, api and with --query",
    );
    const env = await cacheEnv();
    for (const args of [
      ["token", "--user", "user-demo"],
      ["link", "--user", "user-demo", "--sim", "sim-001"],
      ["assign", "--user", "user-demo", "--sim", "sim-002"],
      ["config", "path"],
    ]) {
      const r = await runCli(["--sandbox", ...args, "-o", "text"], { env });
      expect(r.exitCode, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stdout.trim().split("\n")).toHaveLength(1);
    }
  });

  it("`help reports` still shows the command's help", async () => {
    const r = await runCli(["help", "reports"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/Usage: simadmin reports/);
  });

  it("a format from --out or the profile is named as such, never as an -o the user did not type", async () => {
    const env = await cacheEnv();
    const out = await runCli(["--sandbox", "library", "--user", "user-demo", "--out", "sims.txt"], { env });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/`library` has no single value to print as text \(--out sims\.txt\)/);
    expect(out.stderr).not.toMatch(/-o text/);
  });

  it("`--profile staging auth logout` (the README example) of a profile never created is not an error", async () => {
    const settings = await tempDir();
    cleanups.push(() => settings.remove());
    const r = await runCli(["--profile", "staging", "auth", "logout"], { env: { SIMADMIN_CONFIG_DIR: settings.path } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/No stored key for profile 'staging'; nothing to remove/);
  });
});
