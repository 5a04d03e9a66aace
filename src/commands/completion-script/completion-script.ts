import { Option } from "commander";
import { UsageError } from "../../errors.js";
import type { ValueSource } from "../types.js";
import type { CommandSpec, FlagSpec } from "./command-tree.js";
import { completionScript, SHELLS, type Shell } from "./shell-completion.js";
import { globalFlags, PROGRAM_DESCRIPTION, VERSION_FLAG } from "../global-flags.js";
import { NoOptions } from "../shared/flags.js";
import { defineRun, type Declaration, type FlagDeclaration } from "../types.js";

// `simadmin completion-script bash|zsh|fish`. The command tree, every flag and the values
// worth completing come from the command declarations — the same ones program.ts builds
// commander from — so the scripts cannot drift from what the CLI accepts;
// shell-completion.ts (beside this file) writes them as text.

const NONE: ValueSource = { kind: "none" };

function flagSpec(declared: FlagDeclaration): FlagSpec {
  // Commander's own parser of "-o, --output <format>", so short/long/value read alike.
  const option = new Option(declared.flags, declared.description);
  const takesValue = Boolean(option.required || option.optional);
  const values: ValueSource = !takesValue
    ? NONE
    : declared.choices
      ? { kind: "words", words: declared.choices }
      : (declared.values ?? NONE);
  return { short: option.short, long: option.long, description: declared.description, takesValue, values };
}

// Commander adds these outside the declarations; they are real.
const HELP_FLAG: FlagSpec = {
  short: "-h",
  long: "--help",
  description: "display help for command",
  takesValue: false,
  values: NONE,
};

/** The command tree: global flags on the root, command flags below, groups holding their subcommands. */
export function describeProgram(declarations: readonly Declaration[]): CommandSpec {
  const root: CommandSpec = {
    path: "",
    name: "simadmin",
    description: PROGRAM_DESCRIPTION,
    flags: [...[VERSION_FLAG, ...globalFlags(declarations)].map(flagSpec), HELP_FLAG],
    subcommands: [],
    args: [],
  };
  const byPath = new Map<string, CommandSpec>([["", root]]);
  for (const declaration of declarations) {
    const words = declaration.name.split(" ");
    const parent = byPath.get(words.slice(0, -1).join(" "));
    if (!parent) throw new Error(`${declaration.name}: its group is declared after it`);
    const spec: CommandSpec = {
      path: declaration.name,
      name: words[words.length - 1] ?? declaration.name,
      description: declaration.description,
      flags: [...(declaration.kind === "command" ? (declaration.flags ?? []).map(flagSpec) : []), HELP_FLAG],
      subcommands: [],
      args: declaration.kind === "command" ? (declaration.args ?? []).map((arg) => arg.values ?? NONE) : [],
    };
    // A command under a command (`reports sync` beside `reports <kind>`) is a subcommand like
    // any other, with its own flags only; the scripts offer it beside the command's first
    // argument, and take it as the subcommand only in that place (shell-completion.ts).
    parent.subcommands.push(spec);
    byPath.set(declaration.name, spec);
  }
  root.subcommands.push({
    path: "help",
    name: "help",
    description: "display help for a command",
    flags: [HELP_FLAG],
    subcommands: [],
    args: [{ kind: "words", words: [...root.subcommands.map((c) => c.name), "help"] }],
  });
  return root;
}

function isShell(value: unknown): value is Shell {
  return typeof value === "string" && (SHELLS as readonly string[]).includes(value);
}

export const run = defineRun(NoOptions, async ({ args, declarations }) => {
  const shell = args[0];
  if (!isShell(shell)) {
    throw new UsageError(`unknown shell '${shell ?? ""}'; completion scripts exist for ${SHELLS.join(", ")}`);
  }
  const script = completionScript(shell, describeProgram(declarations));
  return { kind: "object", value: { shell, script }, text: script };
});
