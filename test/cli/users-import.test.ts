import { createHash } from "node:crypto";
import { copyFile, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../src/sandbox/server.js";
import { FAST, MATRIX_DIALECTS, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// users import through the real program, in-process, against the sandbox: the corpus of bad files (exit
// 6, every problem reported, nothing uploaded), good files uploaded as canonical CSVs,
// --dry-run, --skip-invalid, rows the service rejects, errors.csv, and the manifest's
// refusal to import the same file twice.

const UPLOAD = "/v2/access-api/user/bulk-import";
const FIXTURES = resolve(import.meta.dirname, "../../fixtures/users");
const CANONICAL_HEADER = "firstName,lastName,username,email,role,teamName,status,action";

interface Expected {
  problems?: [number, string][];
  fileError?: string;
  row?: number;
  validRows?: number;
}
const expected = JSON.parse(await readFile(join(FIXTURES, "expected.json"), "utf8")) as Record<string, Expected>;
const fixtureNames = Object.keys(expected).filter((k) => k.endsWith(".csv"));
const badFixtures = fixtureNames.filter((name) => expected[name]?.problems || expected[name]?.fileError);
const goodFixtures = fixtureNames.filter((name) => name.startsWith("good-"));

// A fresh sandbox per test: imports change its users (an Add once imported is "User
// already exists" the next time).
let t: TestEnv;
/** The sandbox dialect of the next sandbox; the answers to uploads differ by dialect (docs/sandbox-dialects.md). */
let dialect: string = "default";
const dirs: { remove(): Promise<void> }[] = [];
beforeEach(async () => {
  t = await startTestEnv({ rateLimits: { access: { limit: 10_000, windowMs: 1000 } }, importStepMs: 100, dialect });
});
afterEach(async () => {
  await t.close();
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => d.remove()));
});

/** A temp dir holding a copy of the fixture (the manifest and errors file go beside it). */
async function withFixture(name: string): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  await copyFile(join(FIXTURES, name), join(dir.path, name));
  return dir.path;
}

async function run(args: string[], cwd: string, env: Record<string, string | undefined> = {}) {
  const before = t.sandbox.requests.length;
  const result = await t.run(args, { env: { ...FAST, ...env }, cwd });
  const sent = t.sandbox.requests.slice(before);
  return { ...result, sent, uploads: sent.filter((r) => r.path === UPLOAD) };
}

function csvOf(upload: RecordedRequest): string {
  return (upload.body as { csvText: string }).csvText;
}

describe("users import: bad files", () => {
  it.each(badFixtures)("%s: exit 6, the exact rows and fields in -o json, nothing uploaded", async (name) => {
    const cwd = await withFixture(name);
    const r = await run(["users", "import", name, "-o", "json"], cwd);
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.uploads).toEqual([]);
    const records = JSON.parse(r.stdout) as { row: number | null; field: string | null; message: string; code?: string }[];
    const want = expected[name]!;
    if (want.problems) {
      expect(records.map((p) => [p.row, p.field])).toEqual(want.problems);
      expect(records.every((p) => p.message.length > 0)).toBe(true);
      const rows = new Set(want.problems.map(([row]) => row)).size;
      expect(r.stderr).toContain(`${rows} invalid row${rows === 1 ? "" : "s"} in ${name}; nothing was sent`);
      // Every invalid row, with its original cells, `row` and `errors`, ready to fix.
      const errorsCsv = await readFile(join(cwd, name.replace(/\.csv$/, ".errors.csv")), "utf8");
      const lines = errorsCsv.trimEnd().split("\n");
      expect(lines[0]).toMatch(/,row,errors$/);
      expect(lines.length - 1).toBeGreaterThanOrEqual(rows);
    } else {
      expect(records[0]).toMatchObject({ code: want.fileError, row: want.row ?? null });
    }
    // No manifest: nothing was planned.
    expect((await readdir(cwd)).filter((f) => f.endsWith(".import.json"))).toEqual([]);
  });

  it("shows the invalid rows as a table when asked, with the one-line summary on stderr", async () => {
    const cwd = await withFixture("bad-several-rows-and-rules.csv");
    const r = await run(["users", "import", "bad-several-rows-and-rules.csv", "-o", "table"], cwd);
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toMatch(/│ 3\s+│ role\s+│ must be "trainee" \(got "Admin"\)/);
    expect(r.stderr.trim().split("\n").at(-1)).toBe(
      "error: 2 invalid rows in bad-several-rows-and-rules.csv; nothing was sent; fix them (see bad-several-rows-and-rules.errors.csv) or use --skip-invalid to upload the 2 valid rows only",
    );
  });

  it("writes the invalid rows with their original cells to <file>.errors.csv", async () => {
    const cwd = await withFixture("bad-several-rows-and-rules.csv");
    await run(["users", "import", "bad-several-rows-and-rules.csv"], cwd);
    const text = await readFile(join(cwd, "bad-several-rows-and-rules.errors.csv"), "utf8");
    expect(text.split("\n").slice(0, 3)).toEqual([
      `${CANONICAL_HEADER},row,errors`,
      'Grace,Hopper,grace@example.com,grace@example.com,Admin,Sales,Enabled,Remove,3,"role: must be ""trainee"" (got ""Admin""); status: must be ACTIVE or INACTIVE (got ""Enabled""); action: must be Add or Update (got ""Remove"")"',
      ',Turing,alan@example.com,Alan@example.com,trainee,,ACTIVE,Add,4,"firstName: required but empty; username: must equal email exactly (username ""alan@example.com"", email ""Alan@example.com"")"',
    ]);
    expect((await stat(join(cwd, "bad-several-rows-and-rules.errors.csv"))).mode & 0o777).toBe(0o600);
  });
});

