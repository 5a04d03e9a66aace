import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { startTestEnv, tempDir, terminalStdin, ROOMY, type TestEnv } from "../helpers/in-process.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

// Issue 15 item 5: every `simadmin …` line in the README's code blocks (sh, crontab, yaml) runs
// against the sandbox, in the README's order, as a user who exported what `simadmin sandbox`
// prints (SIMADMIN_BASE_URL, SIMADMIN_API_KEY, SIMADMIN_ORG) and works in a directory of
// their own. Placeholders become sandbox ids (u-123 → user-demo, org-42 → org-demo, task ids →
// the tasks the import example made; a cron line's /usr/local/bin/simadmin is simadmin). Each
// must exit 0, or the code its line documents in a trailing `# exit N` comment (issue 26:
// the README shows only what works). Time is a fake clock shared with the sandbox, so
// `--wait` examples finish at once.

const ROOT = resolve(import.meta.dirname, "../..");
// The README, then the hand-written pages whose prose and examples moved out of it (issue 26).
const PAGES = [
  "README.md",
  ...[
    "configuration",
    "report-exports",
    "access",
    "users-csv",
    "sandbox",
    "raw-api",
    "output",
    "rate-limits",
    "proxies",
    "shell-completion",
  ].map((page) => `docs/${page}.md`),
];
const SAMPLE = resolve(import.meta.dirname, "../../fixtures/users-import-sample.csv");

interface Example {
  /** The page it is on: each page's sh examples share a directory of their own. */
  page: string;
  line: string;
  /** A recipe (crontab, CI yaml) starts in a fresh checkout; sh examples share one directory. */
  fresh: boolean;
  argv: string[];
  /** What a pipe into simadmin gives it on stdin. */
  input?: string;
  /** The exit code the README documents for it (`# exit 6`), else 0. */
  exitCode: number;
}

/** Shell words of `text` up to the first unquoted ), |, >, ;, & or comment. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) word = (word ?? "") + text[++i];
      else word = (word ?? "") + c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
      continue;
    }
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    if (")|>;&".includes(c) || (c === "#" && word === undefined)) break;
    word = (word ?? "") + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

const PLACEHOLDERS: Record<string, string> = {
  "u-123": "user-demo",
  "org-42": "org-demo",
  $user: "user-demo",
  $sim: "sim-001",
  // The CI recipe's `$resume`: empty on a fresh runner (no manifest in the cache yet).
  $resume: "",
};

function examples(page: string, readme: string, lastMonth: string): Example[] {
  const found: Example[] = [];
  for (const [, lang, body] of readme.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
    if (!["sh", "crontab", "yaml"].includes(lang ?? "")) continue;
    for (const line of (body ?? "").split("\n")) {
      if (line.trim().startsWith("#")) continue;
      const text = line.replace(/"\$\(date -u -d 'last month' \+\\%Y-\\%m\)"/, lastMonth);
      const match = /(^|[\s(|])(?:npx\s+)?(?:\/\S*\/)?simadmin\s/.exec(text);
      if (!match) continue;
      const argv = shellWords(text.slice(match.index + match[0].length))
        .map((w) => PLACEHOLDERS[w] ?? w.replace(/\borg-42\b/g, "org-demo").replace(/\bu-123\b/g, "user-demo"))
        .filter((w) => w !== "");
      const documented = /#\s*exit (\d+)\b/.exec(text.slice(match.index));
      const piped = /printf '%s' "\$(\w+)" \| /.exec(text);
      found.push({
        page,
        line: line.trim(),
        fresh: lang !== "sh",
        argv,
        exitCode: documented ? Number(documented[1]) : 0,
        ...(piped ? { input: "sk_sandbox_full_0000000000demo" } : {}),
      });
    }
  }
  return found;
}

/**
 * What a reader has at hand where an example runs: the sample users CSV as staff.csv (its Add
 * rows with emails of this directory, since the sandbox keeps the people earlier examples
 * added), the fixtures, a cohort of the seed's pairs, a report range and an export directory.
 */
async function workingDirectory(dir: string, name: string): Promise<void> {
  await mkdir(join(dir, "fixtures"), { recursive: true });
  await mkdir(join(dir, "srv-exports"));
  const sample = await readFile(SAMPLE, "utf8");
  await writeFile(
    join(dir, "staff.csv"),
    sample.replace(
      /^(.*),([^,@]+)@example\.com,\2@example\.com,(.*,Add)$/gm,
      `$1,$2+${name}@example.com,$2+${name}@example.com,$3`,
    ),
  );
  await copyFile(SAMPLE, join(dir, "fixtures", "users-import-sample.csv"));
  await writeFile(join(dir, "cohort.csv"), "userId,simulationId\nuser-demo,sim-001\nuser-demo,sim-002\n");
  // The reminders recipe's assignments: pairs due on the fake clock's day, with addresses.
  await writeFile(
    join(dir, "assignments.csv"),
    "userId,simulationId,dueDate,email,managerEmail\nuser-emma,sim-004,2026-11-23,emma@example.com,dana@example.com\n",
  );
  await writeFile(join(dir, "range.json"), '{"startDate":"2026-10-01","endDate":"2026-10-30"}\n');
}

