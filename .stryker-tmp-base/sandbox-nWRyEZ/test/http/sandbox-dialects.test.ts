// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectFromSeed, resolveDialect } from "../../src/sandbox/dialects.js";
import { generateReport } from "../../src/sandbox/reports.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/server.js";

// Each dialect really answers in its shapes (docs/sandbox-dialects.md): the HTTP answers of the
// public and terse dialects, one sandbox each, and the seed and override forms of a dialect.

interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read answers by shape
}

const ids = { organizationId: "org-demo", userId: "user-demo", simulationId: "sim-003" };
const LIB = "/v2/access-api/simulation/library";

async function post(sb: Sandbox, path: string, body: unknown, key: string = sb.keys.full): Promise<Answer> {
  const res = await fetch(sb.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text, json };
}

async function upload(sb: Sandbox, csv: string): Promise<Answer> {
  const form = new FormData();
  form.set("organizationId", "org-demo");
  form.set("file", new Blob([csv], { type: "text/csv" }), "u.csv");
  const res = await fetch(`${sb.baseUrl}/v2/access-api/user/bulk-import`, {
    method: "POST",
    headers: { authorization: `Bearer ${sb.keys.full}` },
    body: form,
  });
  return { status: res.status, contentType: "", text: "", json: await res.json() };
}

const HEADER = "firstName,lastName,username,email,role,teamName,status,action";
const NEW_ROW = "Ann,New,ann.new@example.com,ann.new@example.com,trainee,Sales,ACTIVE,Add";
const BAD_ROW = "Bob,Bad,bob@example.com,other@example.com,trainee,Sales,ACTIVE,Add";

describe("public dialect (docs/service-notes.md)", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ dialect: "public" });
  });
  afterAll(() => sb.close());

  it("answers deep-links as the documented list, the asked simulation among others and not first", async () => {
    const a = await post(sb, "/v2/access-api/simulation/deep-links", ids);
    expect(a.status).toBe(200);
    const entries = a.json.simulations as { simulationId: string; deepLink: string }[];
    expect(entries.length).toBeGreaterThan(1);
    expect(entries[0]?.simulationId).not.toBe("sim-003");
    expect(entries.find((e) => e.simulationId === "sim-003")?.deepLink).toBe(`${sb.appUrl}/org-demo/simulation/sim-003`);
  });

  it("answers library pages as {results}, at most 10 whatever pageSize asks, without metadata", async () => {
    const a = await post(sb, LIB, { organizationId: "org-demo", userId: "user-demo", pageSize: 50 });
    expect(Object.keys(a.json)).toEqual(["results"]);
    expect(a.json.results).toHaveLength(10);
    const p4 = await post(sb, LIB, { organizationId: "org-demo", userId: "user-demo", pageSize: 50, page: 4 });
    expect((p4.json.results as { id: string }[]).map((s) => s.id)).toEqual(["sim-031", "sim-032"]);
  });

  it("answers errors flat: the HTTP reason in `error`, the sentence in `message`, the field", async () => {
    const a = await post(sb, "/v2/access-api/user/token", { organizationId: "org-demo", userId: "nobody" });
    expect(a.status).toBe(404);
    expect(a.json).toEqual({ error: "Not Found", message: expect.stringContaining("nobody"), field: "userId" });
  });

  it("sends report records as a bare array or {records}, flat ids and names with numbers under `stats`", async () => {
    const range = { startDate: "2026-01-01", endDate: "2026-01-02" };
    const users = await post(sb, "/v2/report/users", range);
    const syms = await post(sb, "/v2/report/syms-result", range);
    expect(Array.isArray(syms.json)).toBe(true);
    expect(Object.keys(users.json)).toContain("records");
    const expected = generateReport("users", range.startDate, range.endDate, 2, 3, sb.dialect);
    expect(users.json.records).toEqual(expected);
    expect(Object.keys(expected[0] ?? {})).toEqual(expect.arrayContaining(["date", "groupId", "name", "stats", "note"]));
    expect(expected[0]).not.toHaveProperty("recordId");
  });
});

