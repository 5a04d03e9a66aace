import { afterEach, describe, expect, it } from "vitest";
import { FAST, ROOMY, closedPort, runCli, startTestEnv, type TestEnv } from "../helpers/in-process.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";

// Corporate proxies (docs/cli-contract.md "Global options", docs/proxies.md): an http://
// service through a real forward proxy on 127.0.0.1 started here (absolute form), NO_PROXY,
// a proxy that is down, one simadmin cannot speak. The proxy variables come from the run's
// environment, so the program runs in-process; an https:// service through a CONNECT tunnel,
// whose private CA Node reads from NODE_EXTRA_CA_CERTS when the process starts, is
// test/e2e/network-proxy.test.ts.

const TOKEN = ["token", "--user", "user-demo", "-o", "json"];

let t: TestEnv | undefined;
let proxy: TestProxy | undefined;
afterEach(async () => {
  await t?.close();
  await proxy?.close();
  t = undefined;
  proxy = undefined;
});

describe("an http:// service", () => {
  it("goes through http_proxy in absolute form", async () => {
    t = await startTestEnv(ROOMY);
    proxy = await startProxy();
    const r = await t.run(TOKEN, { env: { ...FAST, http_proxy: proxy.url } });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty("token");
    expect(proxy.visits).toEqual([
      { form: "absolute", target: `${t.sandbox.baseUrl}/v2/access-api/user/token`, proxyAuthorization: undefined },
    ]);
    expect(t.sandbox.requests).toHaveLength(1);
  });

  it("ignores upper-case HTTP_PROXY, as curl does, and says so", async () => {
    t = await startTestEnv(ROOMY);
    proxy = await startProxy();
    const r = await t.run(TOKEN, { env: { ...FAST, HTTP_PROXY: proxy.url } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/HTTP_PROXY is ignored for http:\/\/ services, as curl ignores it; set http_proxy/);
    expect(proxy.visits).toHaveLength(0);
    expect(t.sandbox.requests).toHaveLength(1);
  });

  it.each([
    ["the host", "127.0.0.1"],
    ["*", "*"],
    ["a CIDR range holding it", "127.0.0.0/8"],
    ["a list holding the host", "example.com, 127.0.0.1"],
  ])("goes direct when NO_PROXY names %s", async (_name, noProxy) => {
    t = await startTestEnv(ROOMY);
    proxy = await startProxy();
    const r = await t.run(TOKEN, { env: { ...FAST, http_proxy: proxy.url, NO_PROXY: noProxy } });
    expect(r.exitCode).toBe(0);
    expect(proxy.visits).toHaveLength(0);
    expect(t.sandbox.requests).toHaveLength(1);
  });

  it("still uses the proxy when NO_PROXY names the host with a port (curl matches names only)", async () => {
    t = await startTestEnv(ROOMY);
    proxy = await startProxy();
    const port = new URL(t.sandbox.baseUrl).port;
    const r = await t.run(TOKEN, { env: { ...FAST, http_proxy: proxy.url, no_proxy: `127.0.0.1:${port}` } });
    expect(r.exitCode).toBe(0);
    expect(proxy.visits).toHaveLength(1);
  });

  it("--sandbox is reached directly whatever the proxy variables say", async () => {
    proxy = await startProxy();
    const r = await runCli(["--sandbox", ...TOKEN], { env: { http_proxy: proxy.url, HTTPS_PROXY: proxy.url } });
    expect(r.exitCode).toBe(0);
    expect(proxy.visits).toHaveLength(0);
  });
});

it("a proxy that is down: exit 8 naming the proxy (not the service)", async () => {
  t = await startTestEnv(ROOMY);
  const port = await closedPort();
  const r = await t.run([...TOKEN, "--retries", "0"], { env: { ...FAST, http_proxy: `http://127.0.0.1:${port}` } });
  expect(r.exitCode).toBe(8);
  expect(r.stderr).toMatch(new RegExp(`cannot reach the proxy http://127.0.0.1:${port} \\(ECONNREFUSED\\)`));
  expect(t.sandbox.requests).toHaveLength(0);
});

it("a SOCKS proxy is a usage error (exit 2), nothing sent", async () => {
  t = await startTestEnv(ROOMY);
  const r = await t.run(TOKEN, { env: { ...FAST, http_proxy: "socks5://127.0.0.1:1080" } });
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toMatch(/http_proxy: socks5 proxies are not supported/);
  expect(t.sandbox.requests).toHaveLength(0);
});
