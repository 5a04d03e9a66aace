// @ts-nocheck
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { startTestEnv, tempDir, terminalStdin, ROOMY, type TestEnv } from "../helpers/in-process.js";

// Issue 15 item 5: every `simadmin …` line in the README's code blocks (sh, crontab, yaml) runs
// against the sandbox, in the README's order, as a user who exported what `simadmin sandbox`
// prints (SIMADMIN_BASE_URL, SIMADMIN_API_KEY, SIMADMIN_ORG) and works in a directory of
// their own. Placeholders become sandbox ids (u-123 → user-demo, org-42 → org-demo, task ids →
// the tasks the import example made). No example may exit 1 (a bug) or 2 (the README shows a
// command that is wrong). Time is a fake clock shared with the sandbox, so `--wait` examples
// finish at once.

const README = resolve(import.meta.dirname, "../../README.md");
const SAMPLE = resolve(import.meta.dirname, "../../fixtures/users-import-sample.csv");

interface Example {
  line: string;
  /** A recipe (crontab, CI yaml) starts in a fresh checkout; sh examples share one directory. */
  fresh: boolean;
  argv: string[];
  /** What a pipe into simadmin gives it on stdin. */
  input?: string;
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
};

function examples(readme: string, lastMonth: string): Example[] {
  const found: Example[] = [];
  for (const [, lang, body] of readme.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
    if (!["sh", "crontab", "yaml"].includes(lang ?? "")) continue;
    for (const line of (body ?? "").split("\n")) {
      if (line.trim().startsWith("#")) continue;
      const text = line.replace(/"\$\(date -u -d 'last month' \+\\%Y-\\%m\)"/, lastMonth);
      const match = /(^|[\s(|])(?:npx\s+)?simadmin\s/.exec(text);
      if (!match) continue;
      const argv = shellWords(text.slice(match.index + match[0].length)).map((w) => PLACEHOLDERS[w] ?? w);
      const piped = /printf '%s' "\$(\w+)" \| /.exec(text);
      found.push({
        line: line.trim(),
        fresh: lang !== "sh",
        argv,
        ...(piped ? { input: "sk_sandbox_full_0000000000demo" } : {}),
      });
    }
  }
  return found;
}

describe("every simadmin example in README.md", () => {
  let t: TestEnv;
  let work: { path: string; remove(): Promise<void> };
  let list: Example[];
  const clock = createFakeClock(Date.UTC(2026, 10, 23, 12));

  beforeAll(async () => {
    t = await startTestEnv({ ...ROOMY, now: () => clock.now(), attemptCompletesAfterMs: 45_000 });
    work = await tempDir("simadmin-readme-");
    await copyFile(SAMPLE, join(work.path, "staff.csv"));
    await mkdir(join(work.path, "srv-exports"));
    list = examples(await readFile(README, "utf8"), "2026-10");
  });
  afterAll(async () => {
    await t?.close();
    await work?.remove();
  });

  it("finds the examples (a README rewrite must not silently drop this test's subject)", () => {
    expect(list.length).toBeGreaterThan(50);
    expect(list.map((e) => e.line)).toContain("simadmin --profile staging auth logout");
  });

  it("runs each one in order; none exits 1 or 2", async () => {
    const outcomes: string[] = [];
    let checkouts = 0;
    for (const example of list) {
      let argv = example.argv.map((word) => (word === "/srv/exports" ? "srv-exports" : word));
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
      let cwd = work.path;
      if (example.fresh) {
        cwd = join(work.path, `checkout-${++checkouts}`);
        await mkdir(join(cwd, "srv-exports"), { recursive: true });
        await copyFile(SAMPLE, join(cwd, "staff.csv"));
      }
      const controller = new AbortController();
      if (foreground) setTimeout(() => controller.abort(), 300);
      const result = await t.capture(argv, {
        cwd,
        clock,
        ...(stdin ? { stdin, stderrIsTTY: true } : {}),
        signal: controller.signal,
        env: { XDG_CACHE_HOME: join(work.path, "cache"), HOME: work.path },
        ...(example.input === undefined ? {} : { input: example.input }),
      });
      outcomes.push(
        `${result.exitCode}  ${example.line}${result.exitCode === 0 ? "" : `\n     ${result.stderr.trim().split("\n").join("\n     ")}`}`,
      );
    }
    if (process.env.SHOW_README_OUTCOMES) console.log(outcomes.join("\n"));
    const bad = outcomes.filter((o) => /^[12] /.test(o));
    expect(bad, outcomes.join("\n")).toEqual([]);
  });
});
