import { readFile, writeFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// The files people fix and feed back (docs/users-csv.md "Header names", "The errors file"):
// users import and users sync read the standard columns under the names spreadsheets give
// them, and write the errors file the way the input was written.

const UPLOAD = "/v2/access-api/user/bulk-import";

let t: TestEnv | undefined;
const dirs: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => d.remove()));
});

async function setup(files: Record<string, string | Uint8Array>): Promise<{ e: TestEnv; dir: string }> {
  t = await startTestEnv({ rateLimits: { access: { limit: 10_000, windowMs: 1000 } }, importStepMs: 50 });
  const dir = await tempDir();
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir.path, name), text);
  return { e: t, dir: dir.path };
}

const uploadedRows = (sent: { path: string; body: unknown }[]): Record<string, string>[] =>
  sent
    .filter((r) => r.path === UPLOAD)
    .flatMap((r) => parse<Record<string, string>>((r.body as { csvText: string }).csvText, { columns: true }));

describe("header names match the standard columns however they are written", () => {
  it.each([
    ["First Name,Last Name,User Name,E-Mail,Role,Team Name,Status,Action"],
    ["first_name,last_name,user_name,email,role,team_name,status,action"],
    ["first-name,LAST-NAME,username,EMAIL,ROLE,team-name,STATUS,ACTION"],
  ])("users import reads %s", async (header) => {
    const { e, dir } = await setup({
      "staff.csv": `${header}\nAnn,Lee,ann@example.com,ann@example.com,trainee,Ops,ACTIVE,Add\n`,
    });
    const r = await e.capture(["users", "import", "staff.csv", "--yes", "-o", "json"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unknown column/);
    expect(uploadedRows(r.sent)).toEqual([
      {
        firstName: "Ann",
        lastName: "Lee",
        username: "ann@example.com",
        email: "ann@example.com",
        role: "trainee",
        teamName: "Ops",
        status: "ACTIVE",
        action: "Add",
      },
    ]);
  });

  it.each([
    ["First Name,Last Name,E-mail,Team Name"],
    ["first_name,last_name,email,team_name"],
    ["first-name,last-name,EMAIL,team-name"],
  ])("users sync reads %s without --map", async (header) => {
    const { e, dir } = await setup({ "hr.csv": `${header}\nAnn,Lee,ann@example.com,Ops\n` });
    const r = await e.capture(["users", "sync", "hr.csv", "--plan", "-o", "json"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(12);
    const plan = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(plan.map((p) => [p.change, p.firstName, p.lastName, p.email, p.teamName])).toEqual([
      ["add", "Ann", "Lee", "ann@example.com", "Ops"],
    ]);
  });

  it("a header without a standard column names the file's real header and how names are compared", async () => {
    const { e, dir } = await setup({
      "staff.csv": "Given,Surname,email,username,role,Team Name,status,action\nA,B,a@x.org,a@x.org,trainee,,ACTIVE,Add\n",
    });
    const r = await e.capture(["users", "import", "staff.csv", "--yes"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    expect(r.sent.filter((s) => s.path === UPLOAD)).toEqual([]);
    expect(r.stderr).toContain('missing columns firstName, lastName (the header has "Given", "Surname", "email"');
    expect(r.stderr).toContain("case, spaces, _ and - do not matter");
  });

  it("a roster row without an email is told its email is missing, not its username", async () => {
    const { e, dir } = await setup({ "hr.csv": "First Name,Last Name,Email\nAnn,Lee,ann@example.com\nBo,Lee,\n" });
    const r = await e.capture(["users", "sync", "hr.csv", "--plan", "-o", "json"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toEqual([{ row: 3, field: "email", message: "required but empty" }]);
  });
});

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe("the errors file is written in the input's form", () => {
  // A European Excel "CSV UTF-8": BOM, `;`, CRLF; row 3 breaks a rule.
  const european = Buffer.concat([
    BOM,
    Buffer.from(
      "firstName;lastName;username;email;role;teamName;status;action\r\n" +
        "Ann;Lee;ann@example.com;ann@example.com;trainee;Ops;ACTIVE;Add\r\n" +
        "José;Müller;jose@example.com;jose@example.com;Trainee;Vertrieb, Süd;ACTIVE;Add\r\n",
    ),
  ]);

  it("keeps the BOM, the `;` and CRLF of a European Excel file, and José stays José", async () => {
    const { e, dir } = await setup({ "staff.csv": european });
    const r = await e.capture(["users", "import", "staff.csv", "--dry-run"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    const bytes = await readFile(join(dir, "staff.errors.csv"));
    expect(bytes.subarray(0, 3)).toEqual(BOM);
    const text = bytes.toString("utf8");
    expect(text.split("\r\n")[0]).toBe("\ufefffirstName;lastName;username;email;role;teamName;status;action;row;errors");
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = parse<Record<string, string>>(bytes, { bom: true, delimiter: ";", columns: true });
    expect(rows).toEqual([
      {
        firstName: "José",
        lastName: "Müller",
        username: "jose@example.com",
        email: "jose@example.com",
        role: "Trainee",
        teamName: "Vertrieb, Süd",
        status: "ACTIVE",
        action: "Add",
        row: "3",
        errors: expect.stringContaining("role:"),
      },
    ]);
    // Fixed in place and imported again, it is read as it was written.
    await writeFile(join(dir, "fixed.csv"), Buffer.from(text.replace("Trainee", "trainee"), "utf8"));
    const again = await e.capture(["users", "import", "fixed.csv", "--yes", "-o", "json"], { cwd: dir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(uploadedRows(again.sent).map((u) => [u.firstName, u.lastName, u.teamName])).toEqual([
      ["José", "Müller", "Vertrieb, Süd"],
    ]);
  });

  it("a windows-1252 file's errors file is UTF-8 with a BOM (so Excel does not show JosÃ©)", async () => {
    // Every character of the file is below U+0100, where windows-1252 and latin1 agree.
    const cp1252 = Buffer.from(european.subarray(3).toString("utf8"), "latin1");
    const { e, dir } = await setup({ "staff.csv": cp1252 });
    const r = await e.capture(["users", "import", "staff.csv", "--encoding", "windows-1252", "--dry-run"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    const bytes = await readFile(join(dir, "staff.errors.csv"));
    expect(bytes.subarray(0, 3)).toEqual(BOM);
    const rows = parse<Record<string, string>>(bytes, { bom: true, delimiter: ";", columns: true });
    expect(rows.map((x) => x.firstName)).toEqual(["José"]);
  });

  it("--delimiter and --bom, when given, win over the input's form", async () => {
    const { e, dir } = await setup({
      "staff.csv":
        "firstName;lastName;username;email;role;teamName;status;action\nJosé;Lee;j@example.com;j@example.com;x;Ops;ACTIVE;Add\n",
    });
    const r = await e.capture(["users", "import", "staff.csv", "--dry-run", "--delimiter", "tab", "--bom"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    const bytes = await readFile(join(dir, "staff.errors.csv"));
    expect(bytes.subarray(0, 3)).toEqual(BOM);
    const text = bytes.toString("utf8");
    expect(text).not.toContain("\r");
    expect(text.split("\n")[0]).toBe("\ufefffirstName\tlastName\tusername\temail\trole\tteamName\tstatus\taction\trow\terrors");
  });

  it("the errors file of assign --from-csv keeps the input's `;`, BOM and CRLF too", async () => {
    const { e, dir } = await setup({
      "cohort.csv": Buffer.concat([BOM, Buffer.from("userId;simulationId;Note\r\nuser-demo;;José\r\n")]),
    });
    const r = await e.capture(["assign", "--from-csv", "cohort.csv", "--dry-run"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    const bytes = await readFile(join(dir, "cohort.errors.csv"));
    expect(bytes.subarray(0, 3)).toEqual(BOM);
    expect(bytes.toString("utf8").split("\r\n")[0]).toBe("\ufeffuserId;simulationId;Note;row;errors");
    const rows = parse<Record<string, string>>(bytes, { bom: true, delimiter: ";", columns: true });
    expect(rows.map((x) => [x.userId, x.Note, x.row])).toEqual([["user-demo", "José", "2"]]);
  });
});

describe("a resumed import that sends nothing says so everywhere", () => {
  const staff =
    "firstName,lastName,username,email,role,teamName,status,action\nAnn,Lee,ann@example.com,ann@example.com,trainee,Ops,ACTIVE,Add\n";

  it("JSON, stderr and the step summary say 'nothing to send: already imported'; the dry run's summary agrees with its JSON", async () => {
    const { e, dir } = await setup({ "staff.csv": staff });
    const summary = join(dir, "summary.md");
    const env = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
    const run = async (args: string[]) => {
      await writeFile(summary, "");
      const r = await e.capture(["users", "import", "staff.csv", "-o", "json", ...args], { cwd: dir, env });
      return { ...r, summary: await readFile(summary, "utf8") };
    };

    const fresh = await run(["--dry-run"]);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ batches: 1, wouldSend: 1, requests: 1 });
    expect(fresh.summary).toContain("| Plan | dry run\\: 1 batch would be sent |");

    const first = await run(["--yes"]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject([{ batch: 1, state: "uploaded", thisRun: "sent" }]);
    expect(first.stderr).toMatch(/staff\.csv: 1 batch uploaded to org-demo \(task-/);
    expect(first.summary).toContain("| Sent | 1 batch this run |");

    const again = await run(["--resume", "--yes"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.sent.filter((r) => r.path === UPLOAD)).toEqual([]);
    expect(JSON.parse(again.stdout)).toMatchObject([
      { batch: 1, state: "uploaded", thisRun: "nothing to send: already imported" },
    ]);
    expect(again.stderr).toContain("staff.csv: nothing to send: already imported into org-demo");
    expect(again.stderr).not.toMatch(/batch(es)? uploaded to/);
    expect(again.summary).toContain("| Sent | nothing to send\\: already imported |");
    expect(again.summary).not.toMatch(/\| ok \|/);

    const plan = await run(["--resume", "--dry-run"]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ wouldSend: 0, requests: 0, note: "nothing to send: already imported" });
    expect(plan.summary).toContain("| Plan | dry run\\: nothing to send\\: already imported |");
    expect(plan.summary).not.toMatch(/would be sent/);
  });
});

describe("--fields with an unknown name is found before any work", () => {
  const staff =
    "firstName,lastName,username,email,role,teamName,status,action\nAnn,Lee,ann@example.com,ann@example.com,trainee,Ops,ACTIVE,Add\n";

  it("users sync --yes --fields bogus: exit 2 and nothing sent", async () => {
    const { e, dir } = await setup({ "hr.csv": "firstName,lastName,email\nAnn,Lee,ann@example.com\n" });
    const r = await e.capture(["users", "sync", "hr.csv", "--yes", "--fields", "email,bogus"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown field for --fields: bogus");
    expect(r.sent).toEqual([]);
  });

  it("users import --yes --fields bogus: exit 2, nothing sent and no manifest; a field of another of its results prints empty after the upload", async () => {
    const { e, dir } = await setup({ "staff.csv": staff });
    const bad = await e.capture(["users", "import", "staff.csv", "--yes", "--fields", "bogus"], { cwd: dir });
    expect(bad.exitCode).toBe(2);
    expect(bad.sent).toEqual([]);
    await expect(readFile(join(dir, "staff.import.json"))).rejects.toMatchObject({ code: "ENOENT" });
    // `wouldSend` is a dry run's field: a real run prints it empty instead of failing after the upload.
    const ok = await e.capture(["users", "import", "staff.csv", "--yes", "-o", "json", "--fields", "batch,wouldSend"], {
      cwd: dir,
    });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([{ batch: 1, wouldSend: null }]);
  });

  it("reports sync --fields bogus: exit 2 before the database is written", async () => {
    const { e, dir } = await setup({});
    const db = join(dir, "reports.duckdb");
    const r = await e.capture(["reports", "sync", "--db", db, "--kinds", "users", "--fields", "bogus"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.sent).toEqual([]);
    await expect(readFile(db)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("progress --links --fields bogus: exit 2 before the service is asked; a column of the file is a field", async () => {
    const { e, dir } = await setup({ "cohort.csv": "userId,simulationId,Team\nuser-demo,sim-001,Ops\n" });
    const r = await e.capture(["progress", "--from-csv", "cohort.csv", "--links", "--fields", "userId,bogus"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown field for --fields: bogus");
    expect(r.sent).toEqual([]);
    const ok = await e.capture(["progress", "--from-csv", "cohort.csv", "-o", "json", "--fields", "userId,Team,error"], {
      cwd: dir,
    });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([{ userId: "user-demo", Team: "Ops", error: null }]);
  });

  it("assign --from-csv --fields bogus: exit 2 before anything is sent", async () => {
    const { e, dir } = await setup({ "cohort.csv": "userId,simulationId\nuser-demo,sim-001\n" });
    const r = await e.capture(["assign", "--from-csv", "cohort.csv", "--fields", "bogus"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.sent).toEqual([]);
  });
});

describe("xlsx rosters: the sheet, the header row, formulas without a value", () => {
  async function workbook(build: (book: ExcelJS.Workbook) => void): Promise<Buffer> {
    const book = new ExcelJS.Workbook();
    build(book);
    return Buffer.from(await book.xlsx.writeBuffer());
  }
  const users = [
    ["firstName", "lastName", "email"],
    ["Ann", "Lee", "ann@example.com"],
    ["Bo", "Kim", "bo@example.com"],
  ];
  const emails = (stdout: string): unknown[] => (JSON.parse(stdout) as { email: string }[]).map((p) => p.email);

  it("skips a hidden first sheet by default, and --sheet picks a sheet by name or number", async () => {
    const bytes = await workbook((book) => {
      const old = book.addWorksheet("Old");
      old.state = "hidden";
      old.addRows([["not", "a", "roster"]]);
      book.addWorksheet("Notes").addRows([["Exported from HR"]]);
      book.addWorksheet("Roster").addRows(users);
    });
    const { e, dir } = await setup({ "hr.xlsx": bytes });
    const plan = async (...args: string[]) =>
      e.capture(["users", "sync", "hr.xlsx", "--plan", "-o", "json", ...args], { cwd: dir });
    // The first visible sheet is "Notes": read by default, and it is no roster.
    const byDefault = await plan();
    expect(byDefault.exitCode).toBe(6);
    expect(byDefault.stderr).toContain('"Exported from HR"');
    const byName = await plan("--sheet", "roster");
    expect(byName.exitCode, byName.stderr).toBe(12);
    expect(emails(byName.stdout)).toEqual(["ann@example.com", "bo@example.com"]);
    const byNumber = await plan("--sheet", "2");
    expect(byNumber.exitCode, byNumber.stderr).toBe(12);
    expect(emails(byNumber.stdout)).toEqual(["ann@example.com", "bo@example.com"]);
    const missing = await plan("--sheet", "Staff");
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('its sheets: "Old" (hidden), "Notes", "Roster"');
    expect(missing.sent).toEqual([]);
  });

  it("a hidden first sheet is not read: the first visible one is", async () => {
    const bytes = await workbook((book) => {
      const old = book.addWorksheet("Old");
      old.state = "hidden";
      old.addRows([["not", "a", "roster"]]);
      book.addWorksheet("Roster").addRows(users);
    });
    const { e, dir } = await setup({ "hr.xlsx": bytes });
    const r = await e.capture(["users", "sync", "hr.xlsx", "--plan", "-o", "json"], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(12);
    expect(emails(r.stdout)).toEqual(["ann@example.com", "bo@example.com"]);
  });

  it("--header-row skips the title rows above the header; row numbers stay the sheet's", async () => {
    const bytes = await workbook((book) => {
      const sheet = book.addWorksheet("Staff");
      sheet.addRows([["Staff export"], ["2026-11-27"], ...users, ["Cy", "", "cy@example.com"]]);
    });
    const { e, dir } = await setup({ "hr.xlsx": bytes });
    const r = await e.capture(["users", "sync", "hr.xlsx", "--header-row", "3", "--plan", "-o", "json"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toEqual([{ row: 6, field: "lastName", message: "required but empty" }]);
    const csv = await e.capture(["users", "import", "hr.xlsx", "--sheet", "1", "--dry-run"], { cwd: dir });
    expect(csv.stderr).toContain("missing column");
  });

  it("a formula without a stored value (as openpyxl writes it) is named as such, not 'required but empty'", async () => {
    const bytes = await workbook((book) => {
      const sheet = book.addWorksheet("Roster");
      sheet.addRows(users);
      sheet.getCell("C3").value = { formula: 'LOWER(A3)&"@example.com"' };
    });
    const { e, dir } = await setup({ "hr.xlsx": bytes });
    const r = await e.capture(["users", "import", "hr.xlsx", "--dry-run"], { cwd: dir });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('cell C3 of sheet "Roster" holds a formula without a stored value');
    expect(r.stderr).toContain("open and save it in Excel or LibreOffice");
    expect(r.stderr).not.toContain("required but empty");
  });

  it("--sheet on a CSV is a usage error, nothing read or sent", async () => {
    const { e, dir } = await setup({ "hr.csv": "firstName,lastName,email\nAnn,Lee,ann@example.com\n" });
    const r = await e.capture(["users", "sync", "hr.csv", "--sheet", "1", "--plan"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--sheet applies to .xlsx workbooks");
  });
});
