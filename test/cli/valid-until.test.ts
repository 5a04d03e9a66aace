import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// A plain link or token on a terminal says until when it works (docs/access.md); a script
// reading the bare value gets the value alone.

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv();
});
afterAll(async () => {
  await t.close();
});

describe.each([
  ["token", ["token", "--user", "user-demo"]],
  ["link", ["link", "--user", "user-demo", "--sim", "sim-001"]],
])("%s", (_name, args) => {
  it("on a terminal, -o text prints the bare value and says on stderr until when it is valid", async () => {
    const r = await t.capture([...args, "-o", "text"], { stdoutIsTTY: true, stderrIsTTY: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    const until = /valid until (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z) \(for (\S+)\)/.exec(r.stderr);
    expect(until).not.toBeNull();
    // The service lets a token live an hour (docs/service-spec.md §5).
    expect(until?.[2]).toMatch(/^(1h|59m\d*s?|60m)$/);
  });

  it("in a pipe (TOKEN=$(…)) nothing is added", async () => {
    const r = await t.capture([...args, "-o", "text"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/valid until/);
  });
});
