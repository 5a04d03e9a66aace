// @ts-nocheck
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
      // Global options are accepted after the subcommand, so its help lists them too.
      expect(result.stdout).toContain("--sandbox");
      expect(result.stdout).toMatch(/\nExamples:\n {2}\$ .*simadmin /);
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
