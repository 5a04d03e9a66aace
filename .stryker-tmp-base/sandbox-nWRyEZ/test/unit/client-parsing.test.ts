// @ts-nocheck
import { describe, expect, it } from "vitest";
import { deepLinkFromAnswer } from "../../src/api/endpoints.js";
import { UnexpectedResponseError } from "../../src/errors.js";

describe("deepLinkFromAnswer (field name not shown in the spec)", () => {
  it.each([
    ["a bare URL string", "https://app.example/o/simulation/s"],
    ["{url}", { url: "https://app.example/o/simulation/s" }],
    ["{deepLink} beside other fields", { success: true, deepLink: "https://app.example/o/simulation/s", id: "s" }],
    ["one nested URL", { data: { link: "https://app.example/o/simulation/s" } }],
  ])("accepts %s", (_name, body) => {
    expect(deepLinkFromAnswer(body, "s")).toBe("https://app.example/o/simulation/s");
  });
  it("refuses two URL fields rather than guessing", () => {
    expect(() => deepLinkFromAnswer({ a: "https://x.example/1", b: "https://x.example/2" }, "s")).toThrow(
      UnexpectedResponseError,
    );
  });
});