describe.each(MATRIX_DIALECTS)("users import: good files (%s dialect)", (dialectName) => {
  beforeAll(() => {
    dialect = dialectName;
  });
  afterAll(() => {
    dialect = "default";
  });

  it.each(goodFixtures)("%s: uploads its valid rows once as a canonical CSV and records the task", async (name) => {
    const cwd = await withFixture(name);
    const r = await run(["users", "import", name, "-o", "json"], cwd);
    expect(t.sandbox.dialect.name).toBe(dialectName);
    // Updates of users the sandbox does not know are rejected by the service (exit 6).
    expect([0, 6], r.stderr).toContain(r.exitCode);
    expect(r.uploads).toHaveLength(1);
    const csv = csvOf(r.uploads[0]!);
    expect(csv.split("\n")[0]).toBe(CANONICAL_HEADER);
    const rows: string[][] = parse(csv);
    expect(rows).toHaveLength(expected[name]!.validRows! + 1);
    const [batch] = JSON.parse(r.stdout) as { batch: number; state: string; taskId: string; status: string }[];
    expect(batch).toMatchObject({ batch: 1, state: "uploaded", status: "SCHEDULED" });
    const manifest = JSON.parse(await readFile(join(cwd, name.replace(/\.csv$/, ".import.json")), "utf8")) as {
      batches: { taskId: string; sha256: string }[];
    };
    expect(manifest.batches[0]?.taskId).toBe(batch!.taskId);
    expect(manifest.batches[0]?.sha256).toBe(createHash("sha256").update(csv).digest("hex"));
  });

  it("reports the rows the service rejects with the original row numbers and writes them to errors.csv (exit 6)", async () => {
    const cwd = await withFixture("good-small.csv");
    const r = await run(["users", "import", "good-small.csv", "-o", "json"], cwd);
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain("row 4: User does not exist");
    expect(r.stderr).toContain("row 5: User does not exist");
    expect(r.stderr).toContain("the service rejected 2 rows of good-small.csv; the other rows were accepted");
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ batch: 1, rejectedRows: 2 })]);
    const text = await readFile(join(cwd, "good-small.errors.csv"), "utf8");
    expect(text.trimEnd().split("\n")).toEqual([
      `${CANONICAL_HEADER},row,errors`,
      "Alan,Turing,alan.turing@example.com,alan.turing@example.com,trainee,Research,INACTIVE,Update,4,User does not exist",
      "Barbara,Liskov,barbara.liskov@example.com,barbara.liskov@example.com,trainee,Engineering,ACTIVE,Update,5,User does not exist",
    ]);
  });

  it("maps service row numbers back through rows skipped locally (--skip-invalid)", async () => {
    const dir = await tempDir();
    dirs.push(dir);
    // Row 3 is invalid locally; row 4 is an Update of an unknown user, line 3 of the upload.
    await writeFile(
      join(dir.path, "mixed.csv"),
      [
        CANONICAL_HEADER,
        "Ann,One,ann.one@example.com,ann.one@example.com,trainee,,ACTIVE,Add",
        "Bad,Row,bad@example.com,bad@example.com,admin,,ACTIVE,Add",
        "Nobody,Here,nobody.here@example.com,nobody.here@example.com,trainee,,ACTIVE,Update",
        "",
      ].join("\n"),
    );
    const r = await run(["users", "import", "mixed.csv", "--skip-invalid", "-o", "json"], dir.path);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.uploads).toHaveLength(1);
    expect(
      csvOf(r.uploads[0]!)
        .trimEnd()
        .split("\n")
        .map((l) => l.split(",")[3]),
    ).toEqual(["email", "ann.one@example.com", "nobody.here@example.com"]);
    expect(r.stderr).toContain("row 3, role:");
    expect(r.stderr).toContain("row 4: User does not exist");
    const lines = (await readFile(join(dir.path, "mixed.errors.csv"), "utf8")).trimEnd().split("\n");
    expect(lines.map((l) => l.split(",").slice(-2, -1)[0] ?? l)).toHaveLength(3);
    expect(lines[1]).toMatch(/^Bad,Row,.*,3,/);
    expect(lines[2]).toMatch(/^Nobody,Here,.*,4,User does not exist$/);
  });
});

