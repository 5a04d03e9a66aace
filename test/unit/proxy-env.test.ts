import { describe, expect, it } from "vitest";
import {
  bypassesProxy,
  cidr4Match,
  cidr6Match,
  ignoredUpperHttpProxy,
  noProxyMatches,
  proxyCredentials,
  proxyFor,
} from "../../src/api/proxy-env.js";
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
    [
      "http URL ignores upper-case HTTP_PROXY, as curl does",
      "http://api.example.com",
      { HTTP_PROXY: "http://p:3128" },
      undefined,
    ],
    [
      "ALL_PROXY still serves an http URL",
      "http://api.example.com",
      { HTTP_PROXY: "http://x:1", ALL_PROXY: "http://all:1" },
      "http://all:1",
    ],
    [
      "all_proxy wins over ALL_PROXY",
      "https://api.example.com",
      { ALL_PROXY: "http://up:1", all_proxy: "http://low:1" },
      "http://low:1",
    ],
    [
      "an empty https_proxy falls through to HTTPS_PROXY",
      "https://api.example.com",
      { https_proxy: "", HTTPS_PROXY: "http://up:2" },
      "http://up:2",
    ],
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

// curl 7.88.1's tests/unit/unit1614.c, case for case (the data only; the code under test is
// ours): Curl_cidr4_match, Curl_cidr6_match and Curl_check_noproxy.
describe("curl 7.88 unit1614: cidr4", () => {
  it.each([
    ["192.160.0.1", "192.160.0.1", 33, false],
    ["192.160.0.1", "192.160.0.1", 32, true],
    ["192.160.0.1", "192.160.0.1", 0, true],
    ["192.160.0.1", "192.160.0.1", 24, true],
    ["192.160.0.1", "192.160.0.1", 26, true],
    ["192.160.0.1", "192.160.0.1", 20, true],
    ["192.160.0.1", "192.160.0.1", 18, true],
    ["192.160.0.1", "192.160.0.1", 12, true],
    ["192.160.0.1", "192.160.0.1", 8, true],
    ["192.160.0.1", "10.0.0.1", 8, false],
    ["192.160.0.1", "10.0.0.1", 32, false],
    ["192.160.0.1", "10.0.0.1", 0, false],
  ] as const)("%s in %s/%i: %s", (address, network, bits, match) => {
    expect(cidr4Match(address, network, bits)).toBe(match);
  });
});

describe("curl 7.88 unit1614: cidr6", () => {
  it.each([
    ["::1", "::1", 0, true],
    ["::1", "::1", 128, true],
    ["::1", "0:0::1", 128, true],
    ["::1", "0:0::1", 129, false],
    ["fe80::ab47:4396:55c9:8474", "fe80::ab47:4396:55c9:8474", 64, true],
  ] as const)("%s in %s/%i: %s", (address, network, bits, match) => {
    expect(cidr6Match(address, network, bits)).toBe(match);
  });

  // Prefixes that are not whole bytes: curl 7.88 compared them inverted; these are the cases
  // curl added with its fix (8.17), which simadmin follows.
  it.each([65, 66, 67, 68, 69, 70, 71, 72])("2001:db8::/%i holds 2001:db8::1, not 2001:db8:8000::1", (bits) => {
    expect(noProxyMatches("[2001:db8::1]", `2001:db8::/${bits}`)).toBe(true);
    expect(noProxyMatches("[2001:db8:8000::1]", `2001:db8::/${bits}`)).toBe(false);
  });
});

const ADDRESS_128 =
  "127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.1.127.0.0.";

describe("curl 7.88 unit1614: no_proxy", () => {
  it("the long entries are the 128- and 127-byte ones", () => {
    expect(ADDRESS_128).toHaveLength(128);
  });

  it.each([
    ["www.example.com", "localhost .example.com .example.de", true],
    ["www.example.com", "localhost,.example.com,.example.de", true],
    ["www.example.com.", "localhost,.example.com,.example.de", true],
    ["example.com", "localhost,.example.com,.example.de", true],
    ["example.com.", "localhost,.example.com,.example.de", true],
    ["www.example.com", "localhost,.example.com.,.example.de", true],
    ["www.example.com", "localhost,www.example.com.,.example.de", true],
    ["example.com", "localhost,example.com,.example.de", true],
    ["example.com.", "localhost,example.com,.example.de", true],
    ["nexample.com", "localhost,example.com,.example.de", false],
    ["www.example.com", "localhost,example.com,.example.de", true],
    ["127.0.0.1", "127.0.0.1,localhost", true],
    ["127.0.0.1", "127.0.0.1,localhost,", true],
    ["127.0.0.1", "127.0.0.1/8,localhost,", true],
    ["127.0.0.1", "127.0.0.1/28,localhost,", true],
    ["127.0.0.1", "127.0.0.1/31,localhost,", true],
    ["127.0.0.1", "localhost,127.0.0.1", true],
    ["127.0.0.1", `localhost,${ADDRESS_128}`, false],
    ["127.0.0.1", `localhost,${ADDRESS_128.slice(0, -1)}`, false],
    ["localhost", "localhost,127.0.0.1", true],
    ["localhost", "127.0.0.1,localhost", true],
    ["foobar", "barfoo", false],
    ["foobar", "foobar", true],
    ["192.168.0.1", "foobar", false],
    ["192.168.0.1", "192.168.0.0/16", true],
    ["192.168.0.1", "192.168.0.0/24", true],
    ["192.168.0.1", "192.168.0.0/32", false],
    ["192.168.0.1", "192.168.0.0", false],
    ["192.168.1.1", "192.168.0.0/24", false],
    ["192.168.1.1", "foo, bar, 192.168.0.0/24", false],
    ["192.168.1.1", "foo, bar, 192.168.0.0/16", true],
    ["[::1]", "foo, bar, 192.168.0.0/16", false],
    ["[::1]", "foo, bar, ::1/64", true],
    ["bar", "foo, bar, ::1/64", true],
    ["BAr", "foo, bar, ::1/64", true],
    ["BAr", "foo,,,,,              bar, ::1/64", true],
    ["www.example.com", "foo, .example.com", true],
    ["www.example.com", "www2.example.com, .example.net", false],
    ["example.com", ".example.com, .example.net", true],
    ["nonexample.com", ".example.com, .example.net", false],
  ])("%s in %j: %s", (name, noProxy, match) => {
    expect(noProxyMatches(name, noProxy)).toBe(match);
  });
});

