// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FAST, ROOMY, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// The in-process harness is only honest if a run leaves the process as it found it: the
// binary gets a fresh process each time, these runs share one. Each test names a piece of
// process-wide state that a run could leave behind.

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv(ROOMY);
});
afterAll(() => t.close());

const TOKEN = "/v2/access-api/user/token";

function openSockets(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "TCPSocketWrap").length;
}

describe("consecutive in-process runs", () => {
  it("install no signal handlers and set no process.exitCode, whatever the outcome", async () => {
    const listeners = (): number[] => ["SIGINT", "SIGTERM", "SIGPIPE"].map((s) => process.listenerCount(s));
    const before = listeners();
    const exitCode = process.exitCode;
    expect((await t.capture(["token", "--user", "user-demo"])).exitCode).toBe(0);
    expect((await t.capture(["token", "--user", "nobody"])).exitCode).toBe(5);
    expect((await t.capture(["token"])).exitCode).toBe(2);
    expect(listeners()).toEqual(before);
    expect(process.exitCode).toBe(exitCode);
  });

  it("leave no keep-alive connection open after the run", async () => {
    const before = openSockets();
    const r = await t.capture(["library", "--user", "user-demo", "--all", "--page-size", "2", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent.length).toBeGreaterThan(2); // several requests over one kept-alive connection
    await vi.waitFor(() => expect(openSockets()).toBe(before));
  });

  it("do not close a connection another run in the same process is still using", async () => {
    t.sandbox.faults.delayNext(TOKEN, 1, 500);
    const slow = t.capture(["token", "--user", "user-demo", "--retries", "0"]);
    // Meanwhile other runs start and finish, each closing its connections on the way out.
    for (let i = 0; i < 3; i++) expect((await t.capture(["library", "--user", "user-demo", "-o", "json"])).exitCode).toBe(0);
    const r = await slow;
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it("keep no settings between runs: a key given to one run is unknown to the next", async () => {
    expect((await t.capture(["token", "--user", "user-demo"])).exitCode).toBe(0);
    const r = await t.capture(["token", "--user", "user-demo"], { env: { SIMADMIN_API_KEY: undefined } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/SIMADMIN_API_KEY/);
  });

  it("leave process.env alone: the run's env is its own", async () => {
    const before = { ...process.env };
    await t.capture(["library", "--user", "user-demo"], { env: { NO_COLOR: "1", SIMADMIN_PROFILE: "default" } });
    expect(process.env).toEqual(before);
  });

  it("restore the working directory after a run given one, also when it fails", async () => {
    const cwd = process.cwd();
    const dir = await tempDir();
    try {
      const r = await runCli(["users", "import", "missing.csv", "--dry-run"], { cwd: dir.path, env: { ...t.env, ...FAST } });
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain("missing.csv");
      expect(process.cwd()).toBe(cwd);
    } finally {
      await dir.remove();
    }
  });
});
