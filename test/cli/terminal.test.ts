import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateReport } from "../../src/sandbox/reports.js";
import { FAST, ROOMY, startTestEnv, tempDir, terminalStdin, type TestEnv } from "../helpers/in-process.js";

// What a person sees on a terminal (issue 11 item 1), through the real program in-process
// with stdout/stderr/stdin that say they are terminals: colour and its opt-outs
// (docs/cli-contract.md, "Output": --no-color and NO_COLOR), the spinner only on a terminal
// stderr and never with -q ("Progress"), tables within the terminal's width, the import's
// confirmation question, and control characters from the service made visible.

const LIBRARY = "/v2/access-api/simulation/library";
const UPLOAD = "/v2/access-api/user/bulk-import";
// eslint-disable-next-line no-control-regex -- finding escape sequences is the point
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
// eslint-disable-next-line no-control-regex -- finding raw control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const TERMINAL = { stdoutIsTTY: true, stderrIsTTY: true, columns: 80 } as const;

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv(ROOMY);
});
afterAll(() => t.close());
beforeEach(() => {
  t.sandbox.faults.clear();
});

/** The text as a terminal shows it: colour and cursor codes removed. */
function visible(text: string): string {
  return text.replace(ANSI, "");
}

describe("colour", () => {
  const library = ["library", "--user", "user-demo"];

  it("a table on a terminal has coloured headings and borders", async () => {
    const r = await t.capture(library, TERMINAL);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("\u001b[36mid\u001b[39m");
    expect(r.stdout).toContain("\u001b[90m┌");
  });

  it.each([
    ["NO_COLOR=1", [], { NO_COLOR: "1" }],
    ["NO_COLOR=true", [], { NO_COLOR: "true" }],
    ["--no-color", ["--no-color"], {}],
    ["--no-color after the subcommand", [], {}, ["--no-color"]],
  ])("%s: the same table without a single escape code", async (_name, before, env, after = []) => {
    const coloured = await t.capture(library, TERMINAL);
    const plain = await t.capture([...before, ...library, ...after], { ...TERMINAL, env });
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stdout).not.toMatch(ANSI);
    expect(plain.stdout).toBe(visible(coloured.stdout));
  });

  it("an empty NO_COLOR does not turn colour off (no-color.org: any non-empty value)", async () => {
    const r = await t.capture(library, { ...TERMINAL, env: { NO_COLOR: "" } });
    expect(r.stdout).toMatch(ANSI);
  });

  it("no colour when stdout is not a terminal, even as a table", async () => {
    const r = await t.capture([...library, "-o", "table"], { stderrIsTTY: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("┌");
    expect(r.stdout).not.toMatch(ANSI);
  });

  it("the spinner's final tick follows NO_COLOR too", async () => {
    const report = ["reports", "users", "--from", "2025-01-01", "--to", "2025-01-31", "-o", "ndjson"];
    const coloured = await t.capture(report, TERMINAL);
    const plain = await t.capture(report, { ...TERMINAL, env: { NO_COLOR: "1" } });
    expect(coloured.exitCode, coloured.stderr).toBe(0);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(coloured.stdout).toBe(plain.stdout);
    expect(coloured.stderr).toContain("\u001b[32m✔\u001b[39m");
    expect(plain.stderr).toContain("✔");
    expect(plain.stderr).not.toContain("\u001b[32m");
  });
});

describe("spinner", () => {
  const walk = ["library", "--user", "user-demo", "--all", "-o", "json"];

  it("shows on a terminal stderr while library --all walks pages, and leaves stdout clean", async () => {
    const r = await t.capture(walk, TERMINAL);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(visible(r.stderr)).toMatch(/library: page 1 · 0 simulations so far/);
    expect(r.stderr).toMatch(ANSI); // cursor movement and line clearing: a spinner, not lines of text
    expect(r.stdout).not.toMatch(ANSI);
    expect(JSON.parse(r.stdout)).toEqual(expect.any(Array));
  });

  it("does not show when stderr is not a terminal (cron mail, CI logs)", async () => {
    const r = await t.capture(walk, { stdoutIsTTY: true, stderrIsTTY: false, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/library: page|✔/);
    expect(r.stderr).not.toMatch(ANSI);
  });

  it("does not show with -q on a terminal", async () => {
    const r = await t.capture([...walk, "-q"], TERMINAL);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
  });
});

// Issue 15 item 2, issue 21 item 1: report tables at 80 columns, columns chosen from the
// records (no list of the sandbox's names in src/), one hint line that itself works.
describe("report tables at 80 columns", () => {
  it.each(["syms-result", "user-results", "training-plan-result", "modules-results", "syms", "users", "teams-result"])(
    "%s: a date, then the telling columns that fit, and one hint line whose --fields works",
    async (kind) => {
      const range = ["--from", "2025-06-01", "--to", "2025-06-03"];
      const r = await t.capture(["reports", kind, ...range, "-q"], {
        stdoutIsTTY: true,
        stderrIsTTY: false,
        columns: 80,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const lines = visible(r.stdout).trimEnd().split("\n");
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
      const header = (lines[1] ?? "")
        .split("│")
        .map((c) => c.trim())
        .filter(Boolean);
      expect(header[0]).toBe("date");
      expect(header.length).toBeGreaterThanOrEqual(3);
      // Ids are left to csv and json when something else fits.
      expect(header.filter((c) => /(^|\.)id$|Id$/.test(c))).toEqual([]);
      expect(r.stdout).not.toContain("…");
      // -q keeps the hint off (cron); without it there is exactly one.
      const hinted = await t.capture(["reports", kind, ...range], { stdoutIsTTY: true, columns: 80 });
      const hints = hinted.stderr.split("\n").filter((line) => line.includes("columns shown"));
      expect(hints).toHaveLength(1);
      expect(hints[0]).toMatch(
        new RegExp(
          `^${kind}: ${header.length} of \\d+ columns shown to fit 80 columns; left out: .*-o csv / -o json for every column\\)$`,
        ),
      );
      // The hint's own --fields runs as written and shows exactly those columns.
      const suggested = /--fields (\S+) /.exec(hints[0] ?? "")?.[1] ?? "";
      // It keeps the most telling shown columns and adds one left out, as many as fit (issue 21 item 1).
      const wanted = suggested.split(",");
      expect(wanted.slice(0, -1)).toEqual(header.slice(0, wanted.length - 1));
      expect(header).not.toContain(wanted.at(-1));
      const again = await t.capture(["reports", kind, ...range, "--fields", suggested], { stdoutIsTTY: true, columns: 80 });
      expect(again.exitCode, again.stderr).toBe(0);
      for (const line of visible(again.stdout).trimEnd().split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80);
      const shown = (visible(again.stdout).split("\n")[1] ?? "")
        .split("│")
        .map((c) => c.trim())
        .filter(Boolean);
      expect(shown).toEqual(suggested.split(","));
    },
  );

  it("reports all: one hint for the whole run", async () => {
    const r = await t.capture(["reports", "all", "--from", "2025-06-01", "--to", "2025-06-01"], {
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.split("\n").filter((line) => line.includes("columns shown"))).toHaveLength(1);
    for (const line of visible(r.stdout).split("\n")) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  it("--fields shows exactly the columns named, without a hint", async () => {
    const r = await t.capture(
      ["reports", "users", "--from", "2025-06-01", "--to", "2025-06-01", "--fields", "recordId,group.id,newUsers"],
      { stdoutIsTTY: true, columns: 80 },
    );
    const header = (visible(r.stdout).split("\n")[1] ?? "")
      .split("│")
      .map((c) => c.trim())
      .filter(Boolean);
    expect(header).toEqual(["recordId", "group.id", "newUsers"]);
    expect(r.stderr).not.toContain("columns shown");
  });
});

describe("tables say who and when", () => {
  const headerOf = (stdout: string): string[] =>
    (visible(stdout).split("\n")[1] ?? "")
      .split("│")
      .map((c) => c.trim())
      .filter(Boolean);

  describe.each(["default", "public", "terse"] as const)("dialect %s", (dialect) => {
    let d: TestEnv;
    beforeAll(async () => {
      d = await startTestEnv({ ...ROOMY, dialect });
    });
    afterAll(() => d.close());

    it.each([80, 120])(
      "training-plan-result at %i columns: the date, the plan and the trainee before the numbers",
      async (columns) => {
        const r = await d.capture(["reports", "training-plan-result", "--from", "2025-06-01", "--to", "2025-06-01", "-q"], {
          stdoutIsTTY: true,
          columns,
        });
        expect(r.exitCode, r.stderr).toBe(0);
        const header = headerOf(r.stdout);
        expect(header[0]).toMatch(/^(date|day)$/);
        // Who: the trainee's name, whatever the dialect calls it; what: the plan's.
        expect(header.slice(1, 3)).toEqual(
          { default: ["plan.name", "user.name"], public: ["name", "userName"], terse: ["plan_name", "user_name"] }[dialect],
        );
      },
    );
  });

  it("ids and dates are never split inside a word, even when --fields asks for more than fits 80 columns", async () => {
    const fields = "recordId,date,user.id,simulation.id,user.name,simulation.title,user.team,completionTime";
    const r = await t.capture(["reports", "user-results", "--from", "2025-06-01", "--to", "2025-06-01", "--fields", fields], {
      stdoutIsTTY: true,
      columns: 80,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = visible(r.stdout).trimEnd().split("\n");
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    const cells = lines.flatMap((line) => line.split("│").map((c) => c.trim()));
    const records = generateReport("user-results", "2025-06-01", "2025-06-01", 2) as {
      date: string;
      user: { id: string };
      simulation: { id: string };
    }[];
    for (const record of records) {
      expect(cells).toContain(record.date);
      expect(cells).toContain(record.user.id);
      expect(cells).toContain(record.simulation.id);
    }
  });

  it("a hint longer than the terminal is broken at spaces, never inside a word", async () => {
    const argv = ["reports", "syms-result", "--from", "2025-06-01", "--to", "2025-06-01"];
    const piped = await t.capture(argv, { stdoutIsTTY: true, columns: 80 });
    const hint = piped.stderr.split("\n").find((line) => line.includes("columns shown")) ?? "";
    expect(hint.length).toBeGreaterThan(80);
    const r = await t.capture(argv, { stdoutIsTTY: true, stderrIsTTY: true, columns: 80 });
    // The screen's lines: a spinner redraws from column 1 (ESC [1G) before the line written after it.
    const lines = r.stderr.split("\n").map((line) => visible(line.split("\u001b[1G").at(-1) ?? ""));
    const start = lines.findIndex((line) => line.includes("columns shown"));
    const wrapped = lines.slice(start, start + Math.ceil(hint.length / 60));
    for (const line of wrapped) expect([...line].length, line).toBeLessThan(80);
    // The same words, only the spaces at the breaks became line ends.
    expect(wrapped.join(" ").slice(0, hint.length)).toBe(hint);
  });
});

describe("long cells and lists at 80 columns", () => {
  it("a validation message is wrapped onto more lines, never cut", async () => {
    const dir = await tempDir();
    try {
      const file = join(dir.path, "staff.csv");
      await writeFile(
        file,
        "firstName,lastName,username,email,role,teamName,status,action\n" +
          "Ana,Diaz,ana.diaz.with.a.rather.long.address@example.com,Ana.Diaz.With.A.Rather.Long.Address@example.com,trainee,Sales,ACTIVE,Add\n",
      );
      const r = await t.capture(["users", "import", file, "--dry-run"], {
        stdoutIsTTY: true,
        columns: 80,
        env: { NO_COLOR: "1" },
      });
      expect(r.exitCode).toBe(6);
      const lines = r.stdout.trimEnd().split("\n");
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
      expect(r.stdout).not.toContain("…");
      const message = lines
        .map((line) => line.split("│")[3]?.trim() ?? "")
        .filter(Boolean)
        .slice(1)
        .join("");
      // Whole once the wrapped lines are put back together (spaces aside).
      expect(message.replace(/\s/g, "")).toContain('email"Ana.Diaz.With.A.Rather.Long.Address@example.com")');
    } finally {
      await dir.remove();
    }
  });

  it("tags read `a, b` in a table and `a;b` in CSV", async () => {
    const table = await t.capture(["library", "--user", "user-demo", "--page-size", "1", "--fields", "id,tags"], {
      stdoutIsTTY: true,
      columns: 80,
      env: { NO_COLOR: "1" },
    });
    expect(table.stdout).toMatch(/│ sim-001 │ sales, beginner, phone │/);
    const csv = await t.capture(["library", "--user", "user-demo", "--page-size", "1", "--fields", "id,tags", "-o", "csv"]);
    expect(csv.stdout).toBe("id,tags\nsim-001,sales;beginner;phone\n");
  });
});

describe("tables at the terminal's width", () => {
  it("fit 80 columns: every line of library's table, the description wrapped, never cut", async () => {
    const r = await t.capture(["library", "--user", "user-demo"], TERMINAL);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = visible(r.stdout).trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(Math.max(...lines.map((line) => [...line].length))).toBe(80);
    expect(r.stdout).not.toContain("…");
    // Every word of the first description is there, in order, across the wrapped lines.
    const cells = lines.map((line) => line.split("│")[5]?.trim() ?? "").filter(Boolean);
    expect(cells.join(" ")).toContain("Open a cold call with a busy prospect and earn the next two minutes.");
  });

  it("use a wider terminal when there is one", async () => {
    const narrow = await t.capture(["library", "--user", "user-demo"], TERMINAL);
    const wide = await t.capture(["library", "--user", "user-demo"], { ...TERMINAL, columns: 200 });
    const widest = (text: string): number =>
      Math.max(
        ...visible(text)
          .split("\n")
          .map((line) => [...line].length),
      );
    expect(widest(wide.stdout)).toBeGreaterThan(widest(narrow.stdout));
    expect(widest(wide.stdout)).toBeLessThanOrEqual(200);
  });

  it("a table is the default only on a terminal; a pipe gets JSON", async () => {
    const terminal = await t.capture(["library", "--user", "user-demo"], TERMINAL);
    const pipe = await t.capture(["library", "--user", "user-demo"]);
    expect(visible(terminal.stdout)).toMatch(/^┌/);
    expect(JSON.parse(pipe.stdout)).toEqual(expect.any(Array));
  });
});

describe("users import asks on a terminal stdin", () => {
  async function importOnTerminal(answer: string, extra: string[] = []) {
    // A sandbox of its own: an imported user exists afterwards, and the next import of the
    // same file would be refused row by row.
    const t = await startTestEnv(ROOMY);
    const dir = await tempDir();
    try {
      // Two new users: the service accepts every row, so the run ends 0.
      const file = join(dir.path, "new-users.csv");
      await writeFile(
        file,
        "firstName,lastName,username,email,role,teamName,status,action\n" +
          "Ada,Lovelace,ada.lovelace@example.com,ada.lovelace@example.com,trainee,Engineering,ACTIVE,Add\n" +
          "Edsger,Dijkstra,edsger.dijkstra@example.com,edsger.dijkstra@example.com,trainee,Research,INACTIVE,Add\n",
      );
      const stdin = terminalStdin();
      stdin.write(answer);
      const r = await t.run(["users", "import", file, "-o", "json", ...extra], {
        env: FAST,
        stdin,
        stderrIsTTY: true,
        columns: 80,
      });
      stdin.end();
      return { ...r, uploads: r.sent.filter((q) => q.path === UPLOAD) };
    } finally {
      await dir.remove();
      await t.close();
    }
  }

  it("uploads after 'y'", async () => {
    const r = await importOnTerminal("y\n");
    expect(r.exitCode, r.stderr).toBe(0);
    expect(visible(r.stderr)).toMatch(/Upload 1 batch to org-demo\? \[y\/N\]/);
    expect(r.uploads).toHaveLength(1);
  });

  it("uploads after 'yes'", async () => {
    const r = await importOnTerminal("yes\n");
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.uploads).toHaveLength(1);
  });

  it.each([["n\n"], ["no\n"], ["\n"], ["maybe\n"]])("sends nothing after %j: exit 2, import cancelled", async (answer) => {
    const r = await importOnTerminal(answer);
    expect(r.exitCode).toBe(2);
    expect(visible(r.stderr)).toMatch(/Upload 1 batch to org-demo\? \[y\/N\]/);
    expect(r.stderr).toMatch(/error: import cancelled; nothing was sent; pass --yes to skip the question/);
    expect(r.uploads).toEqual([]);
    expect(r.stdout).toBe("");
  });

  it("does not ask with --yes", async () => {
    const r = await importOnTerminal("", ["--yes"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\[y\/N\]/);
    expect(r.uploads).toHaveLength(1);
  });
});

describe("service text on a terminal", () => {
  const evil = "Evil\u001b]0;owned\u0007 \u001b[2J\u009b31m title";
  const page = {
    status: 200,
    body: {
      simulations: [{ id: "sim-x", title: evil, type: "audio", duration: "5 min", description: "line\u0000one\rtwo", tags: [] }],
    },
  };

  it.each([["table"], ["json"], ["ndjson"], ["csv"]])(
    "-o %s on a terminal stdout shows control characters escaped",
    async (format) => {
      t.sandbox.faults.respondNext(LIBRARY, 1, page);
      const r = await t.capture(["library", "--user", "user-demo", "-o", format], TERMINAL);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(visible(r.stdout)).not.toMatch(RAW_CONTROL);
      expect(r.stdout).toContain("\\u001b]0;owned\\u0007");
      // A table shortens the title to its column; the other formats carry it whole.
      if (format !== "table") expect(r.stdout).toContain("\\u009b31m");
    },
  );

  it.each([
    ["json (its default)", []],
    ["table", ["-o", "table"]],
    ["text", ["--query", "simulations[].title", "-o", "text"]],
  ])("`api` on a terminal stdout, %s, shows control characters escaped", async (_name, flags) => {
    t.sandbox.faults.respondNext(LIBRARY, 1, page);
    const body = '{"organizationId":"org-demo","userId":"user-demo"}';
    const r = await t.capture(["api", LIBRARY, "--data", body, ...flags], TERMINAL);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(visible(r.stdout)).not.toMatch(RAW_CONTROL);
    // The escape is shown (a table may wrap the title inside its long first word).
    expect(r.stdout).toContain("\\u001b]0;");
  });

  it("an error message from the service reaches stderr escaped", async () => {
    t.sandbox.faults.respondNext(LIBRARY, 1, {
      status: 404,
      body: { error: { message: `no user \u001b[2J\u001b]0;x\u0007here` } },
    });
    const r = await t.capture(["library", "--user", "user-demo"], TERMINAL);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain("\\u001b[2J");
  });

  it("an error after printed service text reaches stderr escaped", async () => {
    // A service that ignores `page` (the error names nothing of the service's, but the
    // simulations it repeats are printed): nothing raw on either stream.
    t.sandbox.faults.respondNext(LIBRARY, 2, { status: 200, body: { simulations: Array(100).fill(page.body.simulations[0]) } });
    const r = await t.capture(["library", "--user", "user-demo", "--all", "--page-size", "100"], TERMINAL);
    expect(r.exitCode, r.stderr).toBe(8); // completeness cannot be known (docs/sandbox-dialects.md)
    expect(visible(r.stderr)).toMatch(/error: .*page 2 repeated page 1/);
    expect(visible(r.stdout)).not.toMatch(RAW_CONTROL);
    expect(visible(r.stderr)).not.toMatch(RAW_CONTROL);
  });

  it("the same bytes reach a file or a pipe unchanged (escaping is for terminals only)", async () => {
    t.sandbox.faults.respondNext(LIBRARY, 1, page);
    const r = await t.capture(["library", "--user", "user-demo", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { title: string }[])[0]?.title).toBe(evil);
  });
});
