import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/server.js";

let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

interface Answer {
  status: number;
  headers: Headers;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read answers by shape
}

async function post(
  path: string,
  body?: unknown,
  init: { key?: string | null; method?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer> {
  const key = init.key === undefined ? sb.keys.full : init.key;
  const res = await fetch(sb.baseUrl + path, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...init.headers },
    body: init.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const ids = { organizationId: "org-demo", userId: "user-demo", simulationId: "sim-001" };

function expectError(answer: Answer, status: number, code: string, mentions?: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json.error.code).toBe(code);
  expect(typeof answer.json.error.message).toBe("string");
  if (mentions) expect(answer.json.error.message).toContain(mentions);
}

describe("start-up", () => {
  it("binds loopback on a free port and exposes the demo org and keys", () => {
    expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.org).toBe("org-demo");
    expect(sb.keys).toEqual({ full: "sk_sandbox_full_0000000000demo", readOnly: "sk_sandbox_readonly_00000000demo" });
    expect(sb.appUrl).toBe("https://app.sandbox.simadmin.test");
  });
});

describe("routing, methods and authentication", () => {
  it("answers 404 for an unknown path", async () => {
    expectError(await post("/v2/nothing-here", {}), 404, "NOT_FOUND");
  });

  it("answers 404 for a doubled slash and ignores the query string", async () => {
    const range = { startDate: "2026-01-01", endDate: "2026-01-01" };
    expectError(await post("//v2/report/users", range), 404, "NOT_FOUND");
    expect((await post("/v2/report/users?x=1", range)).status).toBe(200);
  });

  it.each([
    "/access-api/simulation/library",
    "/access-api/simulation/assignment",
    "/access-api/user/token",
    "/access-api/user/create",
    "/access-api/user/bulk-import",
    "/access-api/user/bulk-import/status",
  ])("answers 404 for the v2-only %s under v1", async (path) => {
    expectError(await post(path, { organizationId: "org-demo", userId: "user-demo" }), 404, "NOT_FOUND", "only as /v2");
  });

  it.each(["GET", "PUT", "DELETE", "PATCH"])("answers 405 with Allow: POST to %s", async (method) => {
    const answer = await post("/v2/report/users", undefined, { method });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    if (method !== "HEAD") expect(answer.json.error.code).toBe("METHOD_NOT_ALLOWED");
  });

  it("answers 401 without an Authorization header", async () => {
    expectError(
      await post("/v2/report/users", { startDate: "2026-01-01", endDate: "2026-01-02" }, { key: null }),
      401,
      "UNAUTHORIZED",
    );
  });

  it("answers 401 for an unknown key", async () => {
    expectError(
      await post("/v2/report/users", { startDate: "2026-01-01", endDate: "2026-01-02" }, { key: "sk_nope" }),
      401,
      "UNAUTHORIZED",
    );
  });

  it("answers 401 for a non-Bearer scheme", async () => {
    const answer = await post("/v2/report/users", {}, { key: null, headers: { authorization: `Basic ${sb.keys.full}` } });
    expectError(answer, 401, "UNAUTHORIZED");
  });

  it("lets the read-only key read reports in both versions", async () => {
    const body = { startDate: "2026-01-01", endDate: "2026-01-01" };
    expect((await post("/report/users", body, { key: sb.keys.readOnly })).status).toBe(200);
    expect((await post("/v2/report/users", body, { key: sb.keys.readOnly })).status).toBe(200);
  });

  it.each(["/v2/access-api/simulation/library", "/access-api/simulation/deep-links", "/v2/access-api/user/token"])(
    "answers 403 to the read-only key on %s",
    async (path) => {
      expectError(await post(path, ids, { key: sb.keys.readOnly }), 403, "FORBIDDEN");
    },
  );

  it("answers 400 for a body that is not JSON", async () => {
    expectError(
      await post("/v2/access-api/user/token", undefined, { raw: "{not json" }),
      400,
      "INVALID_REQUEST",
      "not valid JSON",
    );
  });

  it("answers 400 for a JSON body that is not an object", async () => {
    expectError(await post("/v2/access-api/user/token", [1, 2]), 400, "INVALID_REQUEST", "JSON object");
  });

  it("answers 400 for a JSON body sent without a JSON Content-Type", async () => {
    const answer = await post("/v2/access-api/user/token", undefined, {
      raw: JSON.stringify(ids),
      headers: { "content-type": "text/plain" },
    });
    expectError(answer, 400, "INVALID_REQUEST", "Content-Type");
  });

  it("records every request with its group, status and body, and no key", async () => {
    const before = sb.requests.length;
    await post("/v2/access-api/simulation/deep-links", ids);
    const last = sb.requests[before];
    expect(last).toMatchObject({
      method: "POST",
      path: "/v2/access-api/simulation/deep-links",
      status: 200,
      group: "access",
      body: ids,
      remoteAddress: "127.0.0.1",
    });
    expect(JSON.stringify(last)).not.toContain(sb.keys.full);
  });
});

describe("deep-links", () => {
  it("answers v1 with `url`", async () => {
    const answer = await post("/access-api/simulation/deep-links", ids);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ url: "https://app.sandbox.simadmin.test/org-demo/simulation/sim-001" });
  });

  it("answers v2 with `deepLink`", async () => {
    const answer = await post("/v2/access-api/simulation/deep-links", ids);
    expect(answer.json).toEqual({ deepLink: "https://app.sandbox.simadmin.test/org-demo/simulation/sim-001" });
  });

  it("names every missing field in one 400", async () => {
    const answer = await post("/v2/access-api/simulation/deep-links", { organizationId: "org-demo" });
    expectError(answer, 400, "INVALID_REQUEST", "userId is required");
    expect(answer.json.error.message).toContain("simulationId is required");
    expect(answer.json.error.details.fields).toEqual([
      { field: "userId", problem: "is required" },
      { field: "simulationId", problem: "is required" },
    ]);
  });

  it("answers 400 for a field of the wrong type", async () => {
    expectError(
      await post("/v2/access-api/simulation/deep-links", { ...ids, userId: 42 }),
      400,
      "INVALID_REQUEST",
      "userId must be a string",
    );
  });

  it.each([
    [{ ...ids, organizationId: "org-nope" }, "organization"],
    [{ ...ids, userId: "user-nope" }, "user"],
    [{ ...ids, simulationId: "sim-nope" }, "simulation"],
    [{ ...ids, userId: "user-olive" }, "user"], // a user of another organization
    [{ ...ids, simulationId: "sim-101" }, "simulation"], // a simulation of another organization
  ])("answers 404 for unknown ids %#", async (body, what) => {
    expectError(await post("/access-api/simulation/deep-links", body), 404, "NOT_FOUND", what);
  });

  it("keeps a configured query in the deep link", async () => {
    const other = await startSandbox({ deepLinkQuery: "lang=en", appUrl: "https://app.example.test/" });
    try {
      const res = await fetch(`${other.baseUrl}/v2/access-api/simulation/deep-links`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${other.keys.full}` },
        body: JSON.stringify(ids),
      });
      expect(await res.json()).toEqual({ deepLink: "https://app.example.test/org-demo/simulation/sim-001?lang=en" });
    } finally {
      await other.close();
    }
  });
});

describe("completion-data", () => {
  it.each(["/access-api/simulation/completion-data", "/v2/access-api/simulation/completion-data"])(
    "returns every attempt of user-demo on sim-001 in every state (%s)",
    async (path) => {
      const answer = await post(path, ids);
      expect(answer.status).toBe(200);
      const attempts = answer.json.completionData as Record<string, unknown>[];
      expect(new Set(attempts.map((a) => a["status"]))).toEqual(new Set(["COMPLETED", "STARTED", "INTERRUPTED"]));
      for (const a of attempts) {
        const scores = ["score", "symScore", "accuracyScore", "keywordScore", "sentimentScores"];
        if (a["status"] === "COMPLETED") {
          expect(typeof a["completedAt"]).toBe("string");
          expect(Number.isInteger(a["completionTime"])).toBe(true);
          for (const s of scores) expect(a[s]).not.toBeNull();
        } else {
          expect(a["completedAt"]).toBeNull();
          expect(a["completionTime"]).toBeNull();
          for (const s of [...scores, "clickScore"]) expect(a[s]).toBeNull();
        }
      }
    },
  );

  it("returns only incomplete attempts on sim-002", async () => {
    const answer = await post("/v2/access-api/simulation/completion-data", { ...ids, simulationId: "sim-002" });
    // The seed holds two attempts of user-demo on sim-002, neither completed.
    expect(answer.json.completionData.map((a: { status: unknown }) => a.status)).toEqual(["STARTED", "INTERRUPTED"]);
    expect(answer.json.completionData.every((a: { completedAt: unknown }) => a.completedAt === null)).toBe(true);
  });

  it("returns an empty array for a known user and simulation without attempts", async () => {
    const answer = await post("/v2/access-api/simulation/completion-data", { ...ids, simulationId: "sim-003" });
    expect(answer).toMatchObject({ status: 200, json: { completionData: [] } });
  });

  it("answers 404 for an unknown user or simulation", async () => {
    expect((await post("/v2/access-api/simulation/completion-data", { ...ids, userId: "user-x" })).status).toBe(404);
    expect((await post("/access-api/simulation/completion-data", { ...ids, simulationId: "sim-x" })).status).toBe(404);
  });

  it("shows an attempt added through the state API, once its availableAt has passed", async () => {
    let t = Date.UTC(2026, 0, 1);
    const timed = await startSandbox({ now: () => t });
    try {
      const ask = async (): Promise<unknown[]> => {
        const res = await fetch(`${timed.baseUrl}/v2/access-api/simulation/completion-data`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${timed.keys.full}` },
          body: JSON.stringify({ ...ids, simulationId: "sim-003" }),
        });
        return ((await res.json()) as { completionData: unknown[] }).completionData;
      };
      const added = timed.state.addAttempt("org-demo", "user-demo", "sim-003", { status: "COMPLETED", availableAt: t + 60_000 });
      expect(added.completedAt).toBe(new Date(t).toISOString());
      expect(await ask()).toEqual([]);
      t += 60_000;
      expect(await ask()).toEqual([expect.objectContaining({ executionId: added.executionId, status: "COMPLETED", score: 80 })]);
    } finally {
      await timed.close();
    }
  });
});

