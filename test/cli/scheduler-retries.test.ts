import { afterAll, describe, expect, it } from "vitest";
import type { RecordedRequest, SandboxOptions } from "../../src/sandbox/server.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// 429 handling and retries through the real program, in-process, against the sandbox (issue 4; contract
// "Rate limits", "Retries", exit codes 7 and 8). `token` is one access-group request per
// process, so concurrent invocations for different users also show the cross-process ledger
// at work; each request is told apart by its userId.

const TOKEN = "/v2/access-api/user/token";
const USERS = ["user-ava", "user-ben", "user-chloe", "user-demo", "user-emma", "user-felix"];
const GENEROUS = { SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" };

// The tests run side by side (describe.concurrent), each with a sandbox and settings of its
// own: they are Retry-After seconds and timeouts, nearly all waiting, and one after the other
// they held a worker for ~10 s (docs/development.md, "How long the suite takes"). What they
// assert are counts and lower bounds on spacing, which the others beside can only lengthen.
const envs: TestEnv[] = [];
afterAll(async () => {
  await Promise.all(envs.splice(0).map((t) => t.close()));
});

async function env(options: SandboxOptions = {}): Promise<TestEnv> {
  const t = await startTestEnv({ rateLimits: { access: { limit: 1000, windowMs: 1000 } }, ...options });
  envs.push(t);
  return t;
}

function tokenRequests(t: TestEnv): RecordedRequest[] {
  return t.sandbox.requests.filter((r) => r.path === TOKEN);
}

function userOf(request: RecordedRequest): string {
  return (request.body as { userId?: string } | undefined)?.userId ?? "";
}

describe.concurrent("a service stricter than the client's budget (2 per second against the client's 10)", () => {
  // Over a 1 s window the sandbox's Retry-After is always "1" (whole seconds, rounded up).
  const STRICT: SandboxOptions = { rateLimits: { access: { limit: 2, windowMs: 1000 } } };
  const CLIENT = { SIMADMIN_RATE_LIMITS: "access=10/1s" };

  it("gets six concurrent invocations through, each retry at least the Retry-After after its 429", async () => {
    const t = await env(STRICT);

    const results = await Promise.all(USERS.map((user) => t.run(["token", "--user", user], { env: CLIENT })));

    // A run that waits over a second for the shared ledger's lock says so (a loaded machine
    // can hold it that long); nothing else may be printed.
    const lockNotice = /^warning: waiting for the rate budget's lock .*\n/gm;
    expect(results.map((r) => [r.exitCode, r.stderr.replace(lockNotice, "")])).toEqual(USERS.map(() => [0, ""]));
    const requests = tokenRequests(t);
    const refusals = requests.filter((r) => r.status === 429);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      const retry = requests.find((r) => userOf(r) === userOf(refusal) && r.at > refusal.at);
      expect(retry, `retry for ${userOf(refusal)}`).toBeDefined();
      expect(retry!.at - refusal.at).toBeGreaterThanOrEqual(1000);
    }
    expect(
      requests
        .filter((r) => r.status === 200)
        .map(userOf)
        .sort(),
    ).toEqual(USERS);
  });

  it("without a Retry-After header backs off on its own and still gets every invocation through", async () => {
    const t = await env({ ...STRICT, retryAfterHeader: false });

    const results = await Promise.all(USERS.map((user) => t.run(["token", "--user", user], { env: CLIENT })));

    expect(results.map((r) => r.exitCode)).toEqual(USERS.map(() => 0));
    expect(
      tokenRequests(t)
        .filter((r) => r.status === 200)
        .map(userOf)
        .sort(),
    ).toEqual(USERS);
  });

  it("exits 7 when the 429s outlast --retries, after waiting the Retry-After", async () => {
    const t = await env();
    t.sandbox.faults.failNext(TOKEN, 10, 429, { retryAfterSeconds: 1 });

    const r = await t.run(["token", "--user", "user-demo", "--retries", "1"], { env: GENEROUS });

    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/429/);
    const requests = tokenRequests(t);
    expect(requests.map((q) => q.status)).toEqual([429, 429]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(1000);
  });
});

describe.concurrent("retries of a safe request", () => {
  it("repeats after two 503s and succeeds", async () => {
    const t = await env();
    t.sandbox.faults.failNext(TOKEN, 2, 503);

    const r = await t.run(["token", "--user", "user-demo"], { env: GENEROUS });

    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ userId: "user-demo" });
    expect(tokenRequests(t).map((q) => q.status)).toEqual([503, 503, 200]);
  });

  it("repeats after a dropped connection", async () => {
    const t = await env();
    t.sandbox.faults.dropNext(TOKEN, 1);

    const r = await t.run(["token", "--user", "user-demo"], { env: GENEROUS });

    expect(r.exitCode).toBe(0);
    expect(tokenRequests(t).map((q) => q.status)).toEqual([0, 200]);
  });

  it("repeats after a timeout (--timeout)", async () => {
    const t = await env();
    t.sandbox.faults.delayNext(TOKEN, 1, 3000);

    const r = await t.run(["token", "--user", "user-demo", "--timeout", "0.5"], { env: GENEROUS });

    expect(r.exitCode).toBe(0);
    expect(tokenRequests(t)).toHaveLength(2);
  });

  it.each([
    ["a 503", (t: TestEnv) => t.sandbox.faults.failNext(TOKEN, 1, 503), [], /503/],
    ["a dropped connection", (t: TestEnv) => t.sandbox.faults.dropNext(TOKEN, 1), [], /cannot reach/],
    ["a timeout", (t: TestEnv) => t.sandbox.faults.delayNext(TOKEN, 1, 3000), ["--timeout", "0.5"], /no answer within 0.5 s/],
  ])("exits 8 after %s under --retries 0, having sent one request", async (_name, inject, extra, message) => {
    const t = await env();
    inject(t);

    const r = await t.run(["token", "--user", "user-demo", "--retries", "0", ...extra], { env: GENEROUS });

    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(message);
    expect(tokenRequests(t)).toHaveLength(1);
  });
});
