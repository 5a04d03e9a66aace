import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowCommandGuard } from "../../src/output/workflow-guard.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// What the GitHub Actions runner makes of a run's output (docs/ci-and-cron.md "GitHub
// Actions"). The runner's parser (actions/runner, ActionCommand.TryParseV2 and TryParse): a
// line is a command when, trimmed, it starts with `::`, or when it holds `##[` anywhere.

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function workflowCommands(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim().startsWith("::") || line.includes("##["))
    .map((line) => line.trim());
}

let t: TestEnv;
let dir: string;
beforeAll(async () => {
  t = await startTestEnv();
  dir = await mkdtemp(join(tmpdir(), "simadmin-gha-"));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const header = "firstName,lastName,username,email,role,teamName,status,action";

describe("no forged workflow command", () => {
  it("a users file whose name holds line breaks, ::error and ::add-mask:: makes no command of its own", async () => {
    const file = join(dir, "staff\n::error::forged\n  ::add-mask::hidden\n##[warning]old.csv");
    // An unknown column (a notice), a row left out (a warning), the plan and closing lines (info).
    await writeFile(
      file,
      `${header},Extra\nAl,Ng,al@example.com,al@example.com,trainee,Sales,ACTIVE,Add,1\nBo,Ng,bo@example.com,bo@example.org,trainee,Sales,ACTIVE,Add,2\n`,
    );
    const r = await t.capture(["users", "import", file, "--skip-invalid", "--yes"], {
      env: { GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: dir },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const commands = workflowCommands(r.stderr);
    // The one annotation of the rejected row, its file name escaped as a property.
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/^::warning file=staff%0A%3A%3Aerror%3A%3Aforged%0A .*,line=3,title=row 3 skipped::row 3: /);
    // Every message naming the file keeps it on its own line, escaped as a table cell is.
    const shown = "staff\\n::error::forged\\n  ::add-mask::hidden\\n##";
    expect(r.stderr).toMatch(new RegExp(`^warning: ${escapeRegExp(shown)}.*: unknown column "Extra"`, "m"));
    expect(r.stderr).toMatch(new RegExp(`^warning: 1 invalid row in ${escapeRegExp(shown)}.* will be skipped`, "m"));
    expect(r.stderr).toMatch(
      new RegExp(`^${escapeRegExp(shown)}.*: 1 batch uploaded .*\\(see .*${escapeRegExp(shown)}.*errors\\.csv\\)$`, "m"),
    );
    for (const line of r.stderr.trimEnd().split("\n"))
      expect(line).toMatch(/^(warning: |accepted: |follow them | {2}row 3, |::warning file=|staff\\n)/);
  });

  it("outside GitHub Actions too, a file name with a line break never breaks a message's line", async () => {
    const file = join(dir, "roster\nwarning: all users deleted.csv");
    await writeFile(file, `${header},Extra\nAl,Ng,al@example.com,al@example.com,trainee,Sales,ACTIVE,Add,1\n`);
    const r = await t.capture(["users", "import", file, "--dry-run"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/^warning: all users deleted/m);
    expect(r.stderr).toContain("roster\\nwarning: all users deleted.csv");
  });

  it.each([
    ["csv", ["-o", "csv", "--query", "[{a: '::error file=README.md::boom', b: 'x ##[add-mask]y'}]"]],
    ["text", ["-o", "text", "--query", "'::add-mask::hidden'"]],
    ["table", ["-o", "table", "--query", "[{a: '::error::boom'}]"]],
    ["json", ["-o", "json", "--query", "['::error::boom']"]],
  ])("stdout data (-o %s) under GITHUB_ACTIONS has no line the runner takes for a command", async (_format, args) => {
    const r = await t.capture(["token", "--user", "user-demo", ...args], { env: { GITHUB_ACTIONS: "true" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(workflowCommands(r.stdout)).toEqual([]);
    expect(r.stdout).toMatch(/error|add-mask/);
  });

  it("CSV keeps the value exact: the cell is quoted, not changed", async () => {
    const r = await t.capture(["token", "--user", "user-demo", "-o", "csv", "--query", "[{a: '::error::boom'}]"]);
    expect(r.stdout).toBe('a\n"::error::boom"\n');
  });

  it("outside GitHub Actions the text is as it was", async () => {
    const r = await t.capture(["token", "--user", "user-demo", "-o", "text", "--query", "'::add-mask::hidden'"]);
    expect(r.stdout).toBe("::add-mask::hidden\n");
  });

  it("the guard carries its state across chunks", () => {
    const guard = new WorkflowCommandGuard();
    const out = ["ok\n  :", ":error::x\n#", "#[add-mask]y\n"].map((chunk) => guard.filter(chunk)).join("");
    expect(workflowCommands(out)).toEqual([]);
    expect(out).toBe("ok\n  :\\u003aerror::x\n##\\u005badd-mask]y\n");
  });
});

async function ciRun(name: string, csv: string, args: string[], env: Record<string, string> = {}) {
  const run = await mkdtemp(join(dir, "run-"));
  const file = join(run, name);
  await writeFile(file, csv);
  const paths = { summary: join(run, "summary.md"), output: join(run, "output.txt"), junit: join(run, "report.xml") };
  const r = await t.capture(["users", "import", file, "--junit", paths.junit, ...args], {
    env: {
      GITHUB_ACTIONS: "true",
      GITHUB_WORKSPACE: run,
      GITHUB_STEP_SUMMARY: paths.summary,
      GITHUB_OUTPUT: paths.output,
      ...env,
    },
  });
  const read = (path: string): Promise<string> => readFile(path, "utf8").catch(() => "");
  return { ...r, summary: await read(paths.summary), output: await read(paths.output), junit: await read(paths.junit) };
}

const row = (user: string, email = user): string => `Al,Ng,${user},${email},trainee,Sales,ACTIVE,Add`;

describe("the step's report", () => {
  it("a task that ended FAILED is an ::error annotation; counts and task ids go to $GITHUB_OUTPUT", async () => {
    const r = await ciRun("staff.csv", `${header}\n${row("al@fail.example.com")}\n`, ["--yes", "--wait"]);
    expect(r.exitCode, r.stderr).toBe(10);
    const taskId = /task (task-[\w-]+)/.exec(r.stderr)?.[1];
    expect(taskId).toBeDefined();
    expect(workflowCommands(r.stderr)).toEqual([
      expect.stringMatching(new RegExp(`^::error title=batch 1 .*::batch 1: .*FAILED task ${taskId}$`)),
    ]);
    const outputs = Object.fromEntries(
      r.output
        .trim()
        .split("\n")
        .map((line) => line.split("=") as [string, string]),
    );
    expect(outputs).toMatchObject({
      rows: "1",
      "valid-rows": "1",
      "invalid-rows": "0",
      batches: "1",
      "failed-batches": "1",
      "task-ids": taskId,
      "exit-code": "10",
      "dry-run": "false",
    });
  });

  it("a dry run's summary says so in its heading; a real run's does not", async () => {
    const dry = await ciRun("staff.csv", `${header}\n${row("dry@example.com")}\n`, ["--dry-run"]);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.summary).toMatch(/^### Dry run: `simadmin users import .*staff\.csv` \(nothing was sent\)$/m);
    expect(dry.summary).toContain("dry run: nothing was sent");
    expect(dry.output).toContain("dry-run=true");
    expect(dry.stderr).toMatch(/uploading needs 1 access request/);
    expect(dry.stderr).not.toMatch(/uploads needs/);
    const real = await ciRun("staff.csv", `${header}\n${row("real@example.com")}\n`, ["--yes"]);
    expect(real.exitCode, real.stderr).toBe(0);
    expect(real.summary).toMatch(/^### `simadmin users import .*staff\.csv`$/m);
    expect(real.summary).not.toContain("Dry run");
  });

  it("Markdown in a value is text; a file name is a code span without HTML entities", async () => {
    const value = "![pic](http://e.example/i.png)**bold**<b>x</b>";
    const r = await ciRun("R&D.csv", `${header}\n${row(value, "al@example.com")}\n`, []);
    expect(r.exitCode).toBe(6);
    expect(r.summary).toMatch(/\| `[^`|]*\/R&D\.csv` \| 2 \| 2 \| /);
    expect(r.summary).not.toContain("&amp;");
    expect(r.summary).toContain("!\\[pic\\](http\\://e.example/i.png)");
    expect(r.summary).toContain("\\*\\*bold\\*\\*\\<b\\>");
    // No character that starts Markdown is left unescaped in the problem cell.
    const problem =
      r.summary
        .split("\n")
        .find((line) => line.includes("pic"))
        ?.split(" | ")[3] ?? "";
    expect(problem.replace(/\\./g, "")).not.toMatch(/[[\]*<>`_&]/);
  });
});

describe("JUnit", () => {
  it("rows left out by --skip-invalid are <skipped>, not failures", async () => {
    const r = await ciRun("staff.csv", `${header}\n${row("skip@example.com")}\n${row("bo@example.com", "bo@example.org")}\n`, [
      "--skip-invalid",
      "--yes",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.junit).toMatch(/<testsuite [^>]*tests="2" failures="0" errors="0" skipped="1"/);
    expect(r.junit).toMatch(/<testcase [^>]*name="[^"]*staff\.csv row 3"[^>]*>\s*<skipped message="username: /);
    expect(workflowCommands(r.stderr)).toEqual([
      expect.stringMatching(/^::warning file=staff\.csv,line=3,title=row 3 skipped::/),
    ]);
  });

  it("a refused API key is an <error>, not a failure", async () => {
    const r = await ciRun("staff.csv", `${header}\n${row("al@example.com")}\n`, ["--yes"], {
      SIMADMIN_API_KEY: "sk_wrong_0123456789",
    });
    expect(r.exitCode).toBe(3);
    expect(r.junit).toMatch(/<testsuite [^>]*failures="0" errors="1" skipped="0"/);
    expect(r.junit).toMatch(/<error message="[^"]+" type="exit 3">/);
  });
});
