import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowCommandGuard } from "../../src/output/workflow-guard.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// What the GitHub Actions runner makes of a run's output (docs/ci-and-cron.md "GitHub
// Actions"). The runner's parser (actions/runner, ActionCommand.TryParseV2 and TryParse): a
// line is a command when, trimmed, it starts with `::`, or when it holds `##[` anywhere.

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
    await writeFile(
      file,
      `${header}\nAl,Ng,al@example.com,al@example.com,trainee,Sales,ACTIVE,Add\nBo,Ng,bo@example.com,bo@example.org,trainee,Sales,ACTIVE,Add\n`,
    );
    const r = await t.capture(["users", "import", file, "--skip-invalid", "--yes"], {
      env: { GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: dir },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const commands = workflowCommands(r.stderr);
    // The one annotation of the rejected row, its file name escaped as a property.
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/^::error file=staff%0A%3A%3Aerror%3A%3Aforged%0A .*,line=3,title=row 3 rejected::row 3: /);
    // The warning and the closing line name the file, their line breaks kept but defused.
    expect(r.stderr).toContain("\n:\\u003aerror::forged");
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
