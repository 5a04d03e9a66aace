import { describe, expect, it } from "vitest";
import { UnexpectedResponseError } from "../../src/errors.js";
import { composeUserLink } from "../../src/domain/links.js";

const TOKEN = "++++////eyJvIjoib3JnIn0=.abc+def/ghi==";

describe("composeUserLink", () => {
  it.each([
    [
      "a deep link without a query",
      "https://app.example.com/org-1/simulation/sim-1",
      "https://app.example.com/org-1/simulation/sim-1?token=",
    ],
    [
      "a deep link with a query",
      "https://app.example.com/org-1/simulation/sim-1?lang=en",
      "https://app.example.com/org-1/simulation/sim-1?lang=en&token=",
    ],
    ["a deep link with several parameters", "https://app.example.com/s?a=1&b=2", "https://app.example.com/s?a=1&b=2&token="],
    ["a deep link ending in a bare ?", "https://app.example.com/s?", "https://app.example.com/s?token="],
  ])("appends the encoded token to %s", (_name, deepLink, prefix) => {
    const link = composeUserLink(deepLink, TOKEN);
    expect(link).toBe(`${prefix}${encodeURIComponent(TOKEN)}`);
    expect(new URL(link).searchParams.get("token")).toBe(TOKEN);
  });

  it("encodes +, / and = so that the token parses back unchanged", () => {
    const link = composeUserLink("https://app.example.com/s", "a+b/c=");
    expect(link).toBe("https://app.example.com/s?token=a%2Bb%2Fc%3D");
    expect(new URL(link).searchParams.get("token")).toBe("a+b/c=");
  });

  it("keeps the existing query byte for byte (no re-encoding of %20 or /)", () => {
    const link = composeUserLink("https://app.example.com/s?next=/a%20b&flag", "t");
    expect(link).toBe("https://app.example.com/s?next=/a%20b&flag&token=t");
  });

  it("replaces a token the deep link already carries instead of adding a second one", () => {
    const link = composeUserLink("https://app.example.com/s?token=old&lang=en", "new");
    expect(link).toBe("https://app.example.com/s?lang=en&token=new");
    expect(new URL(link).searchParams.getAll("token")).toEqual(["new"]);
  });

  it("keeps a fragment after the query", () => {
    expect(composeUserLink("https://app.example.com/s?lang=en#start", "t")).toBe(
      "https://app.example.com/s?lang=en&token=t#start",
    );
  });

  it("refuses a deep link that is not a URL", () => {
    expect(() => composeUserLink("not a url", "t")).toThrow(/deep link is not a URL/);
  });
});

describe("composeUserLink: which query parts are the token", () => {
  it.each([
    ["a percent-encoded name", "https://a.example/s?%74oken=old&lang=en", "https://a.example/s?lang=en&token=t"],
    ["a name without a value", "https://a.example/s?token&lang=en", "https://a.example/s?lang=en&token=t"],
    ["every copy", "https://a.example/s?token=1&token=2", "https://a.example/s?token=t"],
  ])("removes %s", (_name, deepLink, link) => {
    expect(composeUserLink(deepLink, "t")).toBe(link);
  });

  it.each([
    ["a longer name", "https://a.example/s?tokens=1&my_token=2", "https://a.example/s?tokens=1&my_token=2&token=t"],
    ["a name with a + or a space", "https://a.example/s?token+=1&token%20=2", "https://a.example/s?token+=1&token%20=2&token=t"],
    ["a value that says token", "https://a.example/s?next=token", "https://a.example/s?next=token&token=t"],
    ["a malformed escape", "https://a.example/s?%E0=x&token=old", "https://a.example/s?%E0=x&token=t"],
  ])("keeps %s", (_name, deepLink, link) => {
    expect(composeUserLink(deepLink, "t")).toBe(link);
  });

  it("drops empty parts between ampersands", () => {
    expect(composeUserLink("https://a.example/s?a=1&&b=2&", "t")).toBe("https://a.example/s?a=1&b=2&token=t");
  });

  it("quotes at most 200 characters of a deep link that is not a URL", () => {
    const text = "x".repeat(250);
    expect(() => composeUserLink(text, "t")).toThrow(
      new UnexpectedResponseError(`the service's deep link is not a URL: "${"x".repeat(200)}"`),
    );
  });
});
