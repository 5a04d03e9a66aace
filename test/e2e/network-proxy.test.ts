import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAST, ROOMY, startTestEnv, type TestEnv } from "../helpers/cli.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";
import { makeCertificates, type TestCertificates } from "../helpers/tls.js";

// Corporate proxies (docs/cli-contract.md "Global options"): the built binary against an
// https:// sandbox through a real forward proxy on 127.0.0.1 started here, in a CONNECT
// tunnel. The binary, because Node reads the private CA from NODE_EXTRA_CA_CERTS as the
// process starts; the http:// cases are test/cli/network-proxy.test.ts, in-process.

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
