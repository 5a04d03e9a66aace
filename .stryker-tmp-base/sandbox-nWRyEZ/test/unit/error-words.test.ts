// @ts-nocheck
import { describe, expect, it } from "vitest";
import { serviceWords } from "../../src/api/error-words.js";

// The service's own words in error bodies of any shape (issue 21 item 4).

describe("serviceWords", () => {
  it.each([
    ["the sandbox's nested body", { error: { code: "X", message: "startDate is required" } }, "startDate is required"],
    [
      "a reason phrase beside the message and field",
      { error: "Not Found", message: "user nobody not found in org-demo", field: "userId" },
      "user nobody not found in org-demo (field: userId)",
    ],
    [
      "a field the message already names is not repeated",
      { error: "Bad Request", message: "username must equal email", field: "username" },
      "username must equal email",
    ],
    ["a bare message", { message: "Bad things" }, "Bad things"],
    ["an error string that is not a reason phrase", { error: "Nope" }, "Nope"],
    ["only a reason phrase: nothing the status does not say", { error: "Not Found" }, undefined],
    ["a list of errors", { errors: [{ message: "first", field: "email" }, { message: "second" }] }, "first (field: email)"],
    ["plain text", "plain text body", "plain text body"],
    ["an HTML page: its title", "<html><head><title>Maintenance until 14:00</title></head></html>", "Maintenance until 14:00"],
    ["an HTML page titled with the status only", "<html><head><title>502 Bad Gateway</title></head></html>", undefined],
    ["control characters escaped", { error: { message: "evil\u001b[2J\nnext" } }, "evil\\u001b[2J\\nnext"],
    ["an empty object", {}, undefined],
    ["an empty body", "", undefined],
    ["null", null, undefined],
  ])("%s", (_name, body, expected) => {
    expect(serviceWords(body)).toBe(expected);
  });

  it("caps a long message at 200 characters", () => {
    const words = serviceWords({ message: "x".repeat(1000) });
    expect(words).toHaveLength(200);
    expect(words?.endsWith("…")).toBe(true);
  });
});
