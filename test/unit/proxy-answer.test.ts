import { describe, expect, it } from "vitest";
import { isProxyAnswer, proxyAnswerError, proxyRefusal } from "../../src/api/proxy-answer.js";
import type { ProxyInfo } from "../../src/api/proxy-env.js";
import { isRetryable } from "../../src/api/scheduler.js";

// Which error answers are a proxy's, by shape (issue 22 item 4; docs/proxies.md). The header
// sets are those real squid 5.7 and tinyproxy 1.11 send (curl -i through them).

const PROXY: ProxyInfo = { display: "http://proxy:3128", variable: "http_proxy", withCredentials: false };
const HTTP = "http://api.example.com/v2/access-api/user/token";
const HTTPS = "https://api.example.com/v2/access-api/user/token";
const HTML = "<!DOCTYPE html><html><head><title>ERROR</title></head></html>";

function answer(status: number, headers: Record<string, string>, body: unknown = HTML) {
  return { status, header: (name: string) => headers[name.toLowerCase()], body };
}

const SQUID_DENY = {
  server: "squid/5.7",
  "x-squid-error": "ERR_ACCESS_DENIED 0",
  via: "1.1 vm (squid/5.7)",
  "content-type": "text/html;charset=utf-8",
};
const TINYPROXY_401 = { server: "tinyproxy/1.11.1", "content-type": "text/html", "www-authenticate": 'Basic realm="Tinyproxy"' };
const SERVICE_JSON = { "content-type": "application/json", via: "1.1 vm (squid/5.7)" };

describe("isProxyAnswer", () => {
  it.each([
    ["squid's deny page (403)", answer(403, SQUID_DENY), HTTP, PROXY, true],
    ["tinyproxy's 401", answer(401, TINYPROXY_401), HTTP, PROXY, true],
    ["a 407, even without a known proxy", answer(407, {}), HTTP, undefined, true],
    ["Proxy-Authenticate on a 401", answer(401, { "proxy-authenticate": "Basic" }, ""), HTTP, PROXY, true],
    ["an HTML 503 with Via", answer(503, { via: "1.1 gw" }), HTTP, PROXY, true],
    ["squid's 503 ERR_CONNECT_FAIL", answer(503, { ...SQUID_DENY, "x-squid-error": "ERR_CONNECT_FAIL 111" }), HTTP, PROXY, true],
    ["the service's JSON 403 forwarded by squid (Via only)", answer(403, SERVICE_JSON, { message: "no" }), HTTP, PROXY, false],
    ["the service's JSON 401 forwarded", answer(401, SERVICE_JSON, { message: "bad key" }), HTTP, PROXY, false],
    ["an HTML 403 without any proxy mark", answer(403, { "content-type": "text/html" }), HTTP, PROXY, false],
    ["squid marks but no proxy in use", answer(403, SQUID_DENY), HTTP, undefined, false],
    ["an https:// service (tunnelled: the proxy cannot answer inside)", answer(403, SQUID_DENY), HTTPS, PROXY, false],
    ["a 404 with squid marks is the service's business", answer(404, SQUID_DENY), HTTP, PROXY, false],
  ])("%s: %s", (_name, shape, url, proxy, expected) => {
    expect(isProxyAnswer(shape, proxy, url)).toBe(expected);
  });
});

describe("proxyRefusal", () => {
  it("a 407 without credentials: exit 8, not retried, not sent on, says where the credentials go", () => {
    const error = proxyAnswerError("user token", HTTP, answer(407, {}), PROXY);
    expect(error?.exitCode).toBe(8);
    expect(error?.message).toBe(
      "user token: the proxy http://proxy:3128 refused the request to http://api.example.com: 407 Proxy Authentication Required; the API key was not checked",
    );
    expect(error?.hint).toBe("set credentials in http_proxy=http://user:password@proxy:3128");
    expect(error?.delivery).toBe("not-sent");
    expect(isRetryable(error, "safe")).toBe(false);
  });

  it("a 403 deny page names squid's code and is not retried", () => {
    const error = proxyAnswerError("user token", HTTP, answer(403, SQUID_DENY), PROXY);
    expect(error?.message).toContain("refused the request to http://api.example.com: 403 Forbidden (ERR_ACCESS_DENIED)");
    expect(error?.hint).toContain("NO_PROXY");
    expect(isRetryable(error, "upload")).toBe(false);
  });

  it("a 5xx from the proxy is retried; an upload only when squid says it never connected", () => {
    const failed = proxyAnswerError(
      "upload",
      HTTP,
      answer(503, { ...SQUID_DENY, "x-squid-error": "ERR_CONNECT_FAIL 111" }),
      PROXY,
    );
    expect(failed?.message).toContain(
      "could not pass on the request to http://api.example.com: 503 Service Unavailable (ERR_CONNECT_FAIL)",
    );
    expect(failed?.delivery).toBe("not-sent");
    expect(isRetryable(failed, "upload")).toBe(true);
    const timedOut = proxyAnswerError(
      "upload",
      HTTP,
      answer(504, { ...SQUID_DENY, "x-squid-error": "ERR_READ_TIMEOUT 0" }),
      PROXY,
    );
    expect(timedOut?.delivery).toBe("maybe-received");
    expect(isRetryable(timedOut, "upload")).toBe(false);
    expect(isRetryable(timedOut, "safe")).toBe(true);
  });

  it("a refused CONNECT: 4xx not retried, 5xx retried, never sent", () => {
    const base = {
      label: "user token",
      origin: "https://api.example.com",
      proxy: { ...PROXY, variable: "HTTPS_PROXY", withCredentials: true },
      tunnel: true,
    };
    const refused = proxyRefusal({ ...base, status: 401 });
    expect(refused.message).toContain("refused a tunnel to https://api.example.com: 401 Unauthorized");
    expect(refused.hint).toContain("did not accept the user name and password in HTTPS_PROXY");
    expect(isRetryable(refused, "safe")).toBe(false);
    const gateway = proxyRefusal({ ...base, status: 502 });
    expect(gateway.delivery).toBe("not-sent");
    expect(isRetryable(gateway, "upload")).toBe(true);
  });
});