// What the curl 7.88.1 binary does with these (checked with `NO_PROXY=… curl -v`), and what
// the issue found simadmin doing otherwise.
describe("NO_PROXY for the service's URL, as the curl 7.88 binary", () => {
  it.each([
    ["exact host", "https://api.example.com", "api.example.com", true],
    ["domain suffix without a dot", "https://api.example.com", "example.com", true],
    ["domain suffix with a leading dot", "https://api.example.com", ".example.com", true],
    ["leading dot also matches the domain itself", "https://example.com", ".example.com", true],
    ["a trailing dot on the entry", "https://api.example.com", "example.com.", true],
    ["a trailing dot on the host", "https://api.example.com./", "example.com", true],
    ["*.domain is no wildcard", "https://api.example.com", "*.example.com", false],
    ["not a suffix on a label boundary", "https://badexample.com", "example.com", false],
    ["another host", "https://api.example.com", "other.com", false],
    ["* alone bypasses everything", "https://api.example.com", "*", true],
    ["* inside a list is no wildcard", "https://api.example.com", "foo,*", false],
    ["* after a blank is no wildcard", "https://api.example.com", " *", false],
    ["one of a list, spaces allowed", "https://api.example.com", "localhost, example.com", true],
    ["space-separated", "https://api.example.com", "localhost example.com", true],
    ["case-insensitive", "https://API.Example.COM", "EXAMPLE.com", true],
    ["host:port never matches", "https://api.example.com:8443", "api.example.com:8443", false],
    ["IP address", "http://127.0.0.1:8080", "127.0.0.1", true],
    ["IP address with a port never matches", "http://127.0.0.1:8080", "127.0.0.1:8080", false],
    ["CIDR 127.0.0.0/8", "http://127.0.0.1:8080", "127.0.0.0/8", true],
    ["CIDR 10.0.0.0/8", "https://10.20.30.40", "10.0.0.0/8", true],
    ["CIDR 10.0.0.0/8, another network", "https://11.0.0.1", "10.0.0.0/8", false],
    ["a CIDR entry never matches a host name", "https://api.example.com", "10.0.0.0/8", false],
    ["IPv6 address", "http://[::1]:8080", "::1", true],
    ["IPv6 CIDR", "http://[fd00::5]:8080", "fd00::/8", true],
    ["IPv6 in brackets is no address entry", "http://[::1]:8080", "[::1]", false],
    ["empty", "https://api.example.com", "", false],
  ])("%s", (_name, url, noProxy, bypass) => {
    expect(bypassesProxy(new URL(url), noProxy)).toBe(bypass);
    const env = { https_proxy: "http://p:1", http_proxy: "http://p:1", no_proxy: noProxy };
    expect(proxyFor(url, env) === undefined).toBe(bypass);
  });

  it("is read in either case, lower case first", () => {
    expect(proxyFor("https://api.example.com", { HTTPS_PROXY: "http://p:1", NO_PROXY: "example.com" })).toBeUndefined();
    const both = { HTTPS_PROXY: "http://p:1", no_proxy: "other.com", NO_PROXY: "example.com" };
    expect(proxyFor("https://api.example.com", both)?.display).toBe("http://p:1");
  });

  it("names an upper-case HTTP_PROXY that an http:// service ignores", () => {
    expect(ignoredUpperHttpProxy("http://api.example.com", { HTTP_PROXY: "http://p:1" })).toBe("HTTP_PROXY");
    expect(
      ignoredUpperHttpProxy("http://api.example.com", { HTTP_PROXY: "http://p:1", http_proxy: "http://p:1" }),
    ).toBeUndefined();
    expect(ignoredUpperHttpProxy("https://api.example.com", { HTTP_PROXY: "http://p:1" })).toBeUndefined();
  });
});

describe("proxyCredentials", () => {
  it("lists user and password (raw and decoded) for the redactor", () => {
    const secrets = proxyCredentials({ https_proxy: "http://alice:p%40ss@p:3128", HTTP_PROXY: "http://p:3128" });
    expect(secrets).toEqual(expect.arrayContaining(["alice", "p%40ss", "p@ss"]));
  });
});
