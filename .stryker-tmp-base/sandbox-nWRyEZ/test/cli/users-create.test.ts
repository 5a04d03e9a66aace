// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOMY, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// users create through the real program, in-process,: the request it sends, the user it prints, the
// existing user on a repeat, and the flags it refuses before sending anything.

const CREATE = "/v2/access-api/user/create";

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv(ROOMY);
});
afterAll(async () => {
  await t.close();
});

async function run(args: string[]) {
  return t.capture(args);
}

describe("users create", () => {
  it("sends username = email with the optional fields and prints the created user", async () => {
    const r = await run([
      "users",
      "create",
      "--email",
      "ana.diaz@example.com",
      "--first-name",
      "Ana",
      "--last-name",
      "Diaz",
      "--team",
      "Sales",
      "--field",
      "department=Field Ops",
      "--field",
      "note=a=b",
      "-o",
      "json",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent.map((s) => [s.path, s.body])).toEqual([
      [
        CREATE,
        {
          department: "Field Ops",
          note: "a=b",
          firstName: "Ana",
          lastName: "Diaz",
          teamName: "Sales",
          organizationId: "org-demo",
          email: "ana.diaz@example.com",
          username: "ana.diaz@example.com",
        },
      ],
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      email: "ana.diaz@example.com",
      username: "ana.diaz@example.com",
      firstName: "Ana",
      created: true,
      department: "Field Ops",
    });
    expect(r.stderr).toContain("created trainee ana.diaz@example.com");
  });

  it("returns the existing user on a repeat and says so", async () => {
    await run(["users", "create", "--email", "repeat@example.com", "--first-name", "First"]);
    const r = await run(["users", "create", "--email", "repeat@example.com", "--first-name", "Second", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ email: "repeat@example.com", firstName: "First", created: false });
    expect(r.stderr).toContain("already existed");
  });

  it("prints the user as key: value lines", async () => {
    const r = await run(["users", "create", "--email", "table@example.com", "-o", "table"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^email:\s+table@example\.com$/m);
  });

  it.each([
    [["--email", "not-an-address"], /--email: not a valid email address: "not-an-address"/],
    [
      ["--email", "a@b.com", "--field", "role=admin"],
      /--field role: cannot be set with --field \(only trainees can be created\)/,
    ],
    [["--email", "a@b.com", "--field", "username=x@y.com"], /--field username: cannot be set/],
    [["--email", "a@b.com", "--field", "Email=x@y.com"], /--field Email: cannot be set/],
    [["--email", "a@b.com", "--field", "organizationId=org-other"], /--field organizationId: cannot be set/],
    [["--email", "a@b.com", "--field", "department"], /expected key=value/],
    [["--email", "a@b.com", "--field", "=x"], /expected key=value/],
    [["--email", "a@b.com", "--field", "bad key=x"], /is not a field name/],
    [
      ["--email", "a@b.com", "--field", "firstName=A", "--first-name", "B"],
      /--field firstName and --first-name both set firstName/,
    ],
  ])("%j → exit 2, nothing sent", async (flags, message) => {
    const r = await run(["users", "create", ...flags]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.sent).toEqual([]);
  });

  it("is version 2 only: exit 2 under --api-version 1, nothing sent", async () => {
    const r = await run(["--api-version", "1", "users", "create", "--email", "v1@example.com"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("needs API version 2");
    expect(r.sent).toEqual([]);
  });
});
