import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAST, ROOMY, closedPort, startTestEnv, type TestEnv } from "../helpers/cli.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";
import { makeCertificates, type TestCertificates } from "../helpers/tls.js";

// Corporate proxies (issue 13 item 1; docs/cli-contract.md "Global options"): the built
// binary against the sandbox, through a real forward proxy on 127.0.0.1 started here —
// absolute-form for an http:// service, a CONNECT tunnel for an https:// one.

const TOKEN = ["token", "--user", "user-demo", "-o", "json"];

let certs: TestCertificates;
beforeAll(() => {
  certs = makeCertificates();
});
afterAll(() => certs.remove());

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
    const r = await t0().run(["--sandbox", ...TOKEN], { env: { http_proxy: proxy.url, HTTPS_PROXY: proxy.url } });
    expect(r.exitCode).toBe(0);
    expect(proxy.visits).toHaveLength(0);
  });
});

describe("an https:// service (private CA trusted through NODE_EXTRA_CA_CERTS)", () => {
  it("goes through HTTPS_PROXY in a CONNECT tunnel", async () => {
    t = await startTestEnv({ ...ROOMY, tls: certs.signed });
    proxy = await startProxy();
    const r = await t.run(TOKEN, { env: { ...FAST, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certs.caFile } });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty("token");
    expect(proxy.visits).toEqual([
      { form: "connect", target: `127.0.0.1:${new URL(t.sandbox.baseUrl).port}`, proxyAuthorization: undefined },
    ]);
    expect(t.sandbox.requests).toHaveLength(1);
  });

  it("sends the proxy credentials from the URL, and shows them nowhere, even with --verbose", async () => {
    t = await startTestEnv({ ...ROOMY, tls: certs.signed });
    proxy = await startProxy({ credentials: "alice-proxy:s3cret-pa55" });
    const proxyUrl = proxy.url.replace("http://", "http://alice-proxy:s3cret-pa55@");
    const r = await t.run([...TOKEN, "--verbose"], {
      env: { ...FAST, HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: certs.caFile },
    });
    expect(r.exitCode).toBe(0);
    expect(proxy.visits[0]?.proxyAuthorization).toBe(`Basic ${Buffer.from("alice-proxy:s3cret-pa55").toString("base64")}`);
    expect(r.stderr).toContain(`via ${proxy.url}`);
    expect(r.stderr).not.toContain("s3cret-pa55");
    expect(r.stderr).not.toContain("alice-proxy");
  });

  it("wrong proxy credentials: exit 8 naming the proxy and 407, not retried, password not shown", async () => {
    t = await startTestEnv({ ...ROOMY, tls: certs.signed });
    proxy = await startProxy({ credentials: "alice:right" });
    const proxyUrl = proxy.url.replace("http://", "http://alice:wrong-pa55word@");
    const r = await t.run([...TOKEN, "--verbose"], {
      env: { ...FAST, HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: certs.caFile },
    });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(
      `the proxy ${proxy.url} refused a tunnel to ${t.sandbox.baseUrl}: 407 Proxy Authentication Required`,
    );
    expect(r.stderr).toContain("the proxy did not accept the user name and password in HTTPS_PROXY");
    expect(r.stderr).not.toContain("wrong-pa55word");
    expect(proxy.visits).toHaveLength(1);
    expect(t.sandbox.requests).toHaveLength(0);
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

/** A harness without a sandbox of its own, for --sandbox runs. */
function t0(): { run: TestEnv["run"] } {
  return {
    run: async (args, options = {}) => {
      const { runBinary } = await import("../helpers/cli.js");
      return runBinary(args, options);
    },
  };
}
