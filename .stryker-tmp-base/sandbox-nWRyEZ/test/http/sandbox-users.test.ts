// @ts-nocheck
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/server.js";

const START = Date.UTC(2026, 2, 1, 9);
let t = START;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ now: () => t, importStepMs: 1000 });
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  t += 60_000; // each test starts after every earlier import has finished
});

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are read by shape

async function post(path: string, body: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(sb.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${sb.keys.full}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function upload(
  csv: string,
  org: string | null = "org-demo",
  fileName = "users.csv",
): Promise<{ status: number; json: Json }> {
  const form = new FormData();
  if (org !== null) form.set("organizationId", org);
  form.set("file", new Blob([csv], { type: "text/csv" }), fileName);
  const res = await fetch(`${sb.baseUrl}/v2/access-api/user/bulk-import`, {
    method: "POST",
    headers: { authorization: `Bearer ${sb.keys.full}` },
    body: form,
  });
  return { status: res.status, json: await res.json() };
}

const status = async (taskId: string): Promise<string> =>
  (await post("/v2/access-api/user/bulk-import/status", { organizationId: "org-demo", taskId })).json.status;

const HEADER = "firstName,lastName,username,email,role,teamName,status,action";
const row = (email: string, action = "Add", status = "ACTIVE", team = "Sales"): string =>
  `Test,User,${email},${email},trainee,${team},${status},${action}`;

describe("user/create", () => {
  const create = (body: Record<string, unknown>): Promise<{ status: number; json: Json }> =>
    post("/v2/access-api/user/create", { organizationId: "org-demo", ...body });

  it("creates a trainee, then returns the same user on a second call", async () => {
    const body = {
      email: "new.person@example.com",
      username: "new.person@example.com",
      firstName: "New",
      lastName: "Person",
      teamName: "Support",
      employeeNo: "E-17",
    };
    const first = await create(body);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      userId: expect.stringMatching(/^user-/),
      email: "new.person@example.com",
      username: "new.person@example.com",
      firstName: "New",
      lastName: "Person",
      role: "trainee",
      status: "ACTIVE",
      teamName: "Support",
      employeeNo: "E-17",
      created: true,
    });
    const second = await create({ ...body, firstName: "Changed" });
    expect(second.json).toMatchObject({ userId: first.json.userId, firstName: "New", created: false });
    expect(sb.state.getUser("org-demo", "new.person@example.com")?.userId).toBe(first.json.userId);
  });

  it("returns a seeded user as existing", async () => {
    const answer = await create({ email: "demo.trainee@example.com", username: "demo.trainee@example.com" });
    expect(answer.json).toMatchObject({ userId: "user-demo", created: false });
  });

  it.each([
    [{ username: "a@example.com" }, "email is required"],
    [{ email: "a@example.com" }, "username is required"],
    [{ email: "not-an-email", username: "not-an-email" }, "email must be a valid email address"],
    [{ email: "a@example.com", username: "A@example.com" }, "username must equal email"],
    [{ email: "a@example.com", username: "a@example.com", role: "admin" }, "role must be trainee"],
    [{ email: "a@example.com", username: "a@example.com", status: "active" }, "status must be ACTIVE or INACTIVE"],
  ])("answers 400 for %j", async (body, message) => {
    const answer = await create(body);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain(message);
  });

  it("answers 404 for an unknown organization", async () => {
    const answer = await post("/v2/access-api/user/create", {
      organizationId: "org-x",
      email: "a@example.com",
      username: "a@example.com",
    });
    expect(answer.status).toBe(404);
  });
});