describe("users import: --dry-run and --skip-invalid", () => {
  it("--dry-run shows the plan and sends nothing", async () => {
    const cwd = await withFixture("good-small.csv");
    const r = await run(["users", "import", "good-small.csv", "--dry-run", "-o", "json"], cwd);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      rows: 5,
      validRows: 5,
      invalidRows: 0,
      batches: 1,
      batchSizes: [5],
      adds: 3,
      updates: 2,
      inactive: 2,
    });
    expect(r.stderr).toContain("dry run: nothing was sent");
    expect((await readdir(cwd)).sort()).toEqual(["good-small.csv"]);
  });

  it("--dry-run of a file with invalid rows ends 6, and 0 with --skip-invalid", async () => {
    const cwd = await withFixture("bad-several-rows-and-rules.csv");
    const bad = await run(["users", "import", "bad-several-rows-and-rules.csv", "--dry-run", "-o", "json"], cwd);
    expect(bad.exitCode).toBe(6);
    expect(bad.sent).toEqual([]);
    const skip = await run(
      ["users", "import", "bad-several-rows-and-rules.csv", "--dry-run", "--skip-invalid", "-o", "json"],
      cwd,
    );
    expect(skip.exitCode, skip.stderr).toBe(0);
    expect(skip.sent).toEqual([]);
    expect(JSON.parse(skip.stdout)).toMatchObject({ validRows: 2, invalidRows: 2, batchSizes: [2] });
  });

  it("--skip-invalid uploads only the valid rows and still reports the invalid ones", async () => {
    const cwd = await withFixture("bad-several-rows-and-rules.csv");
    const r = await run(["users", "import", "bad-several-rows-and-rules.csv", "--skip-invalid", "-o", "json"], cwd);
    expect(r.uploads).toHaveLength(1);
    expect(csvOf(r.uploads[0]!)).toBe(
      `${CANONICAL_HEADER}\nAda,Lovelace,ada@example.com,ada@example.com,trainee,Sales,ACTIVE,Add\nBarbara,Liskov,barbara@example.com,barbara@example.com,trainee,Sales,ACTIVE,Update\n`,
    );
    expect(r.stderr).toContain("2 invalid rows in bad-several-rows-and-rules.csv will be skipped");
    expect(r.stderr).toContain("row 4, firstName: required but empty");
    // barbara@example.com is unknown to the sandbox: rejected by the service, but --skip-invalid → 0.
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = (await readFile(join(cwd, "bad-several-rows-and-rules.errors.csv"), "utf8")).trimEnd().split("\n");
    expect(lines.map((l) => /,(\d+),[^,]*$/.exec(l.replace(/"[^"]*"/g, "q"))?.[1])).toEqual([undefined, "3", "4", "5"]);
  });
});

describe("users import: the manifest guards against importing twice", () => {
  it("refuses to import the same file again without --resume (exit 2, nothing sent)", async () => {
    const cwd = await withFixture("good-quoted.csv");
    const first = await run(["users", "import", "good-quoted.csv", "--skip-invalid"], cwd);
    expect(first.uploads).toHaveLength(1);
    const again = await run(["users", "import", "good-quoted.csv", "--skip-invalid"], cwd);
    expect(again.exitCode).toBe(2);
    expect(again.sent).toEqual([]);
    expect(again.stderr).toMatch(
      /good-quoted\.csv was already imported into organization \S+ at \S+ \(API v2\) according to good-quoted\.import\.json/,
    );
    expect(again.stderr).toContain("--resume");
    const resumed = await run(["users", "import", "good-quoted.csv", "--skip-invalid", "--resume", "-o", "json"], cwd);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.uploads).toEqual([]);
  });

  it("replaces the finished manifest of an earlier version of the file", async () => {
    const cwd = await withFixture("good-quoted.csv");
    expect((await run(["users", "import", "good-quoted.csv", "--skip-invalid"], cwd)).uploads).toHaveLength(1);
    const text = await readFile(join(cwd, "good-quoted.csv"), "utf8");
    await writeFile(join(cwd, "good-quoted.csv"), `${text}Zoe,New,zoe.new@example.com,zoe.new@example.com,trainee,,ACTIVE,Add\n`);
    const r = await run(["users", "import", "good-quoted.csv", "--skip-invalid"], cwd);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.uploads).toHaveLength(1);
    expect(r.stderr).toContain("replacing good-quoted.import.json");
  });

  it("--resume without a manifest is a usage error", async () => {
    const cwd = await withFixture("good-quoted.csv");
    const r = await run(["users", "import", "good-quoted.csv", "--resume"], cwd);
    expect(r.exitCode).toBe(2);
    expect(r.sent).toEqual([]);
  });
});

