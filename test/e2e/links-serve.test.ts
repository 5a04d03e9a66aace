import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { startLinkServeProcess } from "../helpers/link-serve-process.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

// links serve as a process (docs/cli-contract.md "Durable links"): SIGTERM with a click in
// flight, SIGKILL and a restart, two instances sharing one budget through Redis. The links the
// servers are clicked through are made in-process (`link --durable`, the same program): making
// them is not what is tested here, and ten binary start-ups cost ~0.8 s of CPU. What it refuses
// before it listens (a bad --listen, an address in use, no key or organization) is
// test/cli/links-serve-refusals.test.ts's (docs/development.md, "How long the suite takes").

function post(url: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "Content-Length": "0" } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on("error", reject);
    req.end();
  });
}
const get = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    })
      .on("error", reject)
      .end();
  });

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv({ rateLimits: { access: { limit: 1000, windowMs: 1000 } } });
});
afterAll(async () => {
  await t.close();
});

const linkFor = async (env: Record<string, string>, user: string, sim: string): Promise<string> => {
  const r = await runInProcess(["link", "--user", user, "--sim", sim, "--durable", "-o", "text"], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout.trim();
};

describe("links serve (process)", () => {
  it("on SIGTERM stops accepting, finishes the click in flight, and exits 0", async () => {
    const server = await startLinkServeProcess(["--listen", ":0"], t.env);
    const env = { ...t.env, SIMADMIN_LINKS_URL: server.url };
    const link = await linkFor(env, "user-demo", "sim-001");
    t.sandbox.faults.delayNext("/v2/access-api/user/token", 1, 1500);
    const before = t.sandbox.requests.length;
    const click = post(link);
    // Once the token request is at the sandbox, the click is in flight.
    for (let i = 0; !t.sandbox.requests.slice(before).some((r) => r.path.endsWith("/user/token")); i++) {
      if (i > 1000) throw new Error("the click never reached the service");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const exit = server.stop("SIGTERM");
    expect((await click).status).toBe(303);
    expect(await exit).toBe(0);
    expect(server.stderr()).toMatch(/POST \/l\/#[0-9a-f]{16} 303 .*\nstopped\n$/s);
  });

  it("after SIGKILL, a restart on the same settings serves the links made before", async () => {
    const first = await startLinkServeProcess(["--listen", ":0"], t.env);
    const link = await linkFor({ ...t.env, SIMADMIN_LINKS_URL: first.url }, "user-demo", "sim-002");
    expect(await first.stop("SIGKILL")).toBe("SIGKILL");
    const second = await startLinkServeProcess(["--listen", ":0"], t.env);
    try {
      const moved = `${second.url}${new URL(link).pathname}`;
      expect(await get(moved)).toBe(200);
      expect((await post(moved)).status).toBe(303);
    } finally {
      await second.stop();
    }
  });
});

describe("two links serve instances sharing a Redis budget", () => {
  let redis: TestRedis;
  let limited: TestEnv;
  beforeAll(async () => {
    redis = await startRedis();
    limited = await startTestEnv({ rateLimits: { access: { limit: 6, windowMs: 60_000 } } });
  });
  afterAll(async () => {
    await limited.close();
    await redis.stop();
  });

  it("spend one budget: the service never answers 429, the clicks beyond it get 503", async () => {
    const env = {
      ...limited.env,
      SIMADMIN_RATE_STORE: redis.url,
      SIMADMIN_RATE_LIMITS: "access=6/60s",
      SIMADMIN_LINKS_KEY: "two-instances-share-this-key-0123456789",
    };
    const [a, b] = await Promise.all([
      startLinkServeProcess(["--listen", ":0"], env),
      startLinkServeProcess(["--listen", ":0"], env),
    ]);
    try {
      const ids: string[] = [];
      for (let i = 1; i <= 8; i++) {
        const user = limited.sandbox.state.createUser(limited.sandbox.org, { email: `t${i}@example.com` }).user.userId;
        const r = await runInProcess(["link", "--user", user, "--sim", "sim-001", "--durable", "-o", "text"], {
          env: { ...env, SIMADMIN_LINKS_URL: "https://links.example.com" },
        });
        ids.push(new URL(r.stdout.trim()).pathname);
      }
      const answers = await Promise.all(ids.map((path, i) => post(`${(i % 2 ? a : b).url}${path}`)));
      const statuses = answers.map((r) => r.status).sort();
      expect(limited.sandbox.requests.filter((r) => r.status === 429)).toEqual([]);
      // 6 requests: one deep link per instance at most, and a token for each click let through.
      expect(statuses.filter((s) => s === 303).length).toBeGreaterThanOrEqual(4);
      expect(statuses.filter((s) => s !== 303).every((s) => s === 503)).toBe(true);
      expect(limited.sandbox.requests.length).toBeLessThanOrEqual(6);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
