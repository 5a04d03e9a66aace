import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LocalFileError } from "../../src/errors.js";
import { ANNOTATION_CAP, CiReport, escapeData, escapeProperty, escapeXml } from "../../src/output/ci-report.js";
import { tempDir } from "../helpers/cli.js";

// What a run tells its CI system (docs/cli-contract.md "CI and cron", docs/ci-and-cron.md),
// driven directly with an injected clock, an env object and real files. Through commands:
// test/cli/ci-cron.test.ts.

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir("simadmin-ci-report-");
});
afterEach(async () => {
  await dir.remove();
});

const T0 = Date.UTC(2026, 10, 21, 8, 30, 0, 250);

/** How a run ended; every non-zero code here is a failure (exit 12's is not: below). */
const end = (exitCode: number, message: string | undefined) => ({ exitCode, message, failed: exitCode !== 0 });

function report(env: Record<string, string>, junit?: string, title?: string) {
  let t = T0;
  const lines: string[] = [];
  const ci = new CiReport(
    env,
    (line) => lines.push(line),
    junit,
    () => t,
    title,
  );
  return {
    ci,
    lines,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe("escaping", () => {
  it("escapes a workflow command's message as GitHub's toolkit does", () => {
    expect(escapeData("50% done\r\nnext: a,b")).toBe("50%25 done%0D%0Anext: a,b");
  });

  it("escapes a property value, where : and , separate properties", () => {
    expect(escapeProperty("C:\\a,b\n%")).toBe("C%3A\\a%2Cb%0A%25");
  });

  it("escapes XML text and attributes, replacing what XML 1.0 cannot hold", () => {
    expect(escapeXml(`a&b <c> "d" 'e'\r\n\tf\u0001g\uFFFEh😀`)).toBe(
      "a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;&#13;&#10;&#9;f\uFFFDg\uFFFDh😀",
    );
  });
});

describe("annotations under GitHub Actions", () => {
  it("one ::error per rejected row at its file and line, on the write channel", async () => {
    const { ci, lines } = report({ GITHUB_ACTIONS: "true" });
    ci.reject({ file: "staff.csv", row: 4, line: 5, message: "email: not an address\nsee row" });
    ci.reject({ file: "a,b:c.csv", row: 7, line: 9, message: "100% wrong" });
    expect(await ci.finish(end(6, "2 rows rejected"))).toEqual([]);
    expect(lines).toEqual([
      "::error file=staff.csv,line=5,title=row 4 rejected::row 4: email: not an address%0Asee row",
      "::error file=a%2Cb%3Ac.csv,line=9,title=row 7 rejected::row 7: 100%25 wrong",
    ]);
  });

  it(`annotates the first ${ANNOTATION_CAP} rows, then one notice with the total and the errors file`, async () => {
    const { ci, lines } = report({ GITHUB_ACTIONS: "true" });
    for (let row = 2; row <= 13; row++) ci.reject({ file: "s.csv", row, line: row, message: "bad" });
    ci.setErrorsFile("s.errors.csv");
    await ci.finish(end(6, undefined));
    expect(lines).toHaveLength(11);
    expect(lines[9]).toBe("::error file=s.csv,line=11,title=row 11 rejected::row 11: bad");
    expect(lines[10]).toBe("::notice title=simadmin::12 rows were rejected; the first 10 are annotated; all are in s.errors.csv");
  });

  it("exactly ten rows: no notice; eleven without an errors file: a notice without one", async () => {
    const ten = report({ GITHUB_ACTIONS: "true" });
    for (let row = 2; row <= 11; row++) ten.ci.reject({ file: "s.csv", row, line: row, message: "bad" });
    await ten.ci.finish(end(6, undefined));
    expect(ten.lines).toHaveLength(10);
    const eleven = report({ GITHUB_ACTIONS: "true" });
    for (let row = 2; row <= 12; row++) eleven.ci.reject({ file: "s.csv", row, line: row, message: "bad" });
    await eleven.ci.finish(end(6, undefined));
    expect(eleven.lines.at(-1)).toBe("::notice title=simadmin::11 rows were rejected; the first 10 are annotated");
  });

  it("outside GitHub Actions (or GITHUB_ACTIONS not exactly true) nothing is annotated", async () => {
    for (const env of [{}, { GITHUB_ACTIONS: "1" }] as Record<string, string>[]) {
      const { ci, lines } = report(env);
      ci.reject({ file: "s.csv", row: 2, line: 2, message: "bad" });
      await ci.finish(end(6, undefined));
      expect(lines).toEqual([]);
    }
  });

  it("paths are relative to GITHUB_WORKSPACE when inside it, absolute when outside", async () => {
    const { ci, lines } = report({ GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: join(dir.path, "ws") });
    ci.reject({ file: join(dir.path, "ws", "data", "s.csv"), row: 2, line: 2, message: "bad" });
    ci.reject({ file: join(dir.path, "other.csv"), row: 3, line: 3, message: "bad" });
    ci.reject({ file: "/elsewhere/x.csv", row: 4, line: 4, message: "bad" });
    await ci.finish(end(6, undefined));
    expect(lines.map((l) => /file=([^,]*)/.exec(l)?.[1])).toEqual([
      "data/s.csv",
      escapeProperty(join(dir.path, "other.csv")),
      "/elsewhere/x.csv",
    ]);
  });

  it("finds the physical line of a row in the file (a quoted cell spanning lines), in the file's encoding", async () => {
    const file = join(dir.path, "staff.csv");
    // Row 2 spans lines 2-3; row 3 starts on line 4. Written in windows-1252 (é is one byte).
    await writeFile(file, Buffer.from('name,note\nAnn,"two\nlines"\nRen\xe9,x\nBo,y\n', "latin1"));
    const { ci, lines } = report({ GITHUB_ACTIONS: "true" });
    ci.source(file, "windows-1252");
    ci.reject({ file, row: 3, message: "bad" });
    ci.reject({ file, row: 4, message: "also bad" });
    ci.reject({ file, row: 2, line: 99, message: "given" });
    await ci.finish(end(6, undefined));
    expect(lines.map((l) => /line=(\d+)/.exec(l)?.[1])).toEqual(["4", "5", "99"]);
  });

  it("rows keep their row numbers when the file cannot be read again (or is not decodable, or is a workbook)", async () => {
    const latin = join(dir.path, "latin.csv");
    await writeFile(latin, Buffer.from('name,note\nAnn,"two\nlines"\nRen\xe9,x\n', "latin1"));
    const book = join(dir.path, "book.XLSX");
    await writeFile(book, 'name\n"a\nb"\nc\n');
    const { ci, lines } = report({ GITHUB_ACTIONS: "true" });
    ci.reject({ file: join(dir.path, "gone.csv"), row: 3, message: "bad" });
    ci.reject({ file: latin, row: 3, message: "bad" });
    ci.reject({ file: book, row: 3, message: "bad" });
    await ci.finish(end(6, undefined));
    expect(lines.map((l) => /line=(\d+)/.exec(l)?.[1])).toEqual(["3", "3", "3"]);
  });
});

describe("the step summary", () => {
  it("appends a Markdown summary of a run that recorded something", async () => {
    const summary = join(dir.path, "summary.md");
    await writeFile(summary, "before\n");
    const { ci } = report({ GITHUB_STEP_SUMMARY: summary }, undefined, "users import staff|x.csv");
    ci.fact("Rows", "12");
    ci.fact("Sent <b>", "a & b");
    ci.fact("Rows", "120 (117 valid, 3 invalid)");
    ci.setErrorsFile("staff.errors.csv");
    ci.testCase({ name: "batch 1", file: "staff.csv" });
    ci.testCase({ name: "batch 2", failure: "rate | limited\nagain" });
    ci.testCase({ name: "row 5" });
    ci.reject({ file: "staff.csv", row: 4, line: 5, message: "email `x`" });
    ci.reject({ file: "staff.csv", row: 6, message: "name" });
    expect(await ci.finish(end(6, "3 rows were\nrejected"))).toEqual([]);
    expect(await readFile(summary, "utf8")).toBe(
      [
        "before",
        "### `simadmin users import staff\\|x.csv`",
        "",
        "| | |",
        "|---|---|",
        "| Result | ❌ failed (exit 6): 3 rows were rejected |",
        "| Rows | 120 (117 valid, 3 invalid) |",
        "| Sent \\<b\\> | a \\& b |",
        "| Errors file | `staff.errors.csv` |",
        "",
        "| Batch | Outcome |",
        "|---|---|",
        "| batch 1 | ok |",
        "| batch 2 | rate \\| limited again |",
        "",
        "**Rejected rows: 2**",
        "",
        "| File | Row | Line | Problem |",
        "|---|---|---|---|",
        "| `staff.csv` | 4 | 5 | email \\`x\\` |",
        "| `staff.csv` | 6 |  | name |",
        "",
        "",
      ].join("\n"),
    );
  });

  it("a success says so; a failure without a message shows the exit code alone", async () => {
    const summary = join(dir.path, "summary.md");
    const ok = report({ GITHUB_STEP_SUMMARY: summary });
    ok.ci.fact("Rows", "3");
    await ok.ci.finish(end(0, "ignored"));
    const failed = report({ GITHUB_STEP_SUMMARY: summary });
    failed.ci.fact("Rows", "3");
    await failed.ci.finish(end(8, undefined));
    expect(await readFile(summary, "utf8")).toBe(
      [
        "### `simadmin simadmin`",
        "",
        "| | |",
        "|---|---|",
        "| Result | ✅ succeeded |",
        "| Rows | 3 |",
        "",
        "### `simadmin simadmin`",
        "",
        "| | |",
        "|---|---|",
        "| Result | ❌ failed (exit 8) |",
        "| Rows | 3 |",
        "",
        "",
      ].join("\n"),
    );
  });

  it("shows 50 batches and 20 rejected rows at most, saying how many more", async () => {
    const summary = join(dir.path, "summary.md");
    const { ci } = report({ GITHUB_STEP_SUMMARY: summary });
    for (let i = 1; i <= 52; i++) ci.testCase({ name: `batch ${i}` });
    for (let row = 2; row <= 22; row++) ci.reject({ file: "s.csv", row, line: row, message: "bad" });
    await ci.finish(end(6, undefined));
    const text = await readFile(summary, "utf8");
    expect(text).toContain("| batch 50 | ok |\n| … | 2 more |\n\n**Rejected rows: 21** (the first 20)\n");
    expect(text).not.toContain("| batch 51 |");
    expect(text).toContain("| `s.csv` | 21 | 21 | bad |\n\n");
    expect(text).not.toContain("| `s.csv` | 22 |");
  });

  it("exactly 50 batches and 20 rows: no 'more' line, no 'first'", async () => {
    const summary = join(dir.path, "summary.md");
    const { ci } = report({ GITHUB_STEP_SUMMARY: summary });
    for (let i = 1; i <= 50; i++) ci.testCase({ name: `batch ${i}` });
    for (let row = 2; row <= 21; row++) ci.reject({ file: "s.csv", row, line: row, message: "bad" });
    await ci.finish(end(6, undefined));
    const text = await readFile(summary, "utf8");
    expect(text).toContain("| batch 50 | ok |\n\n**Rejected rows: 20**\n");
  });

  it("writes nothing for a run that recorded nothing, or without GITHUB_STEP_SUMMARY", async () => {
    const summary = join(dir.path, "summary.md");
    await writeFile(summary, "");
    const idle = report({ GITHUB_STEP_SUMMARY: summary });
    idle.ci.setErrorsFile("e.csv");
    idle.ci.source("x.csv");
    await idle.ci.finish(end(0, undefined));
    expect(await readFile(summary, "utf8")).toBe("");
    const noSummary = report({ GITHUB_STEP_SUMMARY: "" });
    noSummary.ci.fact("Rows", "1");
    expect(await noSummary.ci.finish(end(0, undefined))).toEqual([]);
  });

  it("a summary that cannot be appended is a warning; the run's outcome stands", async () => {
    const { ci } = report({ GITHUB_STEP_SUMMARY: join(dir.path, "missing", "summary.md") });
    ci.fact("Rows", "1");
    expect(await ci.finish(end(0, undefined))).toEqual(["could not append the run summary to $GITHUB_STEP_SUMMARY (ENOENT)"]);
  });
});

describe("the JUnit report", () => {
  it("one test case per batch and rejected row, timed by the injected clock", async () => {
    const junit = join(dir.path, "junit.xml");
    const { ci, advance } = report({}, junit, "users import <staff>.csv");
    ci.testCase({ name: "batch 1", file: "staff.csv", line: 2 });
    ci.testCase({ name: "batch 2", file: "staff.csv" });
    ci.testCase({ name: "batch 3" });
    ci.reject({ file: "staff.csv", row: 4, line: 5, message: 'email "x" & y' });
    ci.reject({ file: "staff.csv", row: 6, message: "name" });
    advance(1_234);
    await ci.finish(end(6, "rows rejected"));
    expect(await readFile(junit, "utf8")).toBe(
      [
        `<?xml version="1.0" encoding="UTF-8"?>`,
        `<testsuites name="simadmin" tests="5" failures="2" errors="0" skipped="0" time="1.234">`,
        `  <testsuite name="simadmin users import &lt;staff&gt;.csv" tests="5" failures="2" errors="0" skipped="0" time="1.234" timestamp="2026-11-21T08:30:00">`,
        `    <testcase classname="simadmin users import &lt;staff&gt;.csv" name="batch 1" file="staff.csv" line="2" time="0"/>`,
        `    <testcase classname="simadmin users import &lt;staff&gt;.csv" name="batch 2" file="staff.csv" time="0"/>`,
        `    <testcase classname="simadmin users import &lt;staff&gt;.csv" name="batch 3" time="0"/>`,
        `    <testcase classname="simadmin users import &lt;staff&gt;.csv" name="staff.csv row 4" file="staff.csv" line="5" time="0">`,
        `      <failure message="email &quot;x&quot; &amp; y" type="rejected">email &quot;x&quot; &amp; y</failure>`,
        `    </testcase>`,
        `    <testcase classname="simadmin users import &lt;staff&gt;.csv" name="staff.csv row 6" file="staff.csv" line="6" time="0">`,
        `      <failure message="name" type="rejected">name</failure>`,
        `    </testcase>`,
        `  </testsuite>`,
        `</testsuites>`,
        ``,
      ].join("\n"),
    );
  });

  it("a rejected row's line is looked up in the file for JUnit too, outside GitHub Actions", async () => {
    const junit = join(dir.path, "junit.xml");
    const file = join(dir.path, "s.csv");
    await writeFile(file, 'name\n"a\nb"\nc\n');
    const { ci, lines } = report({}, junit);
    ci.reject({ file, row: 3, message: "bad" });
    await ci.finish(end(6, undefined));
    expect(await readFile(junit, "utf8")).toContain(`name="${file} row 3" file="${file}" line="4" time="0">`);
    expect(lines).toEqual([]);
  });

  it.each([
    [
      "a run that recorded nothing and succeeded: one passing case",
      0,
      undefined,
      [],
      `    <testcase classname="simadmin simadmin" name="simadmin" time="0"/>`,
    ],
    [
      "a run that could not do its work (rate limit, exit 7) before its rows: one <error> case with its message",
      7,
      "rate limited",
      [{ name: "batch 1" }],
      `    <testcase classname="simadmin simadmin" name="simadmin" time="0">\n      <error message="rate limited" type="exit 7">rate limited</error>`,
    ],
    [
      "a network failure without a message (exit 8): an <error> with the exit code",
      8,
      undefined,
      [],
      `    <testcase classname="simadmin simadmin" name="simadmin" time="0">\n      <error message="exit 8" type="exit 8">exit 8</error>`,
    ],
    [
      "invalid data before its rows (exit 6): a <failure>",
      6,
      "bad rows",
      [],
      `    <testcase classname="simadmin simadmin" name="simadmin" time="0">\n      <failure message="bad rows" type="rejected">bad rows</failure>`,
    ],
  ])("%s", async (_name, exitCode, message, cases, expected) => {
    const junit = join(dir.path, "junit.xml");
    const { ci } = report({}, junit);
    for (const c of cases) ci.testCase(c);
    await ci.finish(end(exitCode, message));
    const text = await readFile(junit, "utf8");
    expect(text).toContain(expected);
    const counts = {
      0: `tests="1" failures="0" errors="0"`,
      6: `tests="1" failures="1" errors="0"`,
      7: `tests="2" failures="0" errors="1"`,
      8: `tests="1" failures="0" errors="1"`,
    }[exitCode];
    expect(text).toContain(`<testsuites name="simadmin" ${counts} skipped="0" time="0.000">`);
  });

  it("a failed run whose cases already hold a failure gets no extra case", async () => {
    const junit = join(dir.path, "junit.xml");
    const { ci } = report({}, junit);
    ci.testCase({ name: "batch 1", failure: "refused" });
    await ci.finish(end(6, "failed"));
    expect(await readFile(junit, "utf8")).toContain(`tests="1" failures="1"`);
  });

  it("a JUnit file that cannot be written is the run's failure (exit 11)", async () => {
    const junit = join(dir.path, "missing", "junit.xml");
    const { ci } = report({}, junit);
    const error = await ci.finish(end(0, undefined)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).message).toBe(
      `cannot write ${junit}: the directory ${join(dir.path, "missing")} does not exist (ENOENT)`,
    );
  });
});

describe("an exit code that is an answer, not a failure (exit 12, changes pending)", () => {
  const pending = { exitCode: 12, message: "3 changes to send", failed: false };

  it("is a passing case in the JUnit report", async () => {
    const junit = join(dir.path, "junit.xml");
    const { ci } = report({}, junit);
    await ci.finish(pending);
    const text = await readFile(junit, "utf8");
    expect(text).toContain(`<testsuites name="simadmin" tests="1" failures="0" errors="0" skipped="0" time="0.000">`);
    expect(text).toContain(`    <testcase classname="simadmin simadmin" name="simadmin" time="0"/>`);
    expect(text).not.toContain("<failure");
  });

  it("is not 'failed' in the step summary", async () => {
    const summary = join(dir.path, "summary.md");
    const { ci } = report({ GITHUB_STEP_SUMMARY: summary });
    ci.fact("Rows", "3");
    await ci.finish(pending);
    expect(await readFile(summary, "utf8")).toContain("| Result | ✅ exit 12: 3 changes to send |");
  });
});
