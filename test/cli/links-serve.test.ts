import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signLinkId } from "../../src/domain/durable-links.js";
import { serveLinks, type ServingLinks } from "../helpers/link-serve.js";
import { MATRIX_DIALECTS, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// links serve over real HTTP on loopback, run in-process against the sandbox in each dialect
// (docs/cli-contract.md "Durable links"): the Start page asks the service nothing whoever
// fetches it; the click gets a deep link and a fresh token and redirects; bad, expired and
// revoked links; a full budget; a failing service; health, metrics, headers and log lines.

const KEY = "links-serve-test-key-0123456789abcdef";
const ACCESS = "/v2/access-api/";
const UAS = [
  // Microsoft Defender for Office 365 Safe Links' scanner and a plain curl.
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0 (compatible; Microsoft Office Protection)",
  "curl/8.5.0",
  "Proofpoint URL Defense",
];

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(url: string, method = "GET", headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const post = (url: string) => http(url, "POST", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "0" });

describe.each(MATRIX_DIALECTS)("links serve against the %s dialect", (dialect) => {
  let t: TestEnv;
  let serving: ServingLinks;
  let env: Record<string, string>;
  const accessRequests = () => t.sandbox.requests.filter((r) => r.path.startsWith(ACCESS));

  const makeLink = async (user: string, sim: string, extra: string[] = []): Promise<string> => {
    const r = await t.run(["link", "--user", user, "--sim", sim, "--durable", "-o", "text", ...extra], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    return r.stdout.trim();
  };

  beforeAll(async () => {
    t = await startTestEnv({
      dialect,
      rateLimits: { reports: { limit: 10_000, windowMs: 1000 }, access: { limit: 10_000, windowMs: 1000 } },
    });
    env = { ...t.env, SIMADMIN_LINKS_KEY: KEY, SIMADMIN_RATE_LIMITS: "access=1000/1s" };
    // One retry: the failing-service test need not wait through five back-offs.
    serving = await serveLinks(["--listen", "127.0.0.1:0", "--retries", "1"], env);
    env.SIMADMIN_LINKS_URL = serving.url;
  });
  afterAll(async () => {
    await serving.stop();
    await t.close();
  });

  it("answers GET and HEAD with a Start page naming the simulation, asking the service nothing, whoever asks", async () => {
    const link = await makeLink("user-demo", "sim-003");
    const before = accessRequests().length;
    for (const ua of UAS) {
      const get = await http(link, "GET", { "User-Agent": ua });
      expect(get.status).toBe(200);
      expect(get.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(get.body).toMatch(/<html lang="en">/);
      expect(get.body).toMatch(/<title>Start simulation sim-003<\/title>/);
      expect(get.body).toMatch(/<form method="post">\s*<button type="submit">Start<\/button>/);
      expect(get.body).not.toMatch(/<script/i);
      const head = await http(link, "HEAD", { "User-Agent": ua });
      expect(head.status).toBe(200);
      expect(head.body).toBe("");
    }
    expect(accessRequests().length).toBe(before);
  });

  it("redirects a click with 303 to the service's deep link and a fresh, valid token of that user", async () => {
    const link = await makeLink("user-demo", "sim-004");
    const before = accessRequests().length;
    const click = await post(link);
    expect(click.status).toBe(303);
    const location = new URL(String(click.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe("https://app.sandbox.simadmin.test/org-demo/simulation/sim-004");
    const token = location.searchParams.get("token")!;
    expect(t.sandbox.state.verifyUserToken(token)).toMatchObject({ valid: true, userId: "user-demo" });
    const sent = accessRequests()
      .slice(before)
      .map((r) => r.path);
    expect(sent.sort()).toEqual(["/v2/access-api/simulation/deep-links", "/v2/access-api/user/token"]);
  });

  it("reuses the user's token and the simulation's deep link on the next clicks", async () => {
    const first = await makeLink("user-demo", "sim-005");
    await post(first);
    const before = accessRequests().length;
    const again = await post(first);
    const other = await post(await makeLink("user-demo", "sim-005"));
    expect([again.status, other.status]).toEqual([303, 303]);
    expect(accessRequests().length).toBe(before);
    expect(String(again.headers.location)).toBe(String(other.headers.location));
  });

  it("carries the security headers on every answer", async () => {
    const link = await makeLink("user-demo", "sim-001");
    const answers = await Promise.all([
      http(link),
      post(link),
      http(`${link}x`),
      http(`${serving.url}/healthz`),
      http(`${serving.url}/nope`),
    ]);
    for (const reply of answers) {
      expect(reply.headers["cache-control"]).toBe("no-store");
      expect(reply.headers["referrer-policy"]).toBe("no-referrer");
      expect(reply.headers["x-robots-tag"]).toMatch(/noindex/);
      const csp = String(reply.headers["content-security-policy"]);
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).not.toMatch(/script-src|unsafe-inline/);
    }
  });

  it("answers 404 to a tampered link and to one made for another organization, asking nothing", async () => {
    const link = await makeLink("user-demo", "sim-001");
    const id = link.slice(link.lastIndexOf("/") + 1);
    const flipped = `${id.slice(0, 12)}${id[12] === "A" ? "B" : "A"}${id.slice(13)}`;
    const foreign = signLinkId(
      Buffer.from(KEY),
      { service: t.sandbox.baseUrl, organizationId: "org-other" },
      {
        userId: "user-demo",
        simulationId: "sim-001",
        issuedAt: Date.now(),
        expiresAt: Date.now() + 86_400_000,
      },
    );
    const before = accessRequests().length;
    for (const bad of [flipped, foreign, "x"]) {
      expect((await http(`${serving.url}/l/${bad}`)).status).toBe(404);
      expect((await post(`${serving.url}/l/${bad}`)).status).toBe(404);
    }
    expect(accessRequests().length).toBe(before);
  });

  it("answers 410 with a page saying so to an expired link", async () => {
    const id = signLinkId(
      Buffer.from(KEY),
      { service: t.sandbox.baseUrl, organizationId: "org-demo" },
      {
        userId: "user-demo",
        simulationId: "sim-001",
        issuedAt: Date.now() - 2 * 86_400_000,
        expiresAt: Date.now() - 86_400_000,
      },
    );
    for (const reply of [await http(`${serving.url}/l/${id}`), await post(`${serving.url}/l/${id}`)]) {
      expect(reply.status).toBe(410);
      expect(reply.body).toMatch(/<h1>This link has expired<\/h1>/);
    }
  });

  it("says the service failed, with a retry, never the service's body", async () => {
    const link = await makeLink("user-demo", "sim-007");
    t.sandbox.faults.failNext("/v2/access-api/simulation/deep-links", 2, 500, { body: { message: "db exploded at 0xdead" } });
    const failed = await post(link);
    t.sandbox.faults.clear();
    expect(failed.status).toBe(502);
    expect(failed.body).toMatch(/<h1>The simulation could not be started<\/h1>/);
    expect(failed.body).toMatch(/<form method="post">\s*<button type="submit">Try again<\/button>/);
    expect(failed.body).not.toMatch(/db exploded|0xdead|Error/);
    // Try again: the same click, now answered.
    expect((await post(link)).status).toBe(303);
  });

  it("serves /healthz and /metrics in the Prometheus text format", async () => {
    const health = await http(`${serving.url}/healthz`);
    expect([health.status, health.body]).toEqual([200, "ok\n"]);
    const metrics = await http(`${serving.url}/metrics`);
    expect(metrics.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of ["clicks", "tokens_minted", "token_cache_hits", "budget_waits"]) {
      expect(metrics.body).toMatch(new RegExp(`^# TYPE simadmin_links_${name}_total counter$`, "m"));
    }
    expect(metrics.body).toMatch(/^simadmin_links_responses_total\{method="POST",status="303"\} [1-9]\d*$/m);
    expect(Number(/^simadmin_links_tokens_minted_total (\d+)$/m.exec(metrics.body)?.[1])).toBeGreaterThan(0);
  });

  it("logs one line per request with the id as a hash, never the id or a token", async () => {
    const link = await makeLink("user-demo", "sim-006");
    const id = link.slice(link.lastIndexOf("/") + 1);
    const click = await post(link);
    const token = new URL(String(click.headers.location)).searchParams.get("token")!;
    const log = serving.stderr();
    expect(log).toMatch(/^\S+Z POST \/l\/#[0-9a-f]{16} 303 \d+ms/m);
    expect(log).not.toContain(id);
    expect(log).not.toContain(token);
    expect(log).not.toContain(encodeURIComponent(token));
  });
});

describe("links serve when the budget is full, the service fails, or a link is revoked", () => {
  let t: TestEnv;
  let serving: ServingLinks;
  let env: Record<string, string>;
  const makeLink = async (user: string, sim: string): Promise<string> => {
    const r = await t.run(["link", "--user", user, "--sim", sim, "--durable", "-o", "text"], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    return r.stdout.trim();
  };

  beforeAll(async () => {
    t = await startTestEnv();
    // Two access requests per 30 s: one first click (deep link + token) fills it.
    env = { ...t.env, SIMADMIN_LINKS_KEY: KEY, SIMADMIN_RATE_LIMITS: "access=2/30s" };
    serving = await serveLinks(["--listen", ":0"], env);
    env.SIMADMIN_LINKS_URL = serving.url;
  });
  afterAll(async () => {
    await serving.stop();
    await t.close();
  });

  it("answers 503 with Retry-After and a page that continues by itself, and the reload finishes the click", async () => {
    const a = await makeLink("user-demo", "sim-001");
    expect((await post(a)).status).toBe(303);
    const b = await makeLink("user-b", "sim-001");
    const before = t.sandbox.requests.length;
    const busy = await post(b);
    expect(busy.status).toBe(503);
    expect(Number(busy.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const refresh = /<meta http-equiv="refresh" content="(\d+);url=([^"]+)">/.exec(busy.body);
    expect(refresh?.[1]).toBe(busy.headers["retry-after"]);
    expect(t.sandbox.requests.length).toBe(before); // nothing sent, so never a 429
    // The reload (a GET with the resume ticket) is the click again: still no room, still 503 —
    // while a GET without it, or with a forged one, is only the Start page.
    const resumeUrl = new URL(refresh![2]!.replace(/&amp;/g, "&"), b).href;
    expect((await http(resumeUrl)).status).toBe(503);
    expect((await http(`${b}?resume=9zzzzz.AAAAAAAAAAAAAAAA`)).status).toBe(200);
    expect((await http(b)).status).toBe(200);
    // A ticket is for its own link only.
    expect((await http(`${a}?resume=${new URL(resumeUrl).searchParams.get("resume")}`)).status).toBe(200);
  });

  it("stops a revoked link, and every link of a revoked user, within 10 s", async () => {
    const one = await makeLink("user-demo", "sim-001");
    const other = await makeLink("user-demo", "sim-003");
    const later = await makeLink("user-c", "sim-001");
    expect((await http(one)).status).toBe(200);
    const revoke = await t.run(["links", "revoke", one], { env });
    expect(revoke.exitCode, revoke.stderr).toBe(0);
    const byUser = await t.run(["links", "revoke", "--user", "user-c"], { env });
    expect(byUser.exitCode, byUser.stderr).toBe(0);
    let statuses: number[] = [];
    for (let i = 0; i < 110; i++) {
      statuses = [(await http(one)).status, (await http(later)).status];
      if (statuses.every((s) => s === 410)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(statuses).toEqual([410, 410]);
    expect((await http(one)).body).toMatch(/withdrawn/);
    expect((await http(other)).status).toBe(200);
  });

  it("refuses links revoke without links or --user, and a link of another service", async () => {
    expect((await t.run(["links", "revoke"], { env })).exitCode).toBe(2);
    const foreign = signLinkId(
      Buffer.from(KEY),
      { service: "https://elsewhere.example", organizationId: "org-demo" },
      {
        userId: "u",
        simulationId: "s",
        issuedAt: Date.now(),
        expiresAt: Date.now() + 1000,
      },
    );
    const r = await t.run(["links", "revoke", foreign], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/was not made for/);
  });

  it("stops on the signal with exit 0", async () => {
    const extra = await serveLinks(["--listen", ":0"], env);
    const { exitCode, stderr } = await extra.stop();
    expect(exitCode).toBe(0);
    expect(stderr).toMatch(/stopped\n$/);
  });
});
