import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/server.js";

const opened: Sandbox[] = [];
async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox(options);
  opened.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sb) => sb.close()));
});

const ASSIGN = { organizationId: "org-demo", userId: "user-hugo", simulationId: "sim-020", assign: true };
const RANGE = { startDate: "2026-01-01", endDate: "2026-01-01" };

function post(sb: Sandbox, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(sb.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${sb.keys.full}` },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

/** What fetch (undici) rejects with when the server closes the connection without an answer. */
const CLOSED_UNANSWERED = { name: "TypeError", message: "fetch failed", cause: { code: "UND_ERR_SOCKET" } };

function upload(sb: Sandbox, csv: string): Promise<Response> {
  const form = new FormData();
  form.set("organizationId", "org-demo");
  form.set("file", new Blob([csv]), "users.csv");
  return fetch(`${sb.baseUrl}/v2/access-api/user/bulk-import`, {
    method: "POST",
    headers: { authorization: `Bearer ${sb.keys.full}` },
    body: form,
  });
}

describe("fault injection", () => {
  it("failNext answers the status for the next N requests without side effects or rate-limit cost", async () => {
    const sb = await sandbox({ rateLimits: { access: { limit: 1, windowMs: 60_000 } } });
    sb.faults.failNext("/v2/access-api/simulation/assignment", 2, 503);
    for (let i = 0; i < 2; i++) {
      const res = await post(sb, "/v2/access-api/simulation/assignment", ASSIGN);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: { code: "INTERNAL", message: "injected fault: HTTP 503" } });
      expect(res.headers.get("retry-after")).toBeNull();
    }
    expect(sb.state.isAssigned("org-demo", "user-hugo", "sim-020")).toBe(false);
    expect((await post(sb, "/v2/access-api/simulation/assignment", ASSIGN)).status).toBe(200);
    expect(sb.state.isAssigned("org-demo", "user-hugo", "sim-020")).toBe(true);
    expect(sb.requests.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it("failNext with 429 carries the given Retry-After and body", async () => {
    const sb = await sandbox();
    sb.faults.failNext("/v2/report/users", 1, 429, { retryAfterSeconds: 7, body: { message: "slow down" } });
    const res = await post(sb, "/v2/report/users", RANGE);
    expect([res.status, res.headers.get("retry-after")]).toEqual([429, "7"]);
    expect(await res.json()).toEqual({ message: "slow down" });
  });

  it("matches a prefix when the path ends with *", async () => {
    const sb = await sandbox();
    sb.faults.failNext("/v2/report/*", 2, 500);
    expect((await post(sb, "/v2/report/syms", RANGE)).status).toBe(500);
    expect((await post(sb, "/report/syms", RANGE)).status).toBe(200); // v1 path: no match
    expect((await post(sb, "/v2/report/teams-result", RANGE)).status).toBe(500);
    expect((await post(sb, "/v2/report/teams-result", RANGE)).status).toBe(200);
  });

  it("respondNext gives a canned answer, JSON or text, with headers", async () => {
    const sb = await sandbox();
    sb.faults.respondNext("/v2/report/users", 1, { status: 200, body: [{ a: 1 }], headers: { "x-test": "yes" } });
    sb.faults.respondNext("/v2/report/users", 1, {
      status: 502,
      body: "<html>bad gateway</html>",
      headers: { "Content-Type": "text/html" },
    });
    const first = await post(sb, "/v2/report/users", RANGE);
    expect([first.status, first.headers.get("x-test")]).toEqual([200, "yes"]);
    expect(await first.json()).toEqual([{ a: 1 }]);
    const second = await post(sb, "/v2/report/users", RANGE);
    expect([second.status, second.headers.get("content-type"), await second.text()]).toEqual([
      502,
      "text/html",
      "<html>bad gateway</html>",
    ]);
  });

  it("delayNext holds the answer, long enough for a client timeout", async () => {
    const sb = await sandbox();
    sb.faults.delayNext("/v2/access-api/user/token", 2, 150);
    const started = performance.now();
    const slow = await post(sb, "/v2/access-api/user/token", { organizationId: "org-demo", userId: "user-demo" });
    expect(slow.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await expect(
      post(sb, "/v2/access-api/user/token", { organizationId: "org-demo", userId: "user-demo" }, AbortSignal.timeout(30)),
    ).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("dropNext closes the connection without answering or acting", async () => {
    const sb = await sandbox();
    sb.faults.dropNext("/v2/access-api/simulation/assignment", 1);
    await expect(post(sb, "/v2/access-api/simulation/assignment", ASSIGN)).rejects.toMatchObject(CLOSED_UNANSWERED);
    expect(sb.state.isAssigned("org-demo", "user-hugo", "sim-020")).toBe(false);
    expect(sb.requests[0]).toMatchObject({ status: 0, body: ASSIGN });
    expect((await post(sb, "/v2/access-api/simulation/assignment", ASSIGN)).status).toBe(200);
  });

  it("dropAfterAccept creates the import task, then closes the connection without answering", async () => {
    const sb = await sandbox();
    sb.faults.dropAfterAccept("/v2/access-api/user/bulk-import", 1);
    const csv = `${HEADER}\nA,B,drop.me@example.com,drop.me@example.com,trainee,,ACTIVE,Add`;
    await expect(upload(sb, csv)).rejects.toMatchObject(CLOSED_UNANSWERED);
    const tasks = sb.state.listTasks("org-demo");
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ status: "SCHEDULED", rowsUploaded: 1 });
    expect(sb.requests[0]).toMatchObject({
      status: 0,
      body: { organizationId: "org-demo", fileName: "users.csv", csvText: csv },
    });
    // The rule is used up: the next upload is answered (and, being an Add of the same
    // pending user, creates a second task — the duplicate a client must avoid).
    expect((await upload(sb, csv)).status).toBe(200);
    expect(sb.state.listTasks("org-demo")).toHaveLength(2);
  });

  it("dropAfterAccept is not used up by a request that is refused before it is performed", async () => {
    const sb = await sandbox();
    sb.faults.dropAfterAccept("/v2/access-api/user/token", 1);
    const unauthorized = await fetch(`${sb.baseUrl}/v2/access-api/user/token`, { method: "POST" });
    expect(unauthorized.status).toBe(401);
    await expect(
      post(sb, "/v2/access-api/user/token", { organizationId: "org-demo", userId: "user-demo" }),
    ).rejects.toMatchObject(CLOSED_UNANSWERED);
  });

  it("clear removes every pending fault", async () => {
    const sb = await sandbox();
    sb.faults.failNext("/v2/report/users", 5, 500);
    sb.faults.dropNext("/v2/report/syms", 5);
    sb.faults.clear();
    expect((await post(sb, "/v2/report/users", RANGE)).status).toBe(200);
    expect((await post(sb, "/v2/report/syms", RANGE)).status).toBe(200);
  });

  it("rejects nonsense fault arguments", async () => {
    const sb = await sandbox();
    expect(() => sb.faults.failNext("/x", 0, 500)).toThrow(RangeError);
    expect(() => sb.faults.failNext("/x", 1, 42)).toThrow(RangeError);
    expect(() => sb.faults.delayNext("/x", 1, -1)).toThrow(RangeError);
  });

  it("close() ends promptly while a request is being delayed", async () => {
    const sb = await startSandbox();
    sb.faults.delayNext("/v2/report/users", 1, 60_000);
    const pending = post(sb, "/v2/report/users", RANGE);
    while (sb.requests.length === 0 || sb.requests[0]?.body === undefined) await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    await sb.close();
    expect(performance.now() - started).toBeLessThan(5000); // not the 60 s delay
    await expect(pending).rejects.toMatchObject(CLOSED_UNANSWERED);
  });
});
