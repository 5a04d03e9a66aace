import { afterAll, describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../src/sandbox/server.js";
import type { ImportRow } from "../../src/sandbox/users-csv.js";
import { MATRIX_DIALECTS, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// import-status through the real program, in-process,: a status read is exit 0 whatever it says; --wait
// ends 0, 10 or 9; an unknown task is 5; other answer shapes are read by shape.

const STATUS = "/v2/access-api/user/bulk-import/status";

// The tests run side by side (describe.concurrent), each with a sandbox of its own: the --wait
// ones are import steps and polls, mostly waiting (docs/development.md, "How long the suite
// takes").
describe.each(MATRIX_DIALECTS)("against the %s dialect", (dialect) => {
  const envs: TestEnv[] = [];
  afterAll(async () => {
    await Promise.all(envs.splice(0).map((t) => t.close()));
  });

  async function env(options: SandboxOptions = {}): Promise<TestEnv> {
    const t = await startTestEnv({
      rateLimits: { access: { limit: 10_000, windowMs: 1000 } },
      importStepMs: 100,
      dialect,
      ...options,
    });
    envs.push(t);
    return t;
  }

  function row(i: number, domain = "example.com"): ImportRow {
    const email = `status${i}@${domain}`;
    return {
      row: 2,
      firstName: `F${i}`,
      lastName: `L${i}`,
      email,
      username: email,
      role: "trainee",
      teamName: "",
      status: "ACTIVE",
      action: "Add",
    };
  }

  /** A task made directly in the sandbox's state, as an earlier upload would have. */
  function task(e: TestEnv, domain = "example.com", i = 1): string {
    return e.sandbox.state.createImportTask(e.sandbox.org, "t.csv", [row(i, domain)]).taskId;
  }

  async function run(e: TestEnv, args: string[]) {
    return e.capture(args);
  }

  describe.concurrent("import-status", () => {
    it("prints each task's status without waiting (exit 0 even for a FAILED one)", async () => {
      const e = await env();
      const ok = task(e);
      const failing = task(e, "fail.example.com", 2);
      await new Promise((r) => setTimeout(r, 300));
      const r = await run(e, ["import-status", "--task", ok, "--task", failing, "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        { taskId: ok, status: "COMPLETED" },
        { taskId: failing, status: "FAILED" },
      ]);
      expect(r.sent.map((s) => [s.path, s.body])).toEqual([
        [STATUS, { organizationId: "org-demo", taskId: ok }],
        [STATUS, { organizationId: "org-demo", taskId: failing }],
      ]);
      expect(r.stderr).toContain("2 tasks: 1 COMPLETED, 1 FAILED");
    });

    // Waits take real time: default dialect only (the status read above runs in every dialect).
    it.runIf(dialect === "default")("--wait polls until COMPLETED and ends 0", async () => {
      // Steps long enough that the first read still finds the task running.
      const e = await env({ importStepMs: 1500 });
      const id = task(e);
      const r = await run(e, ["import-status", "--task", id, "--wait", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([{ taskId: id, status: "COMPLETED" }]);
      expect(r.sent.length).toBeGreaterThanOrEqual(2);
    });

    it.runIf(dialect === "default")("--wait ends 10 naming the FAILED task", async () => {
      const e = await env();
      const id = task(e, "fail.example.com");
      const r = await run(e, ["import-status", "--task", id, "--wait", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(10);
      expect(r.stderr).toContain(`import task ${id} ended FAILED`);
      expect(JSON.parse(r.stdout)).toEqual([{ taskId: id, status: "FAILED" }]);
    });

    it.runIf(dialect === "default")("--wait ends 9 when --wait-timeout passes first", async () => {
      const e = await env({ importStepMs: 60_000 });
      const id = task(e);
      const r = await run(e, ["import-status", "--task", id, "--wait", "--wait-timeout", "1s", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(9);
      expect(r.stderr).toContain(`import task ${id} did not finish within 1s`);
      expect(JSON.parse(r.stdout)).toEqual([{ taskId: id, status: "SCHEDULED" }]);
    });

    it("an unknown task is exit 5", async () => {
      const e = await env();
      const r = await run(e, ["import-status", "--task", "task-nope"]);
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toContain('import task "task-nope" not found (404)');
    });

    it("reads a status answer of another shape, keeping its other fields", async () => {
      const e = await env();
      e.sandbox.faults.respondNext(STATUS, 1, { status: 200, body: { task: { id: "x", state: "STARTED" }, progress: 40 } });
      const r = await run(e, ["import-status", "--task", "x", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        { taskId: "x", status: "STARTED", task: { id: "x", state: "STARTED" }, progress: 40 },
      ]);
    });

    it("an answer without a status is exit 8, never guessed", async () => {
      const e = await env();
      e.sandbox.faults.respondNext(STATUS, 1, { status: 200, body: { ok: true } });
      const r = await run(e, ["import-status", "--task", "x"]);
      expect(r.exitCode).toBe(8);
      expect(r.stderr).toContain("the service answered something unexpected");
    });

    it("is version 2 only", async () => {
      const e = await env();
      const r = await run(e, ["--api-version", "1", "import-status", "--task", "x"]);
      expect(r.exitCode).toBe(2);
      expect(r.sent).toEqual([]);
    });
  });
});
