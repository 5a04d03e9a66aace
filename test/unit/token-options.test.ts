import { describe, expect, it } from "vitest";
import * as z from "zod";
import { TokenOptions } from "../../src/commands/token/options.js";

// token checks its one flag by hand (start-up): the same result and the same issue as the zod
// schema every other command's options are (`z.object({ user: z.string() })`).
describe("token's options", () => {
  const schema = z.object({ user: z.string() });
  it.each<[string, unknown]>([
    ["a user", { user: "user-demo" }],
    ["an empty user", { user: "" }],
    ["other options beside it", { user: "u", output: "json" }],
    ["no user", {}],
    ["a number", { user: 5 }],
    ["a list", { user: ["a", "b"] }],
    ["null", { user: null }],
    ["a switch", { user: true }],
    ["not an object", ["user"]],
    ["nothing", undefined],
  ])("%s", (_name, input) => {
    const expected = schema.safeParse(input);
    const got = TokenOptions.safeParse(input);
    expect(got.success).toBe(expected.success);
    if (expected.success) expect(got).toEqual({ success: true, data: expected.data });
    else if (!got.success) {
      expect(got.error.issues.map(({ code, path, message }) => ({ code, path, message }))).toEqual(
        expected.error.issues.map(({ code, path, message }) => ({ code, path, message })),
      );
    }
  });
});