describe("users import: usage", () => {
  it.each([
    [["users", "import", "x.csv", "--wait-timeout", "1m"], /--wait-timeout applies only with --wait/],
    [["users", "import", "x.csv", "--dry-run", "--wait"], /nothing to wait for/],
    [["--api-version", "1", "users", "import", "x.csv"], /needs API version 2/],
  ])("%j → exit 2, nothing sent", async (args, message) => {
    const dir = await tempDir();
    dirs.push(dir);
    await writeFile(join(dir.path, "x.csv"), `${CANONICAL_HEADER}\n`);
    const r = await run(args, dir.path);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.sent).toEqual([]);
  });

  it("a CSV that cannot be read is a local file error: exit 11 naming it, nothing sent", async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const r = await run(["users", "import", "missing.csv"], dir.path);
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toMatch(/cannot read missing\.csv: no such file or directory \(ENOENT\)/);
    expect(r.sent).toEqual([]);
  });
});

describe("users import: line breaks inside values", () => {
  // issue 21 item 5: a quoted CR in a name passed --dry-run and went up unquoted, so the
  // service saw a phantom row. The upload is read back as the service would (CR, LF and CRLF
  // all line ends) and must hold exactly the file's row with the name unchanged.
  it("uploads a name holding a CR quoted: one row, the name unchanged", async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const name = "cr-name.csv";
    await writeFile(
      join(dir.path, name),
      `${CANONICAL_HEADER}\n"Ann\rMarie",Lee,ann.lee@example.com,ann.lee@example.com,trainee,,ACTIVE,Add\n`,
    );
    const r = await run(["users", "import", name, "-o", "json"], dir.path);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.uploads).toHaveLength(1);
    const uploaded = parse<Record<string, string>>(csvOf(r.uploads[0]!), {
      columns: true,
      record_delimiter: ["\r\n", "\n", "\r"],
    });
    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]).toMatchObject({ firstName: "Ann\rMarie", lastName: "Lee", email: "ann.lee@example.com" });
  });
});