describe("every simadmin example in README.md and the docs/ pages moved out of it", () => {
  let t: TestEnv;
  let work: { path: string; remove(): Promise<void> };
  let list: Example[];
  let smtp: TestSmtp;
  const clock = createFakeClock(Date.UTC(2026, 10, 23, 12));

  beforeAll(async () => {
    t = await startTestEnv({ ...ROOMY, now: () => clock.now(), attemptCompletesAfterMs: 45_000, scriptedAttemptStepMs: 30_000 });
    smtp = await startTestSmtp();
    work = await tempDir("simadmin-readme-");
    list = [];
    for (const page of PAGES) list.push(...examples(page, await readFile(join(ROOT, page), "utf8"), "2026-10"));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await work?.remove();
  });

  it("finds the examples (a README rewrite must not silently drop this test's subject)", () => {
    expect(list.length).toBeGreaterThan(20);
    const lines = list.map((e) => e.line);
    expect(lines).toContain("npx simadmin --sandbox library --user user-demo");
    // The recipes: cron (a full path) and CI (a yaml block).
    expect(lines.some((line) => line.includes("* * /usr/local/bin/simadmin --profile prod reports all"))).toBe(true);
    expect(lines).toContain("- run: simadmin users import staff.csv --dry-run");
  });

  it("runs each one in order; each exits 0, or the code its line documents", async () => {
    const outcomes: string[] = [];
    let checkouts = 0;
    for (const example of list) {
      // The recipes' server paths are in the working directory.
      const paths: Record<string, string> = {
        "/srv/exports": "srv-exports",
        "/srv/lms/assignments.csv": "assignments.csv",
        "/srv/lms/reminders-last.csv": "reminders-last.csv",
      };
      let argv = example.argv.map((word) => paths[word] ?? word);
      // Task ids in the examples stand for the ones the import example made.
      const tasks = t.sandbox.state.listTasks("org-demo").map((task) => task.taskId);
      const taskFor: Record<string, string | undefined> = { "task-abc123": tasks[0], t1: tasks[0], t2: tasks.at(-1) };
      argv = argv.map((word) => taskFor[word] ?? word);
      // The foreground sandbox runs until Ctrl-C: give it one on a free port once it listens.
      const foreground = argv[0] === "sandbox" && !argv.includes("--reset");
      if (foreground) argv = argv.map((word) => (word === "8787" ? "0" : word));
      // `auth login` without --with-key asks for the key on the terminal: type it.
      const stdin = argv.includes("login") && !argv.includes("--with-key") ? terminalStdin() : undefined;
      stdin?.write("sk_sandbox_full_0000000000demo\n");
      const name = example.fresh ? `checkout-${++checkouts}` : example.page.replace(/\W/g, "-");
      const cwd = join(work.path, name);
      if (!existsSync(cwd)) await workingDirectory(cwd, name);
      const controller = new AbortController();
      if (foreground) setTimeout(() => controller.abort(), 300);
      const result = await t.capture(argv, {
        cwd,
        clock,
        ...(stdin ? { stdin, stderrIsTTY: true } : {}),
        signal: controller.signal,
        // The reminders recipe's relay: a real SMTP server on loopback (test/helpers/smtp.ts).
        env: {
          XDG_CACHE_HOME: join(work.path, "cache"),
          HOME: work.path,
          SIMADMIN_SMTP_URL: smtp.url,
          NODE_EXTRA_CA_CERTS: smtp.caFile,
        },
        ...(example.input === undefined ? {} : { input: example.input }),
      });
      const ok = result.exitCode === example.exitCode;
      outcomes.push(
        `${ok ? "ok " : "BAD"} ${result.exitCode}  ${example.line}${ok ? "" : `\n     ${result.stderr.trim().split("\n").join("\n     ")}`}`,
      );
    }
    if (process.env.SHOW_README_OUTCOMES) console.log(outcomes.join("\n"));
    const bad = outcomes.filter((o) => o.startsWith("BAD"));
    expect(bad, outcomes.join("\n")).toEqual([]);
  });
});