describe("library", () => {
  const lib = (extra: Record<string, unknown> = {}): Promise<Answer> =>
    post("/v2/access-api/simulation/library", { organizationId: "org-demo", userId: "user-demo", ...extra });

  it("returns the first 10 simulations by default, with the spec's fields and no page metadata", async () => {
    const answer = await lib();
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json)).toEqual(["simulations"]);
    expect(answer.json.simulations).toHaveLength(10);
    expect(answer.json.simulations[0]).toEqual({
      id: "sim-001",
      title: expect.any(String),
      type: "audio",
      duration: expect.stringMatching(/^\d+-\d+ min$/),
      description: expect.any(String),
      tags: expect.any(Array),
    });
  });

  it("walks every page until one is shorter than pageSize", async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const items = (await lib({ page, pageSize: 7 })).json.simulations as { id: string }[];
      seen.push(...items.map((s) => s.id));
      if (items.length < 7) break;
    }
    expect(seen.length).toBeGreaterThanOrEqual(30);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.every((id) => id.startsWith("sim-0"))).toBe(true); // org-other's simulations stay out
  });

  it("returns an empty page past the end", async () => {
    expect((await lib({ page: 99 })).json).toEqual({ simulations: [] });
  });

  it("keeps simulations carrying ALL the given tags, case-insensitively", async () => {
    const both = (await lib({ tags: ["Sales", "negotiation"], pageSize: 100 })).json.simulations as {
      id: string;
      tags: string[];
    }[];
    // The seed's simulations tagged both sales and negotiation; 11 carry sales.
    expect(both.map((s) => s.id)).toEqual(["sim-003", "sim-004", "sim-028", "sim-029"]);
    for (const s of both) expect(s.tags).toEqual(expect.arrayContaining(["sales", "negotiation"]));
    const salesOnly = (await lib({ tags: ["sales"], pageSize: 100 })).json.simulations as unknown[];
    expect(salesOnly).toHaveLength(11);
  });

  it("searches title and description case-insensitively", async () => {
    const byTitle = (await lib({ searchTerm: "COLD CALL" })).json.simulations as { id: string }[];
    expect(byTitle.map((s) => s.id)).toEqual(["sim-001"]);
    const byDescription = (await lib({ searchTerm: "procurement" })).json.simulations as { id: string }[];
    expect(byDescription.map((s) => s.id)).toEqual(["sim-003"]);
  });

  it("has an audio kind", async () => {
    const all = (await lib({ pageSize: 100 })).json.simulations as { type: string }[];
    expect(all.some((s) => s.type === "audio")).toBe(true);
  });

  it.each([
    [{ page: 0 }, "page"],
    [{ page: 1.5 }, "page"],
    [{ page: "2" }, "page"],
    [{ pageSize: 0 }, "pageSize"],
    [{ pageSize: 101 }, "pageSize"],
    [{ tags: "sales" }, "tags"],
    [{ tags: [1] }, "tags"],
    [{ searchTerm: 5 }, "searchTerm"],
    [{ userId: undefined }, "userId"],
  ])("answers 400 for %j", async (extra, field) => {
    expectError(await lib(extra), 400, "INVALID_REQUEST", field);
  });

  it("answers 404 for an unknown user", async () => {
    expectError(await lib({ userId: "user-nope" }), 404, "NOT_FOUND");
  });
});

