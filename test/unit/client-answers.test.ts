import { describe, expect, it } from "vitest";
import { jsonDepthExceeds } from "../../src/api/answers.js";
import { checkApiKey } from "../../src/api/client.js";
import { AuthError } from "../../src/errors.js";

// Pure parts of the client's checks (issue 13 items 3 and 5).

describe("checkApiKey", () => {
  it("accepts visible ASCII", () => {
    expect(() => checkApiKey("sk_live_AZaz09-._~+/=!#$%&'*")).not.toThrow();
  });

  it.each([
    ["sk\u2019x", /a character outside ASCII \(U\+2019 at position 3\)/],
    ["sk\nx", /a control character \(U\+000A at position 3\)/],
    ["sk x", /a space \(U\+0020 at position 3\)/],
    ["ключ", /U\+043A at position 1/],
  ])("refuses %j with exit 3, naming the character but not the key", (key, message) => {
    let error: unknown;
    try {
      checkApiKey(key, "SIMADMIN_API_KEY");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).exitCode).toBe(3);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/^SIMADMIN_API_KEY holds/);
  });
});

describe("jsonDepthExceeds", () => {
  it.each([
    ['{"a":[1,{"b":2}]}', 3, false],
    ['{"a":[1,{"b":2}]}', 2, true],
    ['"[[[[[[[[[["', 2, false],
    ['["\\"[[[[["]', 1, false],
    [`${"[".repeat(300)}${"]".repeat(300)}`, 256, true],
  ])("%s deeper than %i: %s", (text, max, deeper) => {
    expect(jsonDepthExceeds(text, max)).toBe(deeper);
  });
});
