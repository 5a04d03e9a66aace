import { afterEach, describe, expect, it } from "vitest";
import { FAST, ROOMY, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// An API key that an HTTP header cannot carry (docs/cli-contract.md exit 3): named with the
// character and its place, the key itself never shown, nothing sent. The program's check of
// the key is the subject: in-process.

let t: TestEnv | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("an API key a header cannot carry: exit 3, nothing sent, no retry", () => {
  it.each([
    ["a typographic quote", "sk_live_abc\u2019def", /U\+2019 at position 12/],
    ["a control character", "sk_live\u0007abcdef", /a control character \(U\+0007 at position 8\)/],
    ["a space", "sk_live abcdef", /a space \(U\+0020 at position 8\)/],
  ])("%s", async (_name, key, where) => {
    t = await startTestEnv(ROOMY);
    const r = await t.run(["token", "--user", "user-demo"], { env: { ...FAST, SIMADMIN_API_KEY: key } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: SIMADMIN_API_KEY holds .* that an HTTP header cannot carry; nothing was sent/);
    expect(r.stderr).toMatch(where);
    expect(r.stderr).not.toContain("abcdef");
    expect(t.sandbox.requests).toHaveLength(0);
  });
});
