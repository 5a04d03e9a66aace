import { CommanderError, type Command } from "commander";
import { describe, expect, it } from "vitest";
import { DECLARATIONS } from "../../src/commands/registry.js";
import { createProgram, namedCommand } from "../../src/program.js";

// main.ts builds only the part of the commander program that argv can reach (namedCommand →
// createProgram(…, named)): start-up (README, Start-up). That is only right if commander
// then does exactly what it does with the whole program. Each argv below runs through both
// programs, and everything observable must be the same: what is printed on either stream,
// how parsing ends, and which command runs with which options and arguments.

interface Outcome {
  stdout: string;
  stderr: string;
  end: string;
  ran?: { name: string; args: string[]; options: Record<string, unknown> };
}

async function parse(argv: string[], named: string | undefined): Promise<Outcome> {
  const outcome: Outcome = { stdout: "", stderr: "", end: "ok" };
  const program = createProgram(
    async (declaration, command) => {
      outcome.ran = { name: declaration.name, args: command.args, options: command.optsWithGlobals() };
    },
    "9.9.9",
    named,
  );
  const configure = (command: Command): void => {
    command.configureOutput({
      writeOut: (text) => (outcome.stdout += text),
      writeErr: (text) => (outcome.stderr += text),
      getOutHelpWidth: () => 80,
      getErrHelpWidth: () => 80,
    });
    command.commands.forEach(configure);
  };
  configure(program);
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    outcome.end = error instanceof CommanderError ? `${error.code} ${error.exitCode}` : String(error);
  }
  return outcome;
}

const names = DECLARATIONS.map((d) => d.name.split(" "));
const argvs: string[][] = [
  [],
  ["--help"],
  ["-h"],
  ["help"],
  ["--version"],
  ["-V"],
  ["-q"],
  ["--org", "x"],
  ["nope"],
  ["help", "nope"],
  ["repots", "users"],
  ["--bogus"],
  ["--", "token", "--user", "u"],
  ["-qo", "json", "token", "--user", "u"],
  ["-ojson", "token", "--user", "u"],
  ["--org=reports", "library", "--user", "u"],
  ["--org", "reports", "library", "--user", "u"],
  ["--help", "token"],
  ["-q", "--help", "auth", "login"],
  ["--user", "u", "token"],
  ["auth", "--org", "x", "login", "--help"],
  ["auth", "-q", "status"],
  ["auth", "logn"],
  ["auth", "--bogus", "login"],
  ["users", "import"],
  ["token", "--user", "u", "-o", "text", "--verbose"],
  ["token", "--user"],
  ["token", "extra"],
  ["reports", "users", "--month", "2026-10", "--fields", "a,b", "--sandbox"],
  ["reports", "sync", "--db", "r.duckdb", "--kinds", "users", "--dry-run"],
  ["reports", "-q", "sync", "--db", "r.duckdb"],
  ["reports", "sync", "--help"],
  ["reports", "--help"],
  ["reports", "sync"],
  ["config", "set", "output", "json"],
  ["-"],
  ["help", "auth"],
  ["help", "--bogus"],
  ["help", "--help"],
  ["help", "-h", "token"],
  ["auth", "help", "--help"],
  ["auth", "--help", "login"],
  ["auth", "help"],
  ["auth", "help", "login"],
  ["users", "--help", "import"],
  ["--sandbox", "help", "token"],
  ...names,
  ...names.map((path) => [...path, "--help"]),
  ...names.map((path) => ["help", ...path]),
  ...names.map((path) => [...path, "--no-such-flag"]),
  ...names.map((path) => ["--api-version", "1", ...path, "-q"]),
];

describe("the program built for one command", () => {
  it.each(argvs.map((argv) => ({ argv, label: JSON.stringify(argv) })))(
    "behaves as the whole program for $label",
    async ({ argv }) => {
      const named = namedCommand(argv);
      const scoped = await parse(argv, named);
      const whole = await parse(argv, undefined);
      expect(scoped).toEqual(whole);
    },
  );
});

describe("namedCommand", () => {
  it.each([
    [[], ""],
    [["--help"], ""],
    [["help"], ""],
    [["--help", "token"], ""],
    [["token", "--user", "u"], "token"],
    [["--org", "library", "token"], "token"],
    [["--org=x", "-ojson", "token"], "token"],
    [["auth", "login", "--with-key"], "auth login"],
    [["auth", "-v", "login"], "auth login"],
    [["auth", "nope"], "auth"],
    // commander shows the group (main.ts turns this into `auth login --help` first).
    [["help", "auth", "login"], "auth"],
    [["reports", "users"], "reports"],
    [["reports", "sync", "--db", "x"], "reports sync"],
    [["reports", "-q", "sync"], "reports sync"],
  ])("%j names %j", (argv, named) => {
    expect(namedCommand(argv)).toBe(named);
  });

  it.each([[["--"]], [["--bogus", "token"]], [["-qo", "json", "token"]], [["nope"]], [["--user", "u", "token"]]])(
    "%j is not certain: the whole program is built",
    (argv) => {
      expect(namedCommand(argv)).toBeUndefined();
    },
  );

  it("builds less than the whole program for a named command", () => {
    const count = (command: Command): number => command.commands.reduce((n, c) => n + 1 + count(c), 0);
    const whole = count(createProgram(async () => {}, "0", undefined));
    expect(whole).toBe(DECLARATIONS.length);
    expect(count(createProgram(async () => {}, "0", "token"))).toBe(1);
    expect(count(createProgram(async () => {}, "0", "auth login"))).toBe(2);
    expect(count(createProgram(async () => {}, "0", "auth"))).toBe(
      1 + DECLARATIONS.filter((d) => d.name.startsWith("auth ")).length,
    );
    expect(count(createProgram(async () => {}, "0", ""))).toBe(DECLARATIONS.filter((d) => !d.name.includes(" ")).length);
  });
});
