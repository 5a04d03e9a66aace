import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/program.js";
import { runCli } from "../helpers/in-process.js";

// Every command the program declares (walked, so a new command is covered without touching
// this file) must explain itself: description, flags and at least one example.

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

interface Declared {
  path: string[];
  description: string;
  flags: string[];
}

function declaredCommands(): Declared[] {
  const program = createProgram(async () => {}, "0.0.0");
  const walk = (command: Command, path: string[]): Declared[] =>
    command.commands.flatMap((sub) => {
      const subPath = [...path, sub.name()];
      const flags = sub.options.map((option) => option.long ?? option.short ?? "");
      return [{ path: subPath, description: sub.description(), flags }, ...walk(sub, subPath)];
    });
  return walk(program, []);
}

/** Help text wraps at the terminal width; compare with whitespace collapsed. */
const squash = (text: string): string => text.replace(/\s+/g, " ");

describe("help", () => {
  it.each(declaredCommands().map((command) => ({ ...command, name: command.path.join(" ") })))(
    "`$name --help` shows its description, flags and examples",
    async ({ path, description, flags }) => {
      const result = await runCli([...path, "--help"]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toBe("");
      expect(description.length).toBeGreaterThan(0);
      expect(squash(result.stdout)).toContain(squash(description));
      expect(result.stdout).toContain(`Usage: simadmin ${path.join(" ")}`);
      for (const flag of flags) expect(result.stdout).toContain(flag);
      expect(result.stdout).toMatch(/\nExamples:\n {2}\$ .*simadmin /);
    },
  );

  // Issue 26 item 6: what a person meets at 80 columns.
  it.each([{ columns: 80 }, { columns: 200 }])(
    "every help is at most 80 columns wide, its own options and examples first ($columns-column terminal)",
    async ({ columns }) => {
      const helps = [[], ...declaredCommands().map((c) => c.path)].map((path) => [...path, "--help"]);
      helps.push(...[["options"], ["environment"], ["exit-codes"]].map((topic) => ["help", ...topic]));
      for (const argv of helps) {
        const result = await runCli(argv, { stdoutIsTTY: true, columns });
        expect(result.exitCode, argv.join(" ")).toBe(0);
        const wide = result.stdout.split("\n").filter((line) => line.length > 80);
        expect(wide, argv.join(" ")).toEqual([]);
        if (argv[0] === "help" || argv.length === 1) continue;
        // No global option in a command's help: one line points to `simadmin help options`.
        expect(result.stdout, argv.join(" ")).not.toContain("--retries");
        expect(result.stdout, argv.join(" ")).toMatch(/Global options \(.*\):\n {2}simadmin help options\n$/);
        expect(result.stdout.indexOf("Examples:")).toBeLessThan(result.stdout.indexOf("Global options"));
      }
    },
  );

  it("a long example breaks with a `\\` continuation that a shell still reads as one command", async () => {
    const result = await runCli(["api", "--help"]);
    const example = /\n {2}\$ (echo .*?)\n\n/s.exec(result.stdout)?.[1];
    expect(example).toContain(" \\\n");
    expect(example!.replace(/ \\\n +/g, " ")).toBe(
      `echo '{"organizationId":"org-42","taskId":"t-1"}' | simadmin api /v2/access-api/user/bulk-import/status --input -`,
    );
  });

  it("`simadmin help options` lists every global option with its environment variable", async () => {
    const result = await runCli(["help", "options"]);
    expect(result.exitCode).toBe(0);
    for (const flag of [
      "--profile <name>",
      "--base-url <url>",
      "-o, --output <format>",
      "--out <path>",
      "--sandbox",
      "-q, --quiet",
    ])
      expect(result.stdout).toContain(flag);
    expect(result.stdout).toContain("SIMADMIN_BASE_URL");
    expect(result.stdout).toContain("Precedence: flag > environment > profile setting > built-in default.");
  });

  it("`simadmin help environment` names every variable, the keychain switch and the rate store included", async () => {
    const result = await runCli(["help", "environment"]);
    expect(result.exitCode).toBe(0);
    const names = [...squash(result.stdout).matchAll(/\b(SIMADMIN_[A-Z_]+|[A-Z_]+_PROXY|NO_COLOR|NODE_EXTRA_CA_CERTS)\b/g)].map(
      (m) => m[1],
    );
    expect(new Set(names)).toEqual(
      new Set([
        "SIMADMIN_API_KEY",
        "SIMADMIN_PROFILE",
        "SIMADMIN_BASE_URL",
        "SIMADMIN_ORG",
        "SIMADMIN_API_VERSION",
        "SIMADMIN_CONFIG_DIR",
        "SIMADMIN_KEYCHAIN",
        "SIMADMIN_RATE_LIMITS",
        "SIMADMIN_RATE_STORE",
        "SIMADMIN_LINKS_URL",
        "SIMADMIN_SMTP_URL",
        "SIMADMIN_LINKS_KEY",
        "SIMADMIN_STATE",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "ALL_PROXY",
        "NO_PROXY",
        "NODE_EXTRA_CA_CERTS",
        "NO_COLOR",
      ]),
    );
    expect(squash(result.stdout)).toMatch(/SIMADMIN_KEYCHAIN off: never use the OS keychain/);
    expect(squash(result.stdout)).toMatch(/SIMADMIN_RATE_STORE where concurrent runs share their rate budget/);
  });

  it.each([{ argv: ["--help"] }, { argv: ["help", "exit-codes"] }])(
    "`simadmin $argv` has the exit-code table, 11 and 12 included",
    async ({ argv }) => {
      const result = await runCli(argv);
      expect(result.exitCode).toBe(0);
      const codes = [...result.stdout.matchAll(/^ {2}(\d+) +\S/gm)].map((m) => Number(m[1]));
      expect(codes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 130]);
      expect(squash(result.stdout)).toContain("11 local file error: a file could not be read or written");
      expect(squash(result.stdout)).toContain("12 users sync --plan: changes are pending");
    },
  );

  it("`simadmin --help` lists every command, the exit codes and the environment", async () => {
    const result = await runCli(["--help"]);
    expect(result.exitCode).toBe(0);
    for (const { path } of declaredCommands().filter((c) => c.path.length === 1)) {
      expect(result.stdout).toMatch(new RegExp(`\\n {2}${path[0]}\\b`));
    }
    expect(result.stdout).toContain("Exit codes:");
    expect(result.stdout).toMatch(/ 130 +interrupted/);
    expect(result.stdout).toContain("SIMADMIN_API_KEY");
    expect(result.stdout).toContain("SIMADMIN_KEYCHAIN");
    expect(result.stdout).toContain("SIMADMIN_RATE_STORE");
    expect(result.stdout).toContain("simadmin help options");
    expect(result.stdout).not.toContain("--retries");
    expect(result.stdout).toContain("Examples:");
  });

  it.each([
    { args: ["help", "reports"], usage: "Usage: simadmin reports" },
    { args: ["help", "users"], usage: "Usage: simadmin users" },
    { args: ["users", "help", "import"], usage: "Usage: simadmin users import" },
    { args: ["help", "auth", "login"], usage: "Usage: simadmin auth login" },
    { args: ["help", "users", "import"], usage: "Usage: simadmin users import" },
  ])("`simadmin $args` prints that command's help", async ({ args, usage }) => {
    const result = await runCli(args);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(usage);
    expect(result.stdout).toContain("Examples:");
  });

  it("--version prints package.json's version", async () => {
    const result = await runCli(["--version"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe(packageJson.version);
  });
});

describe("usage errors", () => {
  it("suggests the closest command for a typo, with exit 2", async () => {
    const result = await runCli(["libary", "--user", "user-demo"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command 'libary'");
    expect(result.stderr).toContain("Did you mean library?");
    expect(result.stdout).toBe("");
  });

  it("suggests the closest subcommand for a typo in a nested command", async () => {
    const result = await runCli(["auth", "stauts"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("Did you mean status?");
  });

  it.each([
    { args: ["library", "--user", "user-demo", "--bogus"], message: "unknown option '--bogus'" },
    { args: ["library", "--user", "user-demo", "--al"], message: "Did you mean --all?" },
    { args: ["library"], message: "required option '--user <id>' not specified" },
    { args: ["reports"], message: "missing required argument 'kind'" },
    {
      args: ["-o", "xml", "library", "--user", "user-demo"],
      message: "Allowed choices are table, json, csv, ndjson, xlsx, text",
    },
  ])("`simadmin $args` is a usage error (exit 2): $message", async ({ args, message }) => {
    const result = await runCli(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
  });
});
