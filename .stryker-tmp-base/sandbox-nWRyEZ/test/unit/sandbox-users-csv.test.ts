// @ts-nocheck
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseBulkImportForm } from "../../src/sandbox/multipart.js";
import { parseUsersCsv, validateImportRows } from "../../src/sandbox/users-csv.js";
import { signUserToken, verifyUserToken } from "../../src/sandbox/tokens.js";
import { SandboxHttpError } from "../../src/sandbox/http-error.js";

const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

describe("parseUsersCsv", () => {
  it("numbers rows like a spreadsheet and accepts a BOM, CRLF and quoted fields", () => {
    const rows = parseUsersCsv(
      `\uFEFF${HEADER}\r\n"Smith, Jr.",B,a@example.com,a@example.com,trainee,"Team ""A""",ACTIVE,Add\r\n`,
    );
    expect(rows).toEqual([
      {
        row: 2,
        values: {
          firstName: "Smith, Jr.",
          lastName: "B",
          username: "a@example.com",
          email: "a@example.com",
          role: "trainee",
          teamName: 'Team "A"',
          status: "ACTIVE",
          action: "Add",
        },
        cellCount: 8,
        expectedCells: 8,
      },
    ]);
  });

  it("matches header names ignoring case and spaces, and ignores unknown columns", () => {
    const rows = parseUsersCsv(
      " EMAIL ,FirstName,lastname,UserName,Role,Status,Action,Notes\na@x.io,A,B,a@x.io,trainee,ACTIVE,Add,hi",
    );
    expect(rows[0]?.values).toMatchObject({
      email: "a@x.io",
      firstName: "A",
      lastName: "B",
      username: "a@x.io",
      role: "trainee",
      status: "ACTIVE",
      action: "Add",
    });
  });

  it("throws a 400 for a repeated column", () => {
    expect(() => parseUsersCsv(`${HEADER},Email\nA,B,a@x.io,a@x.io,trainee,,ACTIVE,Add,a@x.io`)).toThrow(/repeats the column/);
  });

  it("accepts a file without the teamName column", () => {
    const rows = parseUsersCsv("firstName,lastName,username,email,role,status,action\nA,B,a@x.io,a@x.io,trainee,ACTIVE,Add");
    expect(rows[0]?.values["teamName"]).toBeUndefined();
  });

  it("throws a 400 naming missing columns", () => {
    expect(() => parseUsersCsv("firstName,email\nA,a@x.io")).toThrow(SandboxHttpError);
    expect(() => parseUsersCsv("firstName,email\nA,a@x.io")).toThrow(/lastName, username, role, status, action/);
  });
});

describe("validateImportRows", () => {
  const rowsOf = (...lines: string[]) => parseUsersCsv([HEADER, ...lines].join("\n"));

  it("reports a row with the wrong number of cells as one error", () => {
    const { errors } = validateImportRows(rowsOf("A,B,a@x.io"), () => false);
    expect(errors).toEqual([{ row: 2, errors: ["Row has 3 cells; the header has 8"] }]);
  });

  it("reports every empty required cell", () => {
    const { errors } = validateImportRows(rowsOf(",,a@x.io,a@x.io,,,,"), () => false);
    expect(errors).toEqual([
      {
        row: 2,
        errors: ["firstName is required", "lastName is required", "role is required", "status is required", "action is required"],
      },
    ]);
  });

  it("checks existence only for otherwise valid rows", () => {
    const exists = (email: string): boolean => email === "old@x.io";
    const { valid, errors } = validateImportRows(
      rowsOf(
        "A,B,old@x.io,old@x.io,trainee,,ACTIVE,Update",
        "A,B,new@x.io,new@x.io,trainee,,INACTIVE,Add",
        "A,B,old@x.io,OLD@x.io,trainee,,ACTIVE,Add",
      ),
      exists,
    );
    expect(valid.map((v) => [v.row, v.email, v.action, v.status])).toEqual([
      [2, "old@x.io", "Update", "ACTIVE"],
      [3, "new@x.io", "Add", "INACTIVE"],
    ]);
    expect(errors).toEqual([
      { row: 4, errors: ["Email must match username", "Email appears more than once in the file (first on row 2)"] },
    ]);
  });
});

describe("user tokens", () => {
  const secret = Buffer.alloc(32, 7);
  const claims = { organizationId: "org-demo", userId: "user-demo", issuedAt: 1000, expiresAt: 3_601_000 };

  it("carries characters that need URL-encoding", () => {
    const token = signUserToken(secret, claims);
    expect(token).toContain("+");
    expect(token).toContain("/");
    expect(token).toContain("=");
  });

  it("verifies until expiry, and not with another secret", () => {
    const token = signUserToken(secret, claims);
    expect(verifyUserToken(secret, token, 3_600_999)).toEqual({ valid: true, ...claims });
    expect(verifyUserToken(secret, token, 3_601_000)).toEqual({ valid: false, reason: "expired", expiresAt: 3_601_000 });
    expect(verifyUserToken(Buffer.alloc(32, 8), token, 2000)).toEqual({ valid: false, reason: "bad-signature" });
  });
});

// The client's own CSV fixtures (fixtures/users, with expected.json): the sandbox must find
// problems on the same rows and refuse the same files, or client and server disagree.
const USERS_FIXTURES = new URL("../../fixtures/users/", import.meta.url);
const expected = existsSync(new URL("expected.json", USERS_FIXTURES))
  ? (JSON.parse(readFileSync(new URL("expected.json", USERS_FIXTURES), "utf8")) as Record<
      string,
      { problems?: [number, string][]; fileError?: string; validRows?: number }
    >)
  : {};
const fixtureCases = Object.entries(expected).filter(([name]) => !name.startsWith("_"));

async function serverRead(name: string): Promise<string> {
  const form = new FormData();
  form.set("organizationId", "org-demo");
  form.set("file", new Blob([readFileSync(new URL(name, USERS_FIXTURES))]), name);
  const request = new Request("http://x/", { method: "POST", body: form });
  const upload = await parseBulkImportForm(
    request.headers.get("content-type") ?? undefined,
    Buffer.from(await request.arrayBuffer()),
  );
  return upload.csvText ?? "";
}

describe.runIf(fixtureCases.length > 0)("agreement with the client's CSV fixtures", () => {
  it.each(fixtureCases)("%s", async (name, outcome) => {
    const read = async () => validateImportRows(parseUsersCsv(await serverRead(name)), () => false);
    if (outcome.fileError) {
      await expect(read()).rejects.toThrow(SandboxHttpError);
      return;
    }
    const { valid, errors } = await read();
    // Nobody exists here, so Update rows fail with the server-only rule; ignore those.
    const rowErrors = errors.filter((e) => !(e.errors.length === 1 && e.errors[0] === "User does not exist"));
    if (outcome.problems) {
      expect(rowErrors.map((e) => e.row)).toEqual([...new Set(outcome.problems.map(([row]) => row))]);
    } else {
      expect(rowErrors).toEqual([]);
      expect(valid.length + errors.length).toBe(outcome.validRows);
    }
  });
});