describe("assignment", () => {
  const assign = (simulationId: string, value: unknown): Promise<Answer> =>
    post("/v2/access-api/simulation/assignment", { organizationId: "org-demo", userId: "user-ben", simulationId, assign: value });

  it("assigns with a deep link, unassigns with a success status, and is idempotent both ways", async () => {
    expect(sb.state.isAssigned("org-demo", "user-ben", "sim-010")).toBe(false);
    for (let i = 0; i < 2; i++) {
      const on = await assign("sim-010", true);
      expect(on.status).toBe(200);
      expect(on.json).toEqual({
        success: true,
        simulationId: "sim-010",
        deepLink: "https://app.sandbox.simadmin.test/org-demo/simulation/sim-010",
      });
      expect(sb.state.isAssigned("org-demo", "user-ben", "sim-010")).toBe(true);
    }
    for (let i = 0; i < 2; i++) {
      const off = await assign("sim-010", false);
      expect(off.json).toEqual({ success: true, simulationId: "sim-010" });
      expect(sb.state.isAssigned("org-demo", "user-ben", "sim-010")).toBe(false);
    }
  });

  it.each([[undefined], ["true"], [1]])("answers 400 when assign is %j", async (value) => {
    expectError(await assign("sim-010", value), 400, "INVALID_REQUEST", "assign");
  });

  it("answers 404 for an unknown simulation", async () => {
    expectError(await assign("sim-999", true), 404, "NOT_FOUND", "simulation");
  });

  it("does not exist in v1", async () => {
    expect((await post("/access-api/simulation/assignment", { ...ids, assign: true })).status).toBe(404);
  });
});

