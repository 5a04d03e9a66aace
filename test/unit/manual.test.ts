import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedFiles, roff, slug, staleFiles, topicPages, withManField } from "../../scripts/docs.mjs";
import { globalFlags, PROGRAM_DESCRIPTION } from "../../src/commands/global-flags.js";
import { commandDeclarations, DECLARATIONS } from "../../src/commands/registry.js";
import { ENVIRONMENT, EXIT_CODES, flagText, PRECEDENCE, wrapExample, wrapText } from "../../src/help.js";

// Issue 26 item 4: the command reference (docs/commands/) and the man pages (man/) are
// generated from the declarations by scripts/docs.mjs, like the README's commands table; they
// must be up to date, and every man page must render at 80 columns without a groff warning.

const root = join(import.meta.dirname, "../..");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const files = generatedFiles({
  declarations: DECLARATIONS,
  globalFlags: globalFlags(DECLARATIONS),
  description: PROGRAM_DESCRIPTION,
  version,
  environment: ENVIRONMENT,
  exitCodes: EXIT_CODES,
  precedence: PRECEDENCE,
  flagText,
  wrapExample,
  wrapText,
  topics: topicPages(join(root, "docs")),
});
const manPages = [...files.keys()].filter((path) => path.startsWith("man/"));

const run = promisify(execFile);
// man-db and groff are CI packages (.ci/run installs them and sets CI, under which a missing one
// fails these tests); elsewhere the rendering tests skip.
const hasMan = ["/usr/bin/man", "/usr/bin/groff"].every((path) => existsSync(path)) || process.env.CI !== undefined;
const hasMandoc = existsSync("/usr/bin/mandoc") || process.env.CI !== undefined;

/**
 * The lines of one tool's run over every page that are `path`'s: groff and mandoc name the file
 * of each complaint, so one run checks all the pages (~0.3 s of CPU less than a run each); a
 * line that names no page counts against every page.
 */
function linesOf(output: string, path: string, pages: string[] = manPages): string[] {
  const named = (line: string, page: string) => line.includes(`${join(root, page)}:`);
  return output.split("\n").filter((line) => line !== "" && (named(line, path) || !pages.some((page) => named(line, page))));
}

/** `man -l` at 80 columns with groff's warnings on: what a reader sees, and what groff complained about. */
async function renderMan(path: string): Promise<{ stdout: string; stderr: string }> {
  const { stdout, stderr } = await run("man", ["-l", "--warnings=w,all", path], {
    env: { ...process.env, MANWIDTH: "80", MAN_KEEP_STDERR: "1", MANPAGER: "cat", PAGER: "cat", LANG: "C.UTF-8" },
  });
  return { stdout, stderr };
}

describe("the generated manual", () => {
  it("is up to date with the declarations (regenerate: npm run build && node scripts/docs.mjs --write)", () => {
    for (const [path, text] of files) {
      expect(existsSync(join(root, path)), `${path} is missing`).toBe(true);
      expect(readFileSync(join(root, path), "utf8"), path).toBe(text);
    }
    expect(staleFiles(root, files)).toEqual([]);
    // package.json "man" lists every page, so that `npm install -g` links them into man1.
    const packageJson = readFileSync(join(root, "package.json"), "utf8");
    expect(packageJson).toBe(withManField(packageJson, files));
    expect((JSON.parse(packageJson) as { man: string[] }).man).toContain("./man/simadmin-users-import.1");
  });

  it("has a page and a man page for every command, named after it", () => {
    for (const declaration of commandDeclarations()) {
      expect(files.has(`docs/commands/${slug(declaration.name)}.md`), declaration.name).toBe(true);
      expect(files.has(`man/simadmin-${slug(declaration.name)}.1`), declaration.name).toBe(true);
    }
    expect(files.has("man/simadmin.1")).toBe(true);
    expect(files.get("man/simadmin-users-import.1")).toContain("\\fB\\-\\-retry\\-failed\\fR");
  });

  it("links a command's page to the hand-written pages that cover it", () => {
    const topics = topicPages(join(root, "docs"));
    for (const topic of topics.filter((page) => page.commands.length > 0))
      for (const name of topic.commands) {
        expect(
          DECLARATIONS.map((d) => d.name),
          `${topic.file} names ${name}`,
        ).toContain(name);
        expect(files.get(`docs/commands/${slug(name)}.md`), name).toContain(`(../${topic.file})`);
      }
  });

  it("escapes what roff would read as requests or escapes", () => {
    expect(roff("a\\b --x “q” … ✓")).toBe("a\\eb \\-\\-x \\(lqq\\(rq ... \\[u2713]");
  });
});