describe("user/bulk-import", () => {
  it("moves SCHEDULED → STARTED → COMPLETED one step at a time, then the users exist", async () => {
    const answer = await upload([HEADER, row("imp.one@example.com"), row("imp.two@example.com", "Add", "INACTIVE")].join("\n"));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      taskId: expect.stringMatching(/^task-/),
      validUsersCount: 2,
      invalidUsersCount: 0,
      errors: [],
    });
    const { taskId } = answer.json;
    expect(await status(taskId)).toBe("SCHEDULED");
    expect(sb.state.getUser("org-demo", "imp.one@example.com")).toBeUndefined();
    t += 999;
    expect(await status(taskId)).toBe("SCHEDULED");
    t += 1;
    expect(await status(taskId)).toBe("STARTED");
    t += 1000;
    expect(await status(taskId)).toBe("COMPLETED");
    expect(sb.state.getUser("org-demo", "imp.two@example.com")).toMatchObject({
      status: "INACTIVE",
      role: "trainee",
      teamName: "Sales",
    });
    expect(sb.state.listTasks("org-demo").find((task) => task.taskId === taskId)).toMatchObject({
      status: "COMPLETED",
      rowsUploaded: 2,
      fileName: "users.csv",
    });
    const created = await post("/v2/access-api/user/create", {
      organizationId: "org-demo",
      email: "imp.one@example.com",
      username: "imp.one@example.com",
    });
    expect(created.json.created).toBe(false);
  });

  it("applies Update rows once the task completes", async () => {
    const answer = await upload([HEADER, row("ben.okafor@example.com", "Update", "INACTIVE", "Support")].join("\r\n"));
    expect(answer.json.validUsersCount).toBe(1);
    expect(sb.state.getUser("org-demo", "user-ben")?.status).toBe("ACTIVE");
    t += 2000;
    expect(await status(answer.json.taskId)).toBe("COMPLETED");
    expect(sb.state.getUser("org-demo", "user-ben")).toMatchObject({ status: "INACTIVE", teamName: "Support" });
  });

  it("ends FAILED when a row has an email at fail.example.com, and imports nobody", async () => {
    const answer = await upload([HEADER, row("ok.person@example.com"), row("x@fail.example.com")].join("\n"));
    expect(answer.json.validUsersCount).toBe(2);
    t += 1000;
    expect(await status(answer.json.taskId)).toBe("STARTED");
    t += 1000;
    expect(await status(answer.json.taskId)).toBe("FAILED");
    expect(sb.state.getUser("org-demo", "ok.person@example.com")).toBeUndefined();
  });

  it("reports per-row errors with spreadsheet row numbers, including the server-only rules", async () => {
    const csv = [
      "email;username;firstName;lastName;role;status;action;teamName", // any column order, `;` delimiter
      "good@example.com;good@example.com;Good;Row;trainee;ACTIVE;Add;",
      "demo.trainee@example.com;demo.trainee@example.com;Dana;Demo;trainee;ACTIVE;Add;", // row 3: exists
      "ghost@example.com;ghost@example.com;Gh;Ost;trainee;ACTIVE;Update;", // row 4: does not exist
      "a@example.com;b@example.com;A;B;trainee;ACTIVE;Add;", // row 5
      "c@example.com;c@example.com;;C;admin;active;Remove;", // row 6: several errors
      "good@example.com;good@example.com;Good;Again;trainee;ACTIVE;Add;", // row 7: duplicate
    ].join("\n");
    const answer = await upload(csv);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ taskId: expect.any(String), validUsersCount: 1, invalidUsersCount: 5 });
    expect(answer.json.errors).toEqual([
      { row: 3, errors: ["User already exists"] },
      { row: 4, errors: ["User does not exist"] },
      { row: 5, errors: ["Email must match username"] },
      {
        row: 6,
        errors: [
          "firstName is required",
          "Role must be trainee",
          "Status must be ACTIVE or INACTIVE",
          "Action must be Add or Update",
        ],
      },
      { row: 7, errors: ["Email appears more than once in the file (first on row 2)"] },
    ]);
    expect(sb.state.listTasks("org-demo").find((task) => task.taskId === answer.json.taskId)?.rowsUploaded).toBe(1);
  });

  it("answers 400 with the counts and errors and no taskId when no row is valid", async () => {
    const answer = await upload([HEADER, "A,B,a@example.com,b@example.com,trainee,,ACTIVE,Add"].join("\n"));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      validUsersCount: 0,
      invalidUsersCount: 1,
      errors: [{ row: 2, errors: ["Email must match username"] }],
      error: { code: "INVALID_REQUEST", message: expect.stringContaining("no valid user rows") },
    });
    expect(answer.json.taskId).toBeUndefined();
  });

  it("answers 400 for more than 750 rows, and accepts exactly 750", async () => {
    const rows = (n: number): string[] => Array.from({ length: n }, (_, i) => row(`bulk${i}@example.com`));
    const tooMany = await upload([HEADER, ...rows(751)].join("\n"));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.message).toContain("at most 750");
    const exact = await upload([HEADER, ...rows(750)].join("\n"));
    expect(exact.json).toMatchObject({ validUsersCount: 750, invalidUsersCount: 0 });
  });

  it.each([
    [
      "a header without required columns",
      "firstName,lastName,email\nA,B,a@example.com",
      "lacks the column(s) username, role, status, action",
    ],
    ["a header only", HEADER, "no user rows"],
    ["an empty file", "", "empty"],
    ["broken quoting", `${HEADER}\n"A,B`, "not valid CSV"],
  ])("answers 400 for %s", async (_name, csv, message) => {
    const answer = await upload(csv);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain(message);
  });

  it("answers 400 for a file that is not UTF-8", async () => {
    const form = new FormData();
    form.set("organizationId", "org-demo");
    form.set("file", new Blob([Buffer.from(`${HEADER}\nA,B,\xff@example.com`, "latin1")]), "latin1.csv");
    const res = await fetch(`${sb.baseUrl}/v2/access-api/user/bulk-import`, {
      method: "POST",
      headers: { authorization: `Bearer ${sb.keys.full}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error.message).toContain("UTF-8");
  });

  it("answers 400 without the organizationId part, and 404 for an unknown organization", async () => {
    const missing = await upload(`${HEADER}\n${row("z@example.com")}`, null);
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toContain("organizationId is required");
    expect((await upload(`${HEADER}\n${row("z@example.com")}`, "org-x")).status).toBe(404);
  });

  it("answers 400 to a JSON body", async () => {
    const answer = await post("/v2/access-api/user/bulk-import", { organizationId: "org-demo" });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain("multipart/form-data");
  });

  it("records the upload as organizationId, fileName and csvText", async () => {
    const csv = `${HEADER}\n${row("rec@example.com")}`;
    await upload(csv, "org-demo", "team.csv");
    expect(sb.requests.at(-1)).toMatchObject({
      path: "/v2/access-api/user/bulk-import",
      status: 200,
      body: { organizationId: "org-demo", fileName: "team.csv", csvText: csv },
    });
  });
});

describe("user/bulk-import/status", () => {
  it("answers 404 for an unknown task or a task of another organization", async () => {
    expect(
      (await post("/v2/access-api/user/bulk-import/status", { organizationId: "org-demo", taskId: "task-nope" })).status,
    ).toBe(404);
    const { taskId } = (await upload(`${HEADER}\n${row("st@example.com")}`)).json;
    expect((await post("/v2/access-api/user/bulk-import/status", { organizationId: "org-other", taskId })).status).toBe(404);
  });

  it("answers 400 without taskId", async () => {
    const answer = await post("/v2/access-api/user/bulk-import/status", { organizationId: "org-demo" });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain("taskId is required");
  });
});
