import { Option } from "commander";
import { UsageError } from "../../errors.js";
import {
  completionScript,
  SHELLS,
  type CommandSpec,
  type FlagSpec,
  type Shell,
  type ValueSource,
} from "../../domain/shell-completion.js";
import { DECLARATIONS, globalFlags, PROGRAM_DESCRIPTION, VERSION_FLAG } from "../registry.js";
import { NoOptions } from "../shared/flags.js";
import { defineRun, type FlagDeclaration } from "../types.js";

// `simadmin completion-script bash|zsh|fish`. The command tree, every flag and the values
// worth completing come from the command declarations — the same ones program.ts builds
// commander from — so the scripts cannot drift from what the CLI accepts;
// domain/shell-completion.ts writes them as text.

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
export function describeProgram(): CommandSpec {
  const root: CommandSpec = {
    path: "",
    name: "simadmin",
    description: PROGRAM_DESCRIPTION,
    flags: [...[VERSION_FLAG, ...globalFlags()].map(flagSpec), HELP_FLAG],
    subcommands: [],
    args: [],
  };
  const byPath = new Map<string, CommandSpec>([["", root]]);
  for (const declaration of DECLARATIONS) {
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
    const parentDeclaration = DECLARATIONS.find((d) => d.name === parent.path);
    if (parentDeclaration?.kind === "command" && parent.args.length > 0) {
      // A command under a command (`reports sync` beside `reports <kind>`): the scripts know
      // a word as either a subcommand or an argument, so it is offered as one more word of the
      // argument, and its flags are offered with the command's.
      const first = parent.args[0];
      parent.args[0] = { kind: "words", words: [...(first?.kind === "words" ? first.words : []), spec.name] };
      const known = new Set(parent.flags.map((f) => f.long));
      parent.flags.push(...spec.flags.filter((f) => !known.has(f.long)));
      continue;
    }
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

export const run = defineRun(NoOptions, async ({ args }) => {
  const shell = args[0];
  if (!isShell(shell)) {
    throw new UsageError(`unknown shell '${shell ?? ""}'; completion scripts exist for ${SHELLS.join(", ")}`);
  }
  const script = completionScript(shell, describeProgram());
  return { kind: "object", value: { shell, script }, text: script, defaultText: true };
});
