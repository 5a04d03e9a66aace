import type { Command, Option } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import type { CommandResult } from "../../output/render.js";
import { createProgram, type CommandOptions } from "../../program.js";
import { REPORT_KINDS } from "../../domain/report-kinds.js";
import { SETTING_KEY_NAMES } from "../../settings/schema.js";
import {
  completionScript,
  SHELLS,
  type CommandSpec,
  type FlagSpec,
  type Shell,
  type ValueSource,
} from "../../domain/shell-completion.js";

// `simadmin completion-script bash|zsh|fish`. The command tree and every flag come from the
// commander program itself (the same createProgram main.ts uses), so the scripts cannot
// drift from what the CLI accepts; domain/shell-completion.ts writes them as text.

const NONE: ValueSource = { kind: "none" };
const words = (list: readonly string[]): ValueSource => ({ kind: "words", words: list });

/**
 * Positional values commander does not know as choices (their validation lives in the
 * commands), keyed by "<command path>:<argument name>".
 */
function argumentValues(topLevel: readonly string[]): Record<string, ValueSource> {
  const settingKeys = words(SETTING_KEY_NAMES);
  return {
    "reports:kind": words([...REPORT_KINDS, "all"]),
    "config get:key": settingKeys,
    "config set:key": settingKeys,
    "config unset:key": settingKeys,
    "users import:file": { kind: "files" },
    "completion-script:shell": words(SHELLS),
    "help:command": words(topLevel),
  };
}

function flagValues(option: Option): ValueSource {
  if (!(option.required || option.optional)) return NONE;
  if (option.argChoices) return words(option.argChoices);
  if (option.long === "--out") return { kind: "files" };
  if (option.long === "--out-dir") return { kind: "dirs" };
  return NONE;
}

function flagSpec(option: Option): FlagSpec {
  return {
    short: option.short,
    long: option.long,
    description: option.description,
    takesValue: Boolean(option.required || option.optional),
    values: flagValues(option),
  };
}

// Commander adds these lazily (help) or outside `.options` (the help flag); they are real.
const HELP_FLAG: FlagSpec = {
  short: "-h",
  long: "--help",
  description: "display help for command",
  takesValue: false,
  values: NONE,
};

/** The command tree of the real program: global flags on the root, command flags below. */
export function describeProgram(): CommandSpec {
  const program = createProgram(async () => {}, "0.0.0");
  const topLevel = [...program.commands.map((c) => c.name()), "help"];
  const argValues = argumentValues(topLevel);

  const walk = (command: Command, path: string): CommandSpec => ({
    path,
    name: command.name(),
    description: command.description(),
    flags: [...command.options.map(flagSpec), HELP_FLAG],
    subcommands: command.commands.map((sub) => walk(sub, path ? `${path} ${sub.name()}` : sub.name())),
    args: command.registeredArguments.map((arg) => argValues[`${path}:${arg.name()}`] ?? NONE),
  });

  const root = walk(program, "");
  root.subcommands.push({
    path: "help",
    name: "help",
    description: "display help for a command",
    flags: [HELP_FLAG],
    subcommands: [],
    args: [argValues["help:command"] ?? NONE],
  });
  return root;
}

function isShell(value: unknown): value is Shell {
  return typeof value === "string" && (SHELLS as readonly string[]).includes(value);
}

export async function runCompletionScript(_ctx: Context, _options: CommandOptions, args: string[]): Promise<CommandResult> {
  const shell = args[0];
  if (!isShell(shell)) {
    throw new UsageError(`unknown shell '${shell ?? ""}'; completion scripts exist for ${SHELLS.join(", ")}`);
  }
  const script = completionScript(shell, describeProgram());
  return { kind: "object", value: { shell, script }, text: script, defaultText: true };
}
