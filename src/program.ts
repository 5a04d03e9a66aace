import { Command, Option } from "commander";
import { globalFlags, PROGRAM_DESCRIPTION, VERSION_FLAG } from "./commands/global-flags.js";
import { DECLARATIONS } from "./commands/registry.js";
import type { CommandDeclaration, Declaration, FlagDeclaration } from "./commands/types.js";
import {
  ENVIRONMENT,
  EXIT_CODES,
  GLOBAL_OPTIONS_POINTER,
  HELP_WIDTH,
  PRECEDENCE,
  twoColumns,
  wrapExample,
  wrapText,
} from "./help.js";

// The commander program, built from the command declarations (src/commands/<name>/command.ts,
// listed in src/commands/registry.ts). Declarations are plain data and each command's
// module is imported only when it runs, so `simadmin --help` loads commander and nothing
// else (docs/architecture.md, Start-up).

/** Provided by main.ts: runs a declared command (src/runner.ts) once commander has parsed it. */
export type Runner = (declaration: CommandDeclaration, command: Command) => Promise<void>;

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => wrapExample(line, HELP_WIDTH)).join("\n")}\n`;
}

/** The table at the end of `simadmin --help` (also `simadmin help exit-codes`). */
const EXIT_CODES_HELP = `\nExit codes:\n${twoColumns(
  EXIT_CODES.map(([code, meaning]) => [String(code), meaning] as const),
  HELP_WIDTH,
)}\n`;

const ENVIRONMENT_HELP = wrapText(
  `Environment: ${ENVIRONMENT.map(([name]) => name).join(", ")} (simadmin help environment). ${PRECEDENCE}`,
  HELP_WIDTH,
);

function option(flag: FlagDeclaration, hidden = false, checkedByRunner = false): Option {
  const built = new Option(flag.flags, flag.description);
  if (hidden) built.hideHelp();
  if (flag.choices) built.choices(flag.choices);
  if (flag.repeatable) built.argParser(collect);
  // Commander checks the mandatory options of every command above the one it runs, and gives a
  // flag both declare to the outer one: `progress notify --from-csv f` would fail on either
  // side. The runner checks those (runner.ts, requireFlags).
  if (flag.required && !checkedByRunner) built.makeOptionMandatory();
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
  if (declaration.kind === "group") return `${examples(declaration.examples)}\n${GLOBAL_OPTIONS_POINTER}`;
  const help = declaration.help ? `\n${wrapText(declaration.help, HELP_WIDTH)}\n` : "";
  return `${help}${supportsText(declaration)}${examples(declaration.examples)}\n${GLOBAL_OPTIONS_POINTER}`;
}

/** "-o, --output <format>" → ["-o", "--output"]. */
function flagNames(flags: string): string[] {
  return flags.split(/[ ,|]+/).filter((word) => word.startsWith("-"));
}

/**
 * The command argv names, read the way commander reads it: "reports", "auth login", "auth",
 * or "" for the program itself (`simadmin --help`, `simadmin`, and anything after a help flag
 * that comes before the command). The root's own options (global flags, --version) and the
 * values of those that take one are skipped, and `help <command>` names <command> (only the
 * first word: commander's help command shows `help auth login` as the help of `auth`).
 * Undefined whenever it is not certain — any other option before the command, `--`, a word
 * that is no command — and then the whole program is built, as commander would see it.
 */
export function namedCommand(argv: readonly string[]): string | undefined {
  const withValue = new Set<string>();
  const bare = new Set<string>(flagNames(VERSION_FLAG.flags));
  for (const flag of globalFlags(DECLARATIONS))
    for (const name of flagNames(flag.flags)) (/[<[]/.test(flag.flags) ? withValue : bare).add(name);

  // A group, or a command with subcommands (`reports <kind>` beside `reports sync`).
  const isGroup = (name: string | undefined): boolean =>
    DECLARATIONS.some((d) => d.name === name && (d.kind === "group" || DECLARATIONS.some((s) => s.name.startsWith(`${name} `))));
  const words: string[] = [];
  // A command's own flags follow it: read on only after `help`, a group, or a group's `help`.
  const readOn = (): boolean =>
    words.length === 0 ||
    (words.length === 1 && (words[0] === "help" || isGroup(words[0]))) ||
    (words.length === 2 && isGroup(words[0]) && words[1] === "help");
  for (let i = 0; i < argv.length && readOn(); i++) {
    const arg = argv[i]!;
    if (arg === "--") return undefined;
    if (arg.length > 1 && arg.startsWith("-")) {
      // Commander takes every later word as the help flag's: the help of what came before.
      if (arg === "-h" || arg === "--help") break;
      if (bare.has(arg)) continue;
      if (withValue.has(arg)) {
        i++;
        continue;
      }
      // --org=x, -ocsv: the value is in the same word.
      const name = arg.startsWith("--") ? arg.split("=")[0]! : arg.slice(0, 2);
      if (name !== arg && withValue.has(name)) continue;
      return undefined;
    }
    words.push(arg);
  }
  if (words[0] === "help") words.shift();
  // `auth help login`: the group's own help command, showing `auth login`.
  else if (words[1] === "help") words.splice(1, 1);
  const [first, second] = words;
  const declared = (name: string): boolean => DECLARATIONS.some((d) => d.name === name);
  if (first === undefined) return "";
  if (!declared(first)) return undefined;
  return second !== undefined && declared(`${first} ${second}`) ? `${first} ${second}` : first;
}

/**
 * The commander program. Given the command argv names (namedCommand), it builds only what
 * that run can reach: the named command whole, the groups above it, and — for the help of
 * the program or of a group, which lists them — the commands one level below, with what
 * that list shows of them: name, description, arguments and one flag (commander writes
 * "[options]" after a command that has any). Building all twenty-four commands with their
 * flags and help texts cost more than anything else `simadmin --help` or `simadmin token`
 * did before its real work (docs/architecture.md, Start-up). Without `named`, every command is whole.
 */
export function createProgram(runner: Runner, version: string, named?: string): Command {
  const program = new Command("simadmin");
  // Only main.ts ends the process: commander throws instead of exiting (inherited by every
  // command declared below).
  program.exitOverride();
  program
    .description(PROGRAM_DESCRIPTION)
    .version(version, VERSION_FLAG.flags, VERSION_FLAG.description)
    .showSuggestionAfterError(true)
    .showHelpAfterError("(run with --help for usage)");
  // Global options work before or after the subcommand, but their ~30 lines of help are the
  // topic `simadmin help options` (main.ts): a command's help shows its own options and
  // examples, then one line pointing there.
  for (const flag of globalFlags(DECLARATIONS)) program.addOption(option(flag, true));
  program.addHelpText(
    "after",
    `\n${GLOBAL_OPTIONS_POINTER}\nHelp topics: simadmin help options | environment | exit-codes\n${EXIT_CODES_HELP}\n${ENVIRONMENT_HELP}\n${examples(["simadmin --sandbox library --user user-demo", "simadmin reports users --month 2026-10 -o csv --out users.csv"])}`,
  );

  const commands = new Map<string, Command>([["", program]]);
  for (const declaration of DECLARATIONS) {
    const words = declaration.name.split(" ");
    const parentName = words.slice(0, -1).join(" ");
    const whole = named === undefined || named === declaration.name || named.startsWith(`${declaration.name} `);
    if (!whole && parentName !== named) continue;
    const parent = commands.get(parentName);
    if (!parent) throw new Error(`${declaration.name}: its group must be declared before it`);
    const command = parent.command(words[words.length - 1]!).description(declaration.description);
    commands.set(declaration.name, command);
    if (declaration.kind === "command") {
      for (const arg of declaration.args ?? [])
        command.argument(arg.many ? `[${arg.name}...]` : `<${arg.name}>`, arg.description);
      const flags = declaration.flags ?? [];
      const hasSubcommands = DECLARATIONS.some((d) => d.name.startsWith(`${declaration.name} `));
      // A flag the command above also declares is read by that one (commander), whichever it follows.
      const outer = DECLARATIONS.find((d) => d.name === parentName);
      const outerFlags = new Set(outer?.kind === "command" ? (outer.flags ?? []).map((f) => f.flags) : []);
      for (const flag of whole ? flags : flags.slice(0, 1))
        command.addOption(option(flag, false, hasSubcommands || outerFlags.has(flag.flags)));
      command.action(
        whole
          ? async function (this: Command): Promise<void> {
              await runner(declaration, this);
            }
          : () => {
              // Never reached while namedCommand agrees with commander (test/unit/program.test.ts).
              throw new Error(`${declaration.name} was dispatched but built for help only`);
            },
      );
    }
    if (whole) command.addHelpText("after", helpText(declaration));
  }
  return program;
}
