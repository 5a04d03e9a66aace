import { Command, Option } from "commander";
import { DECLARATIONS, globalFlags, PROGRAM_DESCRIPTION, VERSION_FLAG } from "./commands/registry.js";
import type { CommandDeclaration, Declaration, FlagDeclaration } from "./commands/types.js";

// The commander program, built from the command declarations (src/commands/<name>/command.ts,
// listed in src/commands/registry.ts). Declarations are plain data and each command's
// module is imported only when it runs, so `simadmin --help` loads commander and nothing
// else (README, Start-up).

/** Provided by main.ts: runs a declared command (src/runner.ts) once commander has parsed it. */
export type Runner = (declaration: CommandDeclaration, command: Command) => Promise<void>;

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`;
}

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    unexpected internal error (a bug: please report it)
  2    usage: unknown command or flag, bad argument or date, command not in this API version
  3    authentication: no API key, or the service answered 401
  4    permission: the service answered 403
  5    not found: the service answered 404
  6    invalid data: local CSV validation failed, or the service answered 400
  7    rate limited: 429 still returned after the retries
  8    service unavailable: 5xx, timeout or network failure after the retries
  9    a --wait ran out of time
  10   a bulk import task ended FAILED
  130  interrupted (Ctrl-C)
`;

function option(flag: FlagDeclaration): Option {
  const built = new Option(flag.flags, flag.description);
  if (flag.choices) built.choices(flag.choices);
  if (flag.repeatable) built.argParser(collect);
  if (flag.required) built.makeOptionMandatory();
  return built;
}

/** What a command supports, in its help: the API versions and -o formats its declaration gives. */
function supportsText(declaration: CommandDeclaration): string {
  const lines: string[] = [];
  if (declaration.api !== "local") lines.push(`API version: ${declaration.api.join(", ")}`);
  if (declaration.outputs !== "none") lines.push(`Output (-o): ${declaration.outputs.join(", ")}`);
  return lines.length > 0 ? `\n${lines.join("\n")}\n` : "";
}

function helpText(declaration: Declaration): string {
  if (declaration.kind === "group") return examples(declaration.examples);
  const help = declaration.help ? `\n${declaration.help}\n` : "";
  return `${help}${supportsText(declaration)}${examples(declaration.examples)}`;
}

export function createProgram(runner: Runner, version: string): Command {
  const program = new Command("simadmin");
  // Only main.ts ends the process: commander throws instead of exiting (inherited by every
  // command declared below).
  program.exitOverride();
  program
    .description(PROGRAM_DESCRIPTION)
    .version(version, VERSION_FLAG.flags, VERSION_FLAG.description)
    .showSuggestionAfterError(true)
    .showHelpAfterError("(run with --help for usage)")
    // Global options work after the subcommand too, so each command's help lists them (gh's
    // "inherited flags"). Set before the commands are declared: they copy it.
    .configureHelp({ showGlobalOptions: true });
  for (const flag of globalFlags()) program.addOption(option(flag));
  program.addHelpText(
    "after",
    `${EXIT_CODES_HELP}\nEnvironment: SIMADMIN_API_KEY, SIMADMIN_PROFILE, SIMADMIN_BASE_URL, SIMADMIN_ORG, SIMADMIN_API_VERSION,\n  SIMADMIN_CONFIG_DIR, SIMADMIN_RATE_LIMITS, NO_COLOR. Precedence: flag > environment > profile > default.\n${examples(["simadmin --sandbox library --user user-demo", "simadmin reports users --month 2026-10 -o csv --out users.csv"])}`,
  );

  const commands = new Map<string, Command>([["", program]]);
  for (const declaration of DECLARATIONS) {
    const words = declaration.name.split(" ");
    const parent = commands.get(words.slice(0, -1).join(" "));
    if (!parent) throw new Error(`${declaration.name}: its group must be declared before it`);
    const command = parent.command(words[words.length - 1]!).description(declaration.description);
    if (declaration.kind === "command") {
      for (const arg of declaration.args ?? []) command.argument(`<${arg.name}>`, arg.description);
      for (const flag of declaration.flags ?? []) command.addOption(option(flag));
      command.action(async function (this: Command): Promise<void> {
        await runner(declaration, this);
      });
    }
    command.addHelpText("after", helpText(declaration));
    commands.set(declaration.name, command);
  }
  return program;
}