describe("user/token", () => {
  it("issues a signed token for 3600 s that needs URL-encoding", async () => {
    const answer = await post("/v2/access-api/user/token", { organizationId: "org-demo", userId: "user-demo" });
    expect(answer.status).toBe(200);
    expect(answer.json.expiresIn).toBe(3600);
    expect(answer.json.token).toMatch(/[+/=]/);
    expect(encodeURIComponent(answer.json.token)).not.toBe(answer.json.token);
    expect(sb.state.verifyUserToken(answer.json.token)).toMatchObject({
      valid: true,
      organizationId: "org-demo",
      userId: "user-demo",
    });
  });

  it("rejects a tampered token", async () => {
    const { token } = (await post("/v2/access-api/user/token", { organizationId: "org-demo", userId: "user-demo" })).json;
    const [payload, signature] = (token as string).split(".") as [string, string];
    const forged = Buffer.from(
      Buffer.from(payload, "base64").toString("latin1").replace("user-demo", "user-ava"),
      "latin1",
    ).toString("base64");
    expect(forged).not.toBe(payload);
    expect(sb.state.verifyUserToken(`${forged}.${signature}`)).toEqual({ valid: false, reason: "bad-signature" });
    expect(sb.state.verifyUserToken("garbage")).toEqual({ valid: false, reason: "malformed" });
  });

  it("expires after exactly 3600 s on the injected clock", async () => {
    let t = Date.UTC(2026, 5, 1, 12);
    const timed = await startSandbox({ now: () => t });
    try {
      const res = await fetch(`${timed.baseUrl}/v2/access-api/user/token`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${timed.keys.full}` },
        body: JSON.stringify({ organizationId: "org-demo", userId: "user-demo" }),
      });
      const { token } = (await res.json()) as { token: string };
      t += 3_599_999;
      expect(timed.state.verifyUserToken(token)).toMatchObject({ valid: true, expiresAt: Date.UTC(2026, 5, 1, 13) });
      t += 1;
      expect(timed.state.verifyUserToken(token)).toEqual({
        valid: false,
        reason: "expired",
        expiresAt: Date.UTC(2026, 5, 1, 13),
      });
    } finally {
      await timed.close();
    }
  });

  it("answers 400 and 404 like the other access calls", async () => {
    expectError(await post("/v2/access-api/user/token", { organizationId: "org-demo" }), 400, "INVALID_REQUEST", "userId");
    expectError(await post("/v2/access-api/user/token", { organizationId: "org-demo", userId: "nobody" }), 404, "NOT_FOUND");
    expectError(
      await post("/v2/access-api/user/token", { organizationId: "org-x", userId: "user-demo" }),
      404,
      "NOT_FOUND",
      "organization",
    );
  });
});
