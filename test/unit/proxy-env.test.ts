import { describe, expect, it } from "vitest";
import { bypassesProxy, proxyCredentials, proxyFor } from "../../src/api/proxy-env.js";
import { UsageError } from "../../src/errors.js";

// Which proxy a request takes, by curl's rules (docs/cli-contract.md "Global options").

describe("proxyFor", () => {
  it.each([
    ["https URL, HTTPS_PROXY", "https://api.example.com", { HTTPS_PROXY: "http://p:3128" }, "http://p:3128"],
    ["https URL, https_proxy (lower case)", "https://api.example.com", { https_proxy: "http://p:3128" }, "http://p:3128"],
    [
      "lower case wins over upper case",
      "https://api.example.com",
      { https_proxy: "http://low:1", HTTPS_PROXY: "http://up:2" },
      "http://low:1",
    ],
    ["http URL, HTTP_PROXY", "http://api.example.com", { HTTP_PROXY: "http://p:3128" }, "http://p:3128"],
    ["http URL, http_proxy", "http://api.example.com", { http_proxy: "http://p:3128" }, "http://p:3128"],
    ["https URL ignores HTTP_PROXY, as curl does", "https://api.example.com", { HTTP_PROXY: "http://p:3128" }, undefined],
    ["http URL ignores HTTPS_PROXY", "http://api.example.com", { HTTPS_PROXY: "http://p:3128" }, undefined],
    ["ALL_PROXY is the fallback", "https://api.example.com", { ALL_PROXY: "http://all:1" }, "http://all:1"],
    [
      "a proxy without scheme is http://",
      "https://api.example.com",
      { HTTPS_PROXY: "proxy.corp:3128" },
      "http://proxy.corp:3128",
    ],
    ["an empty variable is unset", "https://api.example.com", { HTTPS_PROXY: "" }, undefined],
    ["credentials never reach the display form", "https://a.example.com", { HTTPS_PROXY: "http://u:pw@p:3128" }, "http://p:3128"],
  ])("%s", (_name, url, env, expected) => {
    expect(proxyFor(url, env)?.display).toBe(expected);
  });

  it("keeps the credentials in the URL handed to the transport", () => {
    expect(proxyFor("https://a.example.com", { HTTPS_PROXY: "http://u:p%40ss@p:3128" })?.url.password).toBe("p%40ss");
  });

  it.each([
    ["socks5://p:1080", /socks5 proxies are not supported/],
    ["http://[bad", /HTTPS_PROXY is not a valid proxy address/],
  ])("refuses %s with a usage error naming the variable, not its value", (value, message) => {
    const call = (): unknown => proxyFor("https://api.example.com", { HTTPS_PROXY: value });
    expect(call).toThrow(UsageError);
    expect(call).toThrow(message);
  });

  it("does not echo a password from an unparseable proxy variable", () => {
    try {
      proxyFor("https://a.example.com", { HTTPS_PROXY: "http://u:hunter2@[bad" });
    } catch (error) {
      expect((error as Error).message).not.toContain("hunter2");
      return;
    }
    throw new Error("expected a usage error");
  });
});

describe("NO_PROXY", () => {
  it.each([
    ["exact host", "https://api.example.com", "api.example.com", true],
    ["domain suffix without a dot", "https://api.example.com", "example.com", true],
    ["domain suffix with a leading dot", "https://api.example.com", ".example.com", true],
    ["leading dot also matches the domain itself", "https://example.com", ".example.com", true],
    ["*.domain", "https://api.example.com", "*.example.com", true],
    ["not a suffix on a label boundary", "https://badexample.com", "example.com", false],
    ["another host", "https://api.example.com", "other.com", false],
    ["* alone bypasses everything", "https://api.example.com", "*", true],
    ["one of a list, spaces allowed", "https://api.example.com", "localhost, example.com", true],
    ["case-insensitive", "https://API.Example.COM", "example.com", true],
    ["host:port, same port", "https://api.example.com:8443", "api.example.com:8443", true],
    ["host:port, default port counts", "https://api.example.com", "api.example.com:443", true],
    ["host:port, other port", "https://api.example.com:8443", "api.example.com:443", false],
    ["IP address", "http://127.0.0.1:8080", "127.0.0.1", true],
    ["IPv6 address", "http://[::1]:8080", "::1", true],
    ["IPv6 with port", "http://[::1]:8080", "[::1]:8080", true],
    ["empty", "https://api.example.com", "", false],
  ])("%s", (_name, url, noProxy, bypass) => {
    expect(bypassesProxy(new URL(url), noProxy)).toBe(bypass);
    const env = { HTTPS_PROXY: "http://p:1", HTTP_PROXY: "http://p:1", no_proxy: noProxy };
    expect(proxyFor(url, env) === undefined).toBe(bypass);
  });

  it("is read in either case", () => {
    expect(proxyFor("https://api.example.com", { HTTPS_PROXY: "http://p:1", NO_PROXY: "example.com" })).toBeUndefined();
  });
});

describe("proxyCredentials", () => {
  it("lists user and password (raw and decoded) for the redactor", () => {
    const secrets = proxyCredentials({ https_proxy: "http://alice:p%40ss@p:3128", HTTP_PROXY: "http://p:3128" });
    expect(secrets).toEqual(expect.arrayContaining(["alice", "p%40ss", "p@ss"]));
  });
});
