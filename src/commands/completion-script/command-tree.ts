// The command tree the completion scripts are written from (built from the declarations by
// completion-script.ts), and the walks over it that every shell's script needs.

import type { ValueSource } from "../types.js";

export interface FlagSpec {
  short: string | undefined;
  long: string | undefined;
  description: string;
  takesValue: boolean;
  values: ValueSource;
}

export interface CommandSpec {
  /** Words from the program name to this command, e.g. "users import"; "" is the program. */
  path: string;
  name: string;
  description: string;
  flags: FlagSpec[];
  subcommands: CommandSpec[];
  /** One entry per positional argument, in order. */
  args: ValueSource[];
}

export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}

export function flagNames(flag: FlagSpec): string[] {
  return [flag.short, flag.long].filter((name): name is string => name !== undefined);
}

/** Global flags plus the command's own; the root's own flags are the global ones. */
export function flagsOf(root: CommandSpec, command: CommandSpec): FlagSpec[] {
  if (command === root) return root.flags;
  const seen = new Set<string>();
  const result: FlagSpec[] = [];
  for (const flag of [...command.flags, ...root.flags]) {
    const key = flag.long ?? flag.short ?? "";
    if (key === "--version" || key === "-V") continue; // only the program has --version
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(flag);
  }
  return result;
}
