// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAST, MATRIX_DIALECTS, ROOMY, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// completion through the real program, in-process, against the sandbox: attempts in every state, --since,
// an inconsistent record, --wait until a completion appears and until the time runs out.

const COMPLETION_V2 = "/v2/access-api/simulation/completion-data";

describe.each(MATRIX_DIALECTS)("against the %s dialect", (dialect) => {
  let t: TestEnv;
  beforeAll(async () => {
    t = await startTestEnv({ ...ROOMY, dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  async function run(args: string[], env: Record<string, string | undefined> = {}) {
    return t.capture(args, { env });
  }

  interface Row {
    executionId: string;
    state: string;
    status: string;
    completedAt: string | null;
    completionTime: number | null;
    duration: string | null;
    score: number | null;
  }

  describe("completion: states", () => {
    it("lists every attempt of sim-001 with its state and a summary on stderr", async () => {
      const r = await run(["completion", "--user", "user-demo", "--sim", "sim-001", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((s) => [s.path, s.body])).toEqual([
        [COMPLETION_V2, { organizationId: "org-demo", userId: "user-demo", simulationId: "sim-001" }],
      ]);
      const rows = JSON.parse(r.stdout) as Row[];
      expect(rows.map((a) => [a.executionId, a.state, a.status])).toEqual([
        ["exec-0001", "incomplete", "INTERRUPTED"],
        ["exec-0002", "completed", "COMPLETED"],
        ["exec-0003", "completed", "COMPLETED"],
        ["exec-0004", "incomplete", "STARTED"],
      ]);
      // JSON keeps the seconds (and the service's other fields) beside the readable duration.
      expect(rows[1]).toMatchObject({
        completedAt: "2026-01-06T10:11:42Z",
        completionTime: 702,
        duration: "11m 42s",
        score: 78.5,
        symScore: 80,
      });
      expect(rows[0]).toMatchObject({ completedAt: null, completionTime: null, duration: null, score: null });
      expect(r.stderr).toContain("4 attempts, 2 completed — best score 91.25, latest 91.25 (2026-01-12T14:39:05Z)");
    });

    it("shows only incomplete attempts of sim-002 and no attempts of sim-003", async () => {
      const [two, three] = await Promise.all([
        run(["completion", "--user", "user-demo", "--sim", "sim-002", "-o", "json"]),
        run(["completion", "--user", "user-demo", "--sim", "sim-003", "-o", "json"]),
      ]);
      expect((JSON.parse(two.stdout) as Row[]).map((a) => a.state)).toEqual(["incomplete", "incomplete"]);
      expect(two.stderr).toContain("2 attempts, 0 completed");
      expect(three.exitCode, three.stderr).toBe(0);
      expect(JSON.parse(three.stdout)).toEqual([]);
      expect(three.stderr).toContain("no attempts");
    });

    it("prints a table with a readable duration, CSV with every field, and ndjson", async () => {
      const [table, csv, ndjson] = await Promise.all([
        run(["completion", "--user", "user-demo", "--sim", "sim-001", "-o", "table"]),
        run(["completion", "--user", "user-demo", "--sim", "sim-001", "-o", "csv"]),
        run(["completion", "--user", "user-demo", "--sim", "sim-001", "-o", "ndjson"]),
      ]);
      const header = (table.stdout.split("\n")[1] ?? "")
        .split("│")
        .map((c) => c.trim())
        .filter(Boolean);
      expect(header).toEqual(["executionId", "state", "status", "completedAt", "duration", "score"]);
      expect(table.stdout).toContain("2026-01-06T10:11:42Z"); // the table fits: nothing shortened
      expect(table.stdout).toContain("11m 42s");
      const lines = csv.stdout.trimEnd().split("\n");
      expect(lines[0]?.startsWith("executionId,state,status,completedAt,completionTime,duration,score,")).toBe(true);
      expect(lines.find((l) => l.startsWith("exec-0003"))).toContain(",2026-01-12T14:39:05Z,545,9m 5s,91.25,");
      expect(
        ndjson.stdout
          .trimEnd()
          .split("\n")
          .map((l) => (JSON.parse(l) as Row).state),
      ).toEqual(["incomplete", "completed", "completed", "incomplete"]);
    });

    it("marks an attempt with only one of completedAt/completionTime inconsistent, warning with its executionId", async () => {
      t.sandbox.faults.respondNext(COMPLETION_V2, 1, {
        status: 200,
        body: {
          completionData: [
            {
              executionId: "exec-odd",
              completedAt: "2026-02-01T10:00:00Z",
              completionTime: null,
              score: 50,
              status: "COMPLETED",
            },
            { executionId: "exec-ok", completedAt: "2026-02-02T10:00:00Z", completionTime: 300, score: 70, status: "COMPLETED" },
          ],
        },
      });
      const r = await run(["completion", "--user", "user-demo", "--sim", "sim-001", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as Row[]).map((a) => a.state)).toEqual(["inconsistent", "completed"]);
      expect(r.stderr).toMatch(/warning: attempt exec-odd is inconsistent: it has completedAt but no completionTime/);
      expect(r.stderr).toContain("2 attempts, 1 completed, 1 inconsistent — best score 70");
    });

    it("works under --api-version 1 (completion-data exists in both versions)", async () => {
      const r = await run(["--api-version", "1", "completion", "--user", "user-demo", "--sim", "sim-001", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((s) => s.path)).toEqual(["/access-api/simulation/completion-data"]);
      expect(JSON.parse(r.stdout)).toHaveLength(4);
    });
  });

  describe("completion --since", () => {
    it("counts only completions after --since and leaves out attempts that ended before it", async () => {
      const r = await run([
        "completion",
        "--user",
        "user-demo",
        "--sim",
        "sim-001",
        "--since",
        "2026-01-10T00:00:00Z",
        "-o",
        "json",
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as Row[]).map((a) => a.executionId)).toEqual(["exec-0001", "exec-0003", "exec-0004"]);
      expect(r.stderr).toContain("3 attempts after 2026-01-10T00:00:00Z, 1 completed — best score 91.25");
      expect(r.stderr).toContain("1 attempt that ended before 2026-01-10T00:00:00Z not shown");
    });

    it("refuses bad flags with exit 2 before sending anything", async () => {
      const before = t.sandbox.requests.length;
      const cases: [string[], string][] = [
        [["--since", "yesterday"], "--since"],
        [["--since", "2026-02-30"], "--since"],
        [["--interval", "30s"], "--interval applies only with --wait"],
        [["--wait-timeout", "5m"], "--wait-timeout applies only with --wait"],
        [["--wait", "--interval", "30"], "--interval"],
        [["--wait", "--wait-timeout", "0s"], "--wait-timeout"],
        [["-o", "text"], "-o text"],
      ];
      const runs = await Promise.all(
        cases.map(([extra]) => t.run(["completion", "--user", "user-demo", "--sim", "sim-001", ...extra], { env: FAST })),
      );
      runs.forEach((r, i) => {
        const [extra, text] = cases[i] ?? [[], ""];
        expect({ extra, exitCode: r.exitCode, names: r.stderr.includes(text) }).toEqual({ extra, exitCode: 2, names: true });
      });
      expect(t.sandbox.requests.length).toBe(before);
    });
  });

  // The waits take real seconds; the dialects differ only in the answer, which "states" covers.
  describe.runIf(dialect === "default")("completion --wait", () => {
    it("polls until a completed attempt appears, then prints every attempt", async () => {
      const before = t.sandbox.requests.length;
      const running = run([
        "completion",
        "--user",
        "user-demo",
        "--sim",
        "sim-002",
        "--wait",
        "--interval",
        "300ms",
        "--wait-timeout",
        "30s",
        "-o",
        "json",
      ]);
      // The completion appears only after the first poll has found none.
      while (!t.sandbox.requests.slice(before).some((s) => s.path === COMPLETION_V2 && s.status === 200)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      t.sandbox.state.addAttempt("org-demo", "user-demo", "sim-002", {
        status: "COMPLETED",
        executionId: "exec-late",
        score: 88,
      });
      const r = await running;
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.length).toBeGreaterThanOrEqual(2);
      expect(r.sent.every((s) => s.path === COMPLETION_V2)).toBe(true);
      const rows = JSON.parse(r.stdout) as Row[];
      expect(rows.map((a) => a.state)).toEqual(["incomplete", "incomplete", "completed"]);
      expect(rows[2]).toMatchObject({ executionId: "exec-late", score: 88 });
      expect(r.stderr).toContain("waiting for a completed attempt of user-demo on sim-002: checking every 300ms, for up to 30s");
      expect(r.stderr).toContain("3 attempts, 1 completed — best score 88");
    });

    it("ends with exit 9 when --wait-timeout passes without a completion", async () => {
      const started = Date.now();
      const r = await run([
        "completion",
        "--user",
        "user-demo",
        "--sim",
        "sim-004",
        "--wait",
        "--interval",
        "500ms",
        "--wait-timeout",
        "2s",
      ]);
      expect(r.exitCode, r.stderr).toBe(9);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(
        /^error: no completed attempt of user-demo on sim-004 within 2s \(\d+ polls; last: no attempts\); run again with a longer --wait-timeout/m,
      );
      expect(r.sent.length).toBeGreaterThanOrEqual(3);
      expect(r.sent.length).toBeLessThanOrEqual(6);
    });

    it("waits for a completion after --since even when older ones exist", async () => {
      const r = await run([
        "completion",
        "--user",
        "user-demo",
        "--sim",
        "sim-001",
        "--since",
        "2030-01-01T00:00:00Z",
        "--wait",
        "--interval",
        "500ms",
        "--wait-timeout",
        "1s",
      ]);
      expect(r.exitCode, r.stderr).toBe(9);
      expect(r.stderr).toContain("after 2030-01-01T00:00:00Z");
    });

    it("returns at once when a completion already exists, and raises an interval below the budget's floor", async () => {
      // The default access budget (100 / 5 min) allows a poll every 10 s at the shortest.
      const r = await run(["completion", "--user", "user-demo", "--sim", "sim-001", "--wait", "--interval", "1s", "-o", "json"], {
        SIMADMIN_RATE_LIMITS: undefined,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent).toHaveLength(1);
      expect(r.stderr).toContain("warning: --interval 1s is shorter than the access budget allows");
      expect(r.stderr).toContain("polling every 10s");
      expect(r.stderr).toContain("--since");
    });
  });

  describe("completion: failures", () => {
    it("reports unknown user and simulation with exit 5 naming them, and a read-only key with exit 4", async () => {
      const [user, sim, readOnly] = await Promise.all([
        run(["completion", "--user", "nobody", "--sim", "sim-001"]),
        run(["completion", "--user", "user-demo", "--sim", "sim-999"]),
        run(["completion", "--user", "user-demo", "--sim", "sim-001"], { SIMADMIN_API_KEY: t.sandbox.keys.readOnly }),
      ]);
      expect(user.exitCode, user.stderr).toBe(5);
      expect(user.stderr).toContain('user "nobody" not found');
      expect(sim.exitCode, sim.stderr).toBe(5);
      expect(sim.stderr).toContain('simulation "sim-999" not found');
      expect(readOnly.exitCode).toBe(4);
    });

    it("needs an organization: exit 2 naming --org, nothing sent", async () => {
      const r = await run(["completion", "--user", "user-demo", "--sim", "sim-001"], { SIMADMIN_ORG: undefined });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain("--org");
      expect(r.sent).toEqual([]);
    });
  });
});