describe.skipIf(!hasMan)("every man page, rendered by man -l at 80 columns", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "simadmin-man-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reports groff's warnings (so the check below can fail)", async () => {
    const bad = join(dir, "bad.1");
    await writeFile(bad, ".TH BAD 1\n.SH NAME\nbad \\- a page\n.XX\n");
    expect((await renderMan(bad)).stderr).toMatch(/warning: macro 'XX' not defined/);
  });

  it("groff names the page of each warning (so the check below can tell the pages apart)", async () => {
    const bad = join(dir, "bad.1");
    await writeFile(bad, ".TH BAD 1\n.SH NAME\nbad \\- a page\n.XX\n");
    const { stderr } = await run("groff", ["-man", "-Tascii", "-ww", "-z", join(root, manPages[0]!), bad], {
      env: { ...process.env, LANG: "C", LC_ALL: "C" },
    });
    const both = [manPages[0]!, relative(root, bad)];
    expect(linesOf(stderr, both[1]!, both)).toEqual([`troff: ${bad}:4: warning: macro 'XX' not defined`]);
    expect(linesOf(stderr, both[0]!, both)).toEqual([]);
  });

  let groffSays: Promise<string> | undefined;
  it.each(manPages)("%s: groff -ww under LANG=C (-Tascii) finds every glyph and has no warning", async (path) => {
    groffSays ??= run("groff", ["-man", "-Tascii", "-ww", "-z", ...manPages.map((page) => join(root, page))], {
      env: { ...process.env, LANG: "C", LC_ALL: "C" },
    }).then((result) => result.stderr);
    expect(linesOf(await groffSays, path)).toEqual([]);
  });

  it.concurrent.each(manPages)("%s: no warning, no line wider than 80", async (path) => {
    const { stdout, stderr } = await renderMan(join(root, path));
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^SIMADMIN/);
    expect(stdout.split("\n").filter((line) => line.length > 80)).toEqual([]);
  });
});

describe("every man page, by man-pages(7)'s rules", () => {
  it.each(manPages)("%s: a date in .TH, no Markdown backticks, no docs/ path the package does not ship", (path) => {
    const page = files.get(path) ?? "";
    expect(page).toMatch(/^\.TH \S+ 1 "?\d{4}-\d{2}-\d{2}"? /m);
    expect(page.split("\n").filter((line) => !line.startsWith('.\\"') && line.includes("`"))).toEqual([]);
    expect(page).not.toMatch(/\bdocs\//);
  });

  describe.skipIf(!hasMandoc)("mandoc -Tlint", () => {
    it("reports what it finds (so the check below can fail)", async () => {
      const dir = await mkdtemp(join(tmpdir(), "simadmin-mandoc-"));
      try {
        await writeFile(join(dir, "bad.1"), '.TH BAD 1 ""\n.SH NAME\nbad \\- a page\n.SH DESCRIPTION\n.PP\ntext\n');
        const result = await run("mandoc", ["-Tlint", join(dir, "bad.1")]).catch(
          (error: { stdout: string; stderr: string }) => error,
        );
        expect(`${result.stdout}${result.stderr}`).toMatch(/missing date/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    let mandocSays: Promise<string> | undefined;
    it.each(manPages)("%s: nothing to report, style included", async (path) => {
      mandocSays ??= run("mandoc", ["-Tlint", "-Wall", ...manPages.map((page) => join(root, page))]).then(
        (result) => `${result.stdout}${result.stderr}`,
        (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
      );
      expect(linesOf(await mandocSays, path)).toEqual([]);
    });
  });
});