describe("terse dialect", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ dialect: "terse" });
  });
  afterAll(() => sb.close());

  it("answers deep-links as {link}, tokens without expiresIn and completion attempts as a bare array", async () => {
    const link = await post(sb, "/v2/access-api/simulation/deep-links", ids);
    expect(link.json).toEqual({ link: `${sb.appUrl}/org-demo/simulation/sim-003` });
    const token = await post(sb, "/v2/access-api/user/token", { organizationId: "org-demo", userId: "user-demo" });
    expect(Object.keys(token.json)).toEqual(["token"]);
    const attempts = await post(sb, "/v2/access-api/simulation/completion-data", { ...ids, simulationId: "sim-001" });
    expect(Array.isArray(attempts.json)).toBe(true);
    expect(attempts.json).toHaveLength(4);
  });

  it("answers library pages as {data, meta} capped at 7", async () => {
    const a = await post(sb, LIB, { organizationId: "org-demo", userId: "user-demo", pageSize: 20 });
    expect(a.json.data).toHaveLength(7);
    expect(a.json.meta).toEqual({ page: 1, pageSize: 7, total: 32, totalPages: 5 });
  });

  it("answers uploads briefly and names the status field `state`", async () => {
    const a = await upload(sb, [HEADER, NEW_ROW, BAD_ROW].join("\n"));
    expect(a.status).toBe(200);
    expect(Object.keys(a.json)).toEqual(["taskId", "rowErrors"]);
    expect(a.json.rowErrors).toEqual([{ rowNumber: 3, messages: [expect.any(String)] }]);
    const s = await post(sb, "/v2/access-api/user/bulk-import/status", { organizationId: "org-demo", taskId: a.json.taskId });
    expect(s.json).toEqual({ taskId: a.json.taskId, state: "SCHEDULED" });
  });

  it("answers errors as a bare {message}", async () => {
    const a = await post(sb, "/v2/access-api/user/token", { organizationId: "org-demo" });
    expect(a.status).toBe(400);
    expect(a.json).toEqual({ message: expect.stringContaining("userId") });
  });

  it("sends report records snake_case under {rows}", async () => {
    const a = await post(sb, "/v2/report/syms-result", { startDate: "2026-01-01", endDate: "2026-01-01" });
    expect(a.json.rows).toHaveLength(3);
    expect(a.json.rows[0]).toHaveProperty("day", "2026-01-01");
    expect(a.json.rows[0]).toHaveProperty("sym_title");
  });
});

describe("dialect choice", () => {
  it("a seed picks the same variants every time, and different seeds differ", () => {
    expect(dialectFromSeed(7)).toEqual(dialectFromSeed(7));
    const seen = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify({ ...dialectFromSeed(i), name: "" })));
    expect(seen.size).toBeGreaterThan(10);
    expect(resolveDialect("seed:7")).toEqual(dialectFromSeed(7));
    expect(resolveDialect("7")).toEqual(dialectFromSeed(7));
  });

  it("refuses an unknown name", () => {
    expect(() => resolveDialect("klingon")).toThrow(/unknown sandbox dialect "klingon"/);
  });

  it("answers an empty body or an HTML page for errors when told to", async () => {
    for (const [errors, check] of [
      ["empty", (a: Answer) => expect(a.text).toBe("")],
      ["html", (a: Answer) => expect(a.contentType).toMatch(/^text\/html/)],
    ] as const) {
      const sb = await startSandbox({ dialect: { errors } });
      try {
        const a = await post(sb, "/v2/access-api/user/token", { organizationId: "org-demo", userId: "nobody" });
        expect(a.status).toBe(404);
        check(a);
      } finally {
        await sb.close();
      }
    }
  });

  it("a library that ignores `page` answers page 1 again; a bare-array library has no envelope", async () => {
    const sb = await startSandbox({ dialect: { library: { ignoresPage: true, envelope: "bare" } } });
    try {
      const p1 = await post(sb, LIB, { organizationId: "org-demo", userId: "user-demo", page: 1 });
      const p2 = await post(sb, LIB, { organizationId: "org-demo", userId: "user-demo", page: 2 });
      expect(Array.isArray(p1.json)).toBe(true);
      expect(p2.json).toEqual(p1.json);
    } finally {
      await sb.close();
    }
  });
});
