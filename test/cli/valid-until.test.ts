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

  it("plain on a terminal (its table) says until when too, matching expiresAt", async () => {
    const r = await t.capture([...args, "--no-color"], { stdoutIsTTY: true, stderrIsTTY: true });
    expect(r.exitCode, r.stderr).toBe(0);
    const expiresAt = /expiresAt:\s+(\S+)/.exec(r.stdout)?.[1];
    expect(expiresAt).toBeDefined();
    expect(r.stderr).toContain(`valid until ${expiresAt!.replace(/\.\d+Z$/, "Z")} (for `);
  });

  it.each([
    ["TOKEN=$(…) typed at a terminal: stdout captured, stderr the terminal", ["-o", "text"], { stderrIsTTY: true }],
    ["-o json on a terminal: expiresAt is data", ["-o", "json"], { stdoutIsTTY: true, stderrIsTTY: true }],
    ["-o csv on a terminal", ["-o", "csv"], { stdoutIsTTY: true, stderrIsTTY: true }],
  ])("%s: nothing is added", async (_case, flags, io) => {
    const r = await t.capture([...args, ...flags], io);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/valid until/);
  });
});
