import type { ValueSource } from "../types.js";
import { allCommands, flagNames, type CommandSpec } from "./command-tree.js";

// The lookup functions bash and zsh scripts share, written as shell `case` tables: which flags
// take a value, the values a flag or a positional argument offers, words by command path.

/** Shell-safe single-quoted word for bash and zsh. */
export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The flags that take a value, as "path|flag" case patterns (shared by bash and zsh). */
export function takesValueCase(root: CommandSpec, fn: string): string {
  const global = root.flags.filter((f) => f.takesValue).flatMap(flagNames);
  const lines = [`${fn}() {`, `  case "$2" in`, `    ${global.join("|")}) return 0 ;;`, "  esac", `  case "$1|$2" in`];
  for (const command of allCommands(root)) {
    if (command.path === "") continue;
    const own = command.flags.filter((f) => f.takesValue).flatMap(flagNames);
    if (own.length > 0) lines.push(`    ${own.map((name) => sq(`${command.path}|${name}`)).join("|")}) return 0 ;;`);
  }
  lines.push("  esac", "  return 1", "}");
  return lines.join("\n");
}

/** Words a value source offers, or a marker the script turns into file/dir completion. */
function valueWords(source: ValueSource): string {
  switch (source.kind) {
    case "words":
      return source.words.join(" ");
    case "files":
      return "@files";
    case "dirs":
      return "@dirs";
    case "none":
      return "";
  }
}

/** The flags that offer values, by flag name (the same everywhere in simadmin). */
export function flagValuesCase(root: CommandSpec, fn: string): string {
  const byWords = new Map<string, string[]>();
  for (const command of allCommands(root)) {
    for (const flag of command.flags) {
      const offered = valueWords(flag.values);
      if (offered === "") continue;
      const names = byWords.get(offered) ?? [];
      for (const name of flagNames(flag)) if (!names.includes(name)) names.push(name);
      byWords.set(offered, names);
    }
  }
  const lines = [`${fn}() {`, `  case "$1" in`];
  for (const [offered, names] of byWords) lines.push(`    ${names.join("|")}) echo ${sq(offered)} ;;`);
  lines.push("  esac", "}");
  return lines.join("\n");
}

/** Positional values by "path:index". */
export function argValuesCase(root: CommandSpec, fn: string): string {
  const lines = [`${fn}() {`, `  case "$1:$2" in`];
  for (const command of allCommands(root)) {
    command.args.forEach((source, index) => {
      const offered = valueWords(source);
      if (offered !== "") lines.push(`    ${sq(`${command.path}:${index}`)}) echo ${sq(offered)} ;;`);
    });
  }
  lines.push("  esac", "}");
  return lines.join("\n");
}

/** Subcommand names and flag names by command path (the bash script's tables). */
export function wordsByPathCase(root: CommandSpec, fn: string, pick: (command: CommandSpec) => string[]): string {
  const lines = [`${fn}() {`, `  case "$1" in`];
  for (const command of allCommands(root)) {
    const list = pick(command);
    if (list.length > 0) lines.push(`    ${sq(command.path)}) echo ${sq(list.join(" "))} ;;`);
  }
  lines.push("  esac", "}");
  return lines.join("\n");
}
