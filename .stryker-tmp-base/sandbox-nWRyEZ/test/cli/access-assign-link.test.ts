// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAST, MATRIX_DIALECTS, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// assign, unassign, token and link through the real program, in-process, against the sandbox.

const ASSIGNMENT = "/v2/access-api/simulation/assignment";
const DEEP_LINKS_V2 = "/v2/access-api/simulation/deep-links";
const TOKEN = "/v2/access-api/user/token";
const ROOMY = { rateLimits: { access: { limit: 10_000, windowMs: 1000 } } };

describe.each(MATRIX_DIALECTS)("against the %s dialect", (dialect) => {
  let t: TestEnv;
  /** A sandbox whose deep links already carry a query string. */
  let q: TestEnv;
  beforeAll(async () => {
    [t, q] = await Promise.all([
      startTestEnv({ ...ROOMY, dialect }),
      startTestEnv({ ...ROOMY, dialect, deepLinkQuery: "lang=en&ref=mail%20campaign" }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t.close(), q.close()]);
  });

  async function run(env: TestEnv, args: string[], extraEnv: Record<string, string | undefined> = {}) {
    return env.capture(args, { env: extraEnv });
  }

  const isAssigned = (sim: string) => t.sandbox.state.isAssigned("org-demo", "user-demo", sim);

  describe("assign / unassign", () => {
    it("assigns with exactly the spec's fields and prints the deep link", async () => {
      expect(isAssigned("sim-010")).toBe(false);
      const r = await run(t, ["assign", "--user", "user-demo", "--sim", "sim-010", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((s) => [s.path, s.body])).toEqual([
        [ASSIGNMENT, { organizationId: "org-demo", userId: "user-demo", simulationId: "sim-010", assign: true }],
      ]);
      expect(JSON.parse(r.stdout)).toEqual({
        userId: "user-demo",
        simulationId: "sim-010",
        assigned: true,
        deepLink: "https://app.sandbox.simadmin.test/org-demo/simulation/sim-010",
        success: true,
      });
      expect(isAssigned("sim-010")).toBe(true);
    });

    it("prints the bare deep link with -o text and a field/value table with -o table", async () => {
      const [text, table] = await Promise.all([
        run(t, ["assign", "--user", "user-demo", "--sim", "sim-011", "-o", "text"]),
        run(t, ["assign", "--user", "user-demo", "--sim", "sim-012", "-o", "table"]),
      ]);
      expect(text.exitCode, text.stderr).toBe(0);
      expect(text.stdout).toBe("https://app.sandbox.simadmin.test/org-demo/simulation/sim-011\n");
      expect(table.exitCode, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/^deepLink:\s+https:\/\/app\.sandbox\.simadmin\.test\/org-demo\/simulation\/sim-012$/m);
    });

    it("unassigns and confirms with assigned=false and the service's answer", async () => {
      t.sandbox.state.setAssigned("org-demo", "user-demo", "sim-013", true);
      const r = await run(t, ["unassign", "--user", "user-demo", "--sim", "sim-013", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((s) => s.body)).toEqual([
        { organizationId: "org-demo", userId: "user-demo", simulationId: "sim-013", assign: false },
      ]);
      expect(JSON.parse(r.stdout)).toEqual({ userId: "user-demo", simulationId: "sim-013", assigned: false, success: true });
      expect(isAssigned("sim-013")).toBe(false);
    });

    it("writes unassign as CSV and ndjson; refuses -o text before sending", async () => {
      const [csv, ndjson, text] = await Promise.all([
        run(t, ["unassign", "--user", "user-demo", "--sim", "sim-014", "-o", "csv"]),
        run(t, ["unassign", "--user", "user-demo", "--sim", "sim-015", "-o", "ndjson"]),
        run(t, ["unassign", "--user", "user-demo", "--sim", "sim-016", "-o", "text"]),
      ]);
      expect(csv.stdout).toBe("userId,simulationId,assigned,success\nuser-demo,sim-014,false,true\n");
      expect(JSON.parse(ndjson.stdout)).toMatchObject({ simulationId: "sim-015", assigned: false });
      expect(text.exitCode, text.stderr).toBe(2);
      expect(t.sandbox.requests.some((s) => (s.body as { simulationId?: string } | undefined)?.simulationId === "sim-016")).toBe(
        false,
      );
    });

    it.each([
      ["assign", "an unknown simulation", ["--user", "user-demo", "--sim", "sim-999"], '"sim-999"'],
      ["assign", "an unknown user", ["--user", "nobody", "--sim", "sim-001"], '"nobody"'],
      ["unassign", "an unknown simulation", ["--user", "user-demo", "--sim", "sim-999"], '"sim-999"'],
    ])("%s reports %s as not found (exit 5) naming it", async (command, _what, args, named) => {
      const r = await run(t, [command, ...args]);
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.stderr).toMatch(/^error: assignment: not found \(404\)/);
      expect(r.stderr).toContain(named);
      expect(r.stderr).toContain("--sim");
    });

    it("reports the read-only key's 403 with exit 4 and leaves the assignment unchanged", async () => {
      const r = await run(t, ["assign", "--user", "user-demo", "--sim", "sim-020"], {
        SIMADMIN_API_KEY: t.sandbox.keys.readOnly,
      });
      expect(r.exitCode, r.stderr).toBe(4);
      expect(r.stderr).toContain("permission");
      expect(isAssigned("sim-020")).toBe(false);
    });
  });

  describe("token", () => {
    it("prints a valid token with expiresIn and an absolute expiresAt", async () => {
      const started = Date.now();
      const r = await run(t, ["token", "--user", "user-demo", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((s) => [s.path, s.body])).toEqual([[TOKEN, { organizationId: "org-demo", userId: "user-demo" }]]);
      const out = JSON.parse(r.stdout) as { userId: string; token: string; expiresIn: number; expiresAt: string };
      expect(out.userId).toBe("user-demo");
      expect(out.expiresIn).toBe(3600);
      const expiresAt = Date.parse(out.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(started + 3600_000 - 1000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
      expect(t.sandbox.state.verifyUserToken(out.token)).toMatchObject({ valid: true, userId: "user-demo" });
    });

    it("prints the bare token with -o text and never shows it on stderr, even with --verbose", async () => {
      const r = await run(t, ["--verbose", "token", "--user", "user-demo", "-o", "text"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const token = r.stdout.trimEnd();
      expect(r.stdout).toBe(`${token}\n`);
      expect(t.sandbox.state.verifyUserToken(token).valid).toBe(true);
      expect(r.stderr).toContain("POST /v2/access-api/user/token");
      expect(r.stderr).not.toContain(token);
      expect(r.stderr).not.toContain(t.sandbox.keys.full);
    });

    it("reports an unknown user with exit 5 naming --user", async () => {
      const r = await run(t, ["token", "--user", "nobody"]);
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.stderr).toContain('"nobody"');
      // The service's own sentence, whatever its error body looks like (issue 21 item 4).
      expect(r.stderr).toContain('not found (404): user "nobody" not found in organization "org-demo"');
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    });
  });

  describe("link", () => {
    it("composes deep link and token, keeping the deep link's own query, the token encoded", async () => {
      const r = await run(q, ["link", "--user", "user-demo", "--sim", "sim-001", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((s) => [s.path, s.body])).toEqual([
        [DEEP_LINKS_V2, { organizationId: "org-demo", userId: "user-demo", simulationId: "sim-001" }],
        [TOKEN, { organizationId: "org-demo", userId: "user-demo" }],
      ]);
      const out = JSON.parse(r.stdout) as Record<string, string>;
      expect(Object.keys(out)).toEqual(["userId", "simulationId", "link", "deepLink", "expiresAt"]);
      expect(out.deepLink).toBe("https://app.sandbox.simadmin.test/org-demo/simulation/sim-001?lang=en&ref=mail%20campaign");
      const link = out.link ?? "";
      // The deep link's query is kept byte for byte, then &token=.
      expect(link.startsWith(`${out.deepLink}&token=`)).toBe(true);
      const url = new URL(link);
      expect(url.searchParams.get("lang")).toBe("en");
      expect(url.searchParams.get("ref")).toBe("mail campaign");
      const token = url.searchParams.get("token") ?? "";
      // Sandbox tokens always hold +, / and =: they must arrive encoded.
      expect(token).toMatch(/[+/=]/);
      expect(link).not.toMatch(/token=[^&]*[+/=]/);
      expect(q.sandbox.state.verifyUserToken(token)).toMatchObject({ valid: true, userId: "user-demo" });
    });

    it("prints the bare link with -o text and keeps the token out of --verbose traces", async () => {
      const r = await run(t, ["-v", "link", "--user", "user-demo", "--sim", "sim-002", "-o", "text"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const link = r.stdout.trimEnd();
      expect(link.startsWith("https://app.sandbox.simadmin.test/org-demo/simulation/sim-002?token=")).toBe(true);
      const token = new URL(link).searchParams.get("token") ?? "";
      expect(t.sandbox.state.verifyUserToken(token).valid).toBe(true);
      expect(r.stderr).not.toContain(token);
      expect(r.stderr).not.toContain(encodeURIComponent(token));
    });

    it("takes the deep link from the assignment with --assign, and assigns", async () => {
      expect(isAssigned("sim-021")).toBe(false);
      const r = await run(t, ["link", "--user", "user-demo", "--sim", "sim-021", "--assign", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((s) => s.path)).toEqual([ASSIGNMENT, TOKEN]);
      expect(r.sent[0]?.body).toEqual({ organizationId: "org-demo", userId: "user-demo", simulationId: "sim-021", assign: true });
      expect(isAssigned("sim-021")).toBe(true);
      expect((JSON.parse(r.stdout) as { link: string }).link).toMatch(/\/sim-021\?token=/);
    });

    it("prints key: value lines, the link whole on its own line even on an 80-column terminal (issue 15 item 1)", async () => {
      const r = await t.capture(["link", "--user", "user-demo", "--sim", "sim-001"], {
        stdoutIsTTY: true,
        columns: 80,
        env: { NO_COLOR: "1" },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const link = /^link:\s+(\S+)$/m.exec(r.stdout)?.[1] ?? "";
      expect(link.length).toBeGreaterThan(80);
      expect(link).toMatch(/^https:\/\/app\.sandbox\.simadmin\.test\/org-demo\/simulation\/sim-001\?token=[^…]+$/);
      const token = decodeURIComponent(link.split("token=")[1] ?? "");
      expect(t.sandbox.state.verifyUserToken(token)).toMatchObject({ valid: true, userId: "user-demo" });
      expect(r.stdout).toMatch(/^expiresAt:\s+\d{4}-\d{2}-\d{2}T/m);
      expect(r.stdout).not.toContain("…");
    });

    it("reports an unknown simulation with exit 5 before asking for a token", async () => {
      const r = await run(t, ["link", "--user", "user-demo", "--sim", "sim-999"]);
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.stderr).toContain('"sim-999"');
      expect(r.sent.map((s) => s.path)).toEqual([DEEP_LINKS_V2]);
    });
  });

  describe("version 1 and missing organization", () => {
    it("refuses every v2-only command and link (its token is v2-only) under --api-version 1, sending nothing", async () => {
      const before = t.sandbox.requests.length;
      const runs = await Promise.all(
        [
          ["assign", "--user", "user-demo", "--sim", "sim-001"],
          ["unassign", "--user", "user-demo", "--sim", "sim-001"],
          ["token", "--user", "user-demo"],
          ["link", "--user", "user-demo", "--sim", "sim-001"],
          ["link", "--user", "user-demo", "--sim", "sim-001", "--assign"],
        ].map((args) => t.run(["--api-version", "1", ...args], { env: FAST })),
      );
      for (const r of runs) {
        expect(r.exitCode, r.stderr).toBe(2);
        expect(r.stderr).toContain("needs API version 2");
      }
      expect(runs[3]?.stderr).toContain("user token");
      expect(t.sandbox.requests.length).toBe(before);
    });

    it("needs an organization for each command: exit 2 naming --org, nothing sent", async () => {
      const before = t.sandbox.requests.length;
      const runs = await Promise.all(
        [
          ["assign", "--user", "user-demo", "--sim", "sim-001"],
          ["unassign", "--user", "user-demo", "--sim", "sim-001"],
          ["token", "--user", "user-demo"],
          ["link", "--user", "user-demo", "--sim", "sim-001"],
        ].map((args) => t.run(args, { env: { ...FAST, SIMADMIN_ORG: undefined } })),
      );
      for (const r of runs) {
        expect(r.exitCode, r.stderr).toBe(2);
        expect(r.stderr).toContain("--org");
      }
      expect(t.sandbox.requests.length).toBe(before);
    });
  });
});
