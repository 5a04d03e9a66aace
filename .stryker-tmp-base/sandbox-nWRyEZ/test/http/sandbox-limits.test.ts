// @ts-nocheck
import { request as httpRequest } from "node:http";
import { post } from "../../src/api/transport.js";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/server.js";

let t = Date.UTC(2026, 0, 1);
const opened: Sandbox[] = [];

async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox({ now: () => t, ...options });
  opened.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sb) => sb.close()));
});

const RANGE = { startDate: "2026-01-01", endDate: "2026-01-01" };
const TOKEN = { organizationId: "org-demo", userId: "user-demo" };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read by shape
type Json = any;

async function call(
  sb: Sandbox,
  path: string,
  body: unknown,
  options: { key?: string } = {},
): Promise<{ status: number; retryAfter: string | undefined; json: Json }> {
  const res = await post(sb.baseUrl + path, {
    headers: { "content-type": "application/json", authorization: `Bearer ${options.key ?? sb.keys.full}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, retryAfter: res.header("retry-after"), json: JSON.parse(await res.text()) };
}

async function statuses(sb: Sandbox, n: number, path = "/v2/report/users", body: unknown = RANGE): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(sb, path, body)).status);
  return out;
}

describe("rate limits", () => {
  it("allows 10 report requests per 60 s by default, then answers 429 with Retry-After", async () => {
    const sb = await sandbox();
    expect(await statuses(sb, 10)).toEqual(Array(10).fill(200));
    t += 20_000;
    const refused = await call(sb, "/report/syms", RANGE); // v1 and v2 share the group
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("40");
    expect(refused.json.error).toMatchObject({
      code: "RATE_LIMITED",
      details: { group: "reports", limit: 10, windowMs: 60_000, retryAfterMs: 40_000 },
    });
    t += 40_000;
    expect((await call(sb, "/v2/report/syms", RANGE)).status).toBe(200);
  });

  it("allows 100 access requests per 300 s by default", async () => {
    const sb = await sandbox();
    expect(new Set(await statuses(sb, 100, "/v2/access-api/user/token", TOKEN))).toEqual(new Set([200]));
    const refused = await call(sb, "/access-api/simulation/deep-links", { ...TOKEN, simulationId: "sim-001" });
    expect([refused.status, refused.retryAfter]).toEqual([429, "300"]);
  });

  it("counts groups separately", async () => {
    const sb = await sandbox({ rateLimits: { reports: { limit: 2, windowMs: 1000 } } });
    expect(await statuses(sb, 3)).toEqual([200, 200, 429]);
    expect((await call(sb, "/v2/access-api/user/token", TOKEN)).status).toBe(200);
  });

  it("slides the window: a slot frees when the oldest request leaves it, and refused requests do not count", async () => {
    const sb = await sandbox({ rateLimits: { reports: { limit: 2, windowMs: 10_000 } } });
    expect(await statuses(sb, 1)).toEqual([200]);
    t += 4000;
    expect(await statuses(sb, 1)).toEqual([200]);
    t += 1500;
    const refused = await call(sb, "/v2/report/users", RANGE);
    expect([refused.status, refused.retryAfter, refused.json.error.details.retryAfterMs]).toEqual([429, "5", 4500]);
    expect(await statuses(sb, 3)).toEqual([429, 429, 429]);
    t += 4500;
    expect(await statuses(sb, 2)).toEqual([200, 429]);
  });

  it("rounds Retry-After up to whole seconds, at least 1", async () => {
    const sb = await sandbox({ rateLimits: { reports: { limit: 1, windowMs: 1500 } } });
    await statuses(sb, 1);
    t += 1;
    expect((await call(sb, "/v2/report/users", RANGE)).retryAfter).toBe("2");
    t += 1400;
    expect((await call(sb, "/v2/report/users", RANGE)).retryAfter).toBe("1");
  });

  it("uses fixed windows when asked", async () => {
    t = Math.ceil(t / 1000) * 1000 + 900;
    const sb = await sandbox({ rateWindowKind: "fixed", rateLimits: { reports: { limit: 2, windowMs: 1000 } } });
    expect(await statuses(sb, 3)).toEqual([200, 200, 429]);
    t += 100; // next window
    expect(await statuses(sb, 3)).toEqual([200, 200, 429]);
  });

  it("shrinks the windows with rateScale", async () => {
    const sb = await sandbox({ rateScale: 0.1 });
    expect(await statuses(sb, 11)).toEqual([...Array(10).fill(200), 429]);
    const refused = await call(sb, "/v2/report/users", RANGE);
    expect(refused.retryAfter).toBe("6");
    t += 6000;
    expect(await statuses(sb, 1)).toEqual([200]);
  });

  it("scales overrides too", async () => {
    const sb = await sandbox({ rateScale: 0.5, rateLimits: { access: { limit: 1, windowMs: 4000 } } });
    await call(sb, "/v2/access-api/user/token", TOKEN);
    const refused = await call(sb, "/v2/access-api/user/token", TOKEN);
    expect([refused.status, refused.json.error.details.windowMs]).toEqual([429, 2000]);
  });

  it("omits Retry-After when retryAfterHeader is false", async () => {
    const sb = await sandbox({ retryAfterHeader: false, rateLimits: { reports: { limit: 1, windowMs: 1000 } } });
    const [, refused] = [await call(sb, "/v2/report/users", RANGE), await call(sb, "/v2/report/users", RANGE)];
    expect([refused.status, refused.retryAfter]).toEqual([429, undefined]);
  });

  it("does not count 401 answers, but counts 403 and 400 ones", async () => {
    const sb = await sandbox({ rateLimits: { access: { limit: 3, windowMs: 1000 } } });
    for (let i = 0; i < 5; i++) expect((await call(sb, "/v2/access-api/user/token", TOKEN, { key: "bad" })).status).toBe(401);
    expect((await call(sb, "/v2/access-api/user/token", TOKEN, { key: sb.keys.readOnly })).status).toBe(403);
    expect((await call(sb, "/v2/access-api/user/token", {})).status).toBe(400);
    expect((await call(sb, "/v2/access-api/user/token", TOKEN)).status).toBe(200);
    expect((await call(sb, "/v2/access-api/user/token", TOKEN)).status).toBe(429);
  });

  it.runIf(process.platform === "linux")("keeps one budget per client address", async () => {
    const sb = await sandbox({ rateLimits: { reports: { limit: 1, windowMs: 1000 } } });
    // Linux routes all of 127/8 to loopback, so 127.0.0.2 is a second client address.
    const fromOtherAddress = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const url = new URL(`${sb.baseUrl}/v2/report/users`);
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            localAddress: "127.0.0.2",
            headers: { "content-type": "application/json", authorization: `Bearer ${sb.keys.full}` },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(RANGE));
      });
    expect((await call(sb, "/v2/report/users", RANGE)).status).toBe(200);
    expect((await call(sb, "/v2/report/users", RANGE)).status).toBe(429);
    expect(await fromOtherAddress()).toBe(200);
    expect(await fromOtherAddress()).toBe(429);
    expect(sb.requests.map((r) => r.remoteAddress)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.2"]);
  });
});
