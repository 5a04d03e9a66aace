import { describe, expect, it } from "vitest";
import { serviceMessage } from "../../src/api/client.js";
import { deepLinkFromAnswer } from "../../src/api/endpoints.js";
import { UnexpectedResponseError } from "../../src/errors.js";

describe("serviceMessage (error bodies of unknown shape)", () => {
  it.each([
    [{ error: { code: "X", message: "startDate is required" } }, "startDate is required"],
    [{ message: "Bad things" }, "Bad things"],
    [{ error: "Nope" }, "Nope"],
    [{ errors: [{ message: "first" }, { message: "second" }] }, "first"],
    ["plain text body", "plain text body"],
    [{ error: { message: "evil\u001b[2J" } }, "evil\\u001b[2J"],
    [{}, undefined],
  ])("%j → %j", (body, expected) => {
    expect(serviceMessage(body)).toBe(expected);
  });
});

describe("deepLinkFromAnswer (field name not shown in the spec)", () => {
  it.each([
    ["a bare URL string", "https://app.example/o/simulation/s"],
    ["{url}", { url: "https://app.example/o/simulation/s" }],
    ["{deepLink} beside other fields", { success: true, deepLink: "https://app.example/o/simulation/s", id: "s" }],
    ["one nested URL", { data: { link: "https://app.example/o/simulation/s" } }],
  ])("accepts %s", (_name, body) => {
    expect(deepLinkFromAnswer(body)).toBe("https://app.example/o/simulation/s");
  });
  it("refuses two URL fields rather than guessing", () => {
    expect(() => deepLinkFromAnswer({ a: "https://x.example/1", b: "https://x.example/2" })).toThrow(UnexpectedResponseError);
  });
});
