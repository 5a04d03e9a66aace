import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAST, MATRIX_DIALECTS, ROOMY, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// library through the real program, in-process, against the sandbox: exact request bodies, page walks,
// formats, and the failures that must send nothing.

const LIBRARY_PATH = "/v2/access-api/simulation/library";

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

  describe("library: requests", () => {
    it("sends exactly organizationId and userId by default and prints the service's first page as JSON", async () => {
      const r = await run(["library", "--user", "user-demo", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((q) => [q.path, q.body])).toEqual([[LIBRARY_PATH, { organizationId: "org-demo", userId: "user-demo" }]]);
      const sims = JSON.parse(r.stdout) as Record<string, unknown>[];
      expect(sims).toHaveLength(Math.min(10, t.sandbox.dialect.library.maxPageSize)); // the default page, or the service's cap
      // JSON keeps every field, including ones the spec does not show (tags).
      expect(Object.keys(sims[0] ?? {})).toEqual(["id", "title", "type", "duration", "description", "tags"]);
      expect(r.stderr).toMatch(/more (may )?follow: --page 2, or --all/);
    });

    it("says more may follow only after a full page (one result is the last page)", async () => {
      const r = await run(["library", "--user", "user-demo", "--search", "Cold Call Opener", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(1);
      expect(r.stderr).not.toContain("more may follow");
    });

    it("sends tags as an array, searchTerm, page and pageSize only when given", async () => {
      const r = await run([
        "library",
        "--user",
        "user-demo",
        "--tag",
        "sales",
        "--tag",
        "beginner",
        "--search",
        "call",
        "--page",
        "1",
        "--page-size",
        "5",
        "-o",
        "json",
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((q) => q.body)).toEqual([
        {
          organizationId: "org-demo",
          userId: "user-demo",
          tags: ["sales", "beginner"],
          searchTerm: "call",
          page: 1,
          pageSize: 5,
        },
      ]);
      const ids = (JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id);
      expect(ids).toContain("sim-001"); // "Cold Call Opener": sales, beginner
      expect(r.stderr).not.toContain("more may follow"); // a short page is the last one
    });

    it("takes organizationId from --org over the environment", async () => {
      const r = await run(["--org", "org-other", "library", "--user", "user-demo", "-o", "json"]);
      expect(r.sent[0]?.body).toMatchObject({ organizationId: "org-other" });
    });
  });

  describe("library --all", () => {
    it("walks pages of --page-size until a short page: 32 simulations in pages of 7 are 5 requests", async () => {
      const r = await run(["library", "--user", "user-demo", "--all", "--page-size", "7", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((q) => q.body)).toEqual(
        [1, 2, 3, 4, 5].map((page) => ({ organizationId: "org-demo", userId: "user-demo", page, pageSize: 7 })),
      );
      const ids = (JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id);
      expect(ids).toHaveLength(32);
      expect(new Set(ids).size).toBe(32);
      expect(ids[0]).toBe("sim-001");
      expect(r.stderr).toContain("32 simulations from 5 pages (up to 7 a page)");
      expect(r.stderr).not.toMatch(/pages of \d/);
    });

    it("returns all 32 simulations without --page-size, whatever the service's page cap, envelope or metadata", async () => {
      const r = await run(["library", "--user", "user-demo", "--all", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const ids = (JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id);
      expect(new Set(ids).size).toBe(32);
      expect(ids).toHaveLength(32);
    });

    it("stops at an empty page when the total is a multiple of the page size (32 in 8s: 5 requests)", async () => {
      const r = await run(["library", "--user", "user-demo", "--all", "--page-size", "8", "-o", "ndjson"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent).toHaveLength(5);
      expect(r.stdout.trim().split("\n")).toHaveLength(32);
    });

    it("uses 50 a page without --page-size and keeps the filters on every page", async () => {
      const r = await run(["library", "--user", "user-demo", "--all", "--tag", "support", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      // Page 1 is shorter than asked: it may be the service's cap, so page 2 (empty) confirms the end.
      expect(r.sent.map((q) => q.body)).toEqual(
        [1, 2].map((page) => ({ organizationId: "org-demo", userId: "user-demo", tags: ["support"], page, pageSize: 50 })),
      );
      // The seed's 12 simulations tagged support, all on page 1.
      expect(JSON.parse(r.stdout) as unknown[]).toHaveLength(12);
    });

    it("follows pagination metadata when the service sends some (hasMore beats a short page)", async () => {
      const sim = (id: string) => ({ id, title: `T ${id}`, type: "audio", duration: "5 min", description: "d" });
      t.sandbox.faults.respondNext(LIBRARY_PATH, 1, { status: 200, body: { simulations: [sim("a"), sim("b")], hasMore: true } });
      t.sandbox.faults.respondNext(LIBRARY_PATH, 1, { status: 200, body: { simulations: [sim("c")], hasMore: false } });
      const r = await run(["library", "--user", "user-demo", "--all", "--page-size", "10", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent.map((q) => (q.body as { page: number }).page)).toEqual([1, 2]);
      expect((JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id)).toEqual(["a", "b", "c"]);
    });

    it("prints what it has and exits 8 when the service ignores page (completeness cannot be known)", async () => {
      const body = { simulations: Array.from({ length: 2 }, (_, i) => ({ id: `s${i}`, title: "t" })) };
      t.sandbox.faults.respondNext(LIBRARY_PATH, 2, { status: 200, body });
      const r = await run(["library", "--user", "user-demo", "--all", "--page-size", "2", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(8);
      expect(r.sent).toHaveLength(2);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
      expect(r.stderr).toMatch(/page 2 repeated page 1: the service seems to ignore `page`.*cannot be known/);
    });

    it("ends quietly when a service answers the last page again past the end", async () => {
      const sim = (id: string) => ({ id, title: `T ${id}` });
      t.sandbox.faults.respondNext(LIBRARY_PATH, 1, { status: 200, body: { simulations: [sim("a"), sim("b")] } });
      t.sandbox.faults.respondNext(LIBRARY_PATH, 2, { status: 200, body: { simulations: [sim("c"), sim("d")] } });
      const r = await run(["library", "--user", "user-demo", "--all", "--page-size", "2", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent).toHaveLength(3);
      expect((JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id)).toEqual(["a", "b", "c", "d"]);
    });

    it("keeps each simulation once when a page shifts by one while it walks (one added meanwhile)", async () => {
      const sim = (id: string) => ({ id, title: `T ${id}`, type: "audio", duration: "5 min", description: "d" });
      t.sandbox.faults.respondNext(LIBRARY_PATH, 1, { status: 200, body: { simulations: [sim("a"), sim("b"), sim("c")] } });
      t.sandbox.faults.respondNext(LIBRARY_PATH, 1, { status: 200, body: { simulations: [sim("c"), sim("d")] } });
      const r = await run(["library", "--user", "user-demo", "--all", "--page-size", "3", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.sent).toHaveLength(2);
      expect((JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id)).toEqual(["a", "b", "c", "d"]);
    });
  });

  describe("library: formats", () => {
    it("prints a table with id, title, type, duration and description only", async () => {
      const r = await run(["library", "--user", "user-demo", "--page-size", "3", "-o", "table"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const header = r.stdout.split("\n")[1] ?? "";
      expect(
        header
          .split("│")
          .map((c) => c.trim())
          .filter(Boolean),
      ).toEqual(["id", "title", "type", "duration", "description"]);
      expect(r.stdout).toContain("Cold Call Opener");
      expect(r.stdout).not.toContain("tags");
      // Not a terminal: 120 columns; ids and titles whole, the description wrapped to fit, never cut.
      for (const line of r.stdout.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(120);
      expect(r.stdout).not.toContain("…");
    });

    it("writes CSV with every field, arrays as JSON text", async () => {
      const r = await run(["library", "--user", "user-demo", "--page-size", "2", "-o", "csv"]);
      expect(r.exitCode, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      expect(lines[0]).toBe("id,title,type,duration,description,tags");
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/^sim-001,Cold Call Opener,audio,5-10 min,/);
    });

    it("keeps --fields in order for CSV", async () => {
      const r = await run(["library", "--user", "user-demo", "--page-size", "2", "-o", "csv", "--fields", "title,id"]);
      expect(r.stdout.split("\n").slice(0, 2)).toEqual(["title,id", "Cold Call Opener,sim-001"]);
    });

    it("writes one JSON object a line with ndjson", async () => {
      const r = await run(["library", "--user", "user-demo", "--page-size", "4", "-o", "ndjson"]);
      const lines = r.stdout.trimEnd().split("\n");
      expect(lines).toHaveLength(4);
      expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(["sim-001", "sim-002", "sim-003", "sim-004"]);
    });

    it("prints an empty JSON list when no simulation matches", async () => {
      const r = await run(["library", "--user", "user-demo", "--search", "no-such-simulation-anywhere", "-o", "json"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
    });
  });

  describe("library: refusals", () => {
    it("refuses bad paging and filter flags with exit 2 naming the flag, sending nothing", async () => {
      const cases: [string[], string][] = [
        [["--page", "0"], "--page"],
        [["--page", "abc"], "--page"],
        [["--page-size", "0"], "--page-size"],
        [["--page-size", "101"], "--page-size"],
        [["--page-size", "2.5"], "--page-size"],
        [["--all", "--page", "2"], "--all"],
        [["--tag", ""], "--tag"],
        [["-o", "text"], "-o text"],
      ];
      const before = t.sandbox.requests.length;
      // Nothing may be sent, so the runs can share the sandbox at once (and the suite stays fast).
      const results = await Promise.all(
        cases.map(([extra]) => t.run(["library", "--user", "user-demo", ...extra], { env: FAST })),
      );
      results.forEach((r, i) => {
        const [extra, flag] = cases[i] ?? [[], ""];
        expect({ args: extra, exitCode: r.exitCode, names: r.stderr.includes(flag) }).toEqual({
          args: extra,
          exitCode: 2,
          names: true,
        });
      });
      expect(t.sandbox.requests.length).toBe(before);
    });

    it("needs version 2: exit 2 under --api-version 1 with nothing sent", async () => {
      const r = await run(["--api-version", "1", "library", "--user", "user-demo"]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/library.*needs API version 2/);
      expect(r.sent).toEqual([]);
    });

    it("needs an organization: exit 2 naming --org with nothing sent", async () => {
      const r = await run(["library", "--user", "user-demo"], { SIMADMIN_ORG: undefined });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain("--org");
      expect(r.sent).toEqual([]);
    });

    it("reports a read-only key's 403 with exit 4", async () => {
      const r = await run(["library", "--user", "user-demo"], { SIMADMIN_API_KEY: t.sandbox.keys.readOnly });
      expect(r.exitCode, r.stderr).toBe(4);
      expect(r.stderr).toContain("403");
    });

    it("reports an unknown user with exit 5 naming the user", async () => {
      const r = await run(["library", "--user", "nobody"]);
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.stderr).toContain('"nobody"');
      expect(r.stderr).toContain("--user");
    });
  });
});
