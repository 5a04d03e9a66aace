import type { Command, Option } from "commander";
import type { Context } from "../context.js";
import { UsageError } from "../errors.js";
import type { CommandResult } from "../output/render.js";
import { createProgram, REPORT_KIND_NAMES, type CommandOptions } from "../program.js";
import { SETTING_KEY_NAMES } from "../settings/schema.js";

// `simadmin completion-script bash|zsh|fish`. The command tree and every flag come from the
// commander program itself (the same createProgram main.ts uses), so the scripts cannot
// drift from what the CLI accepts. Each script is static text: completing never runs
// simadmin (or Node), which keeps a TAB instant.

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** What may follow a flag or fill a positional argument. */
export type ValueSource = { kind: "words"; words: readonly string[] } | { kind: "files" } | { kind: "dirs" } | { kind: "none" };

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

const NONE: ValueSource = { kind: "none" };
const words = (list: readonly string[]): ValueSource => ({ kind: "words", words: list });

/**
 * Positional values commander does not know as choices (their validation lives in the
 * commands), keyed by "<command path>:<argument name>".
 */
function argumentValues(topLevel: readonly string[]): Record<string, ValueSource> {
  const settingKeys = words(SETTING_KEY_NAMES);
  return {
    "reports:kind": words([...REPORT_KIND_NAMES, "all"]),
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

function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}

function flagNames(flag: FlagSpec): string[] {
  return [flag.short, flag.long].filter((name): name is string => name !== undefined);
}

/** Shell-safe single-quoted word for bash and zsh. */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The flags that take a value, as "path|flag" case patterns (shared by bash and zsh). */
function takesValueCase(root: CommandSpec, fn: string): string {
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
function flagValuesCase(root: CommandSpec, fn: string): string {
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
function argValuesCase(root: CommandSpec, fn: string): string {
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
function wordsByPathCase(root: CommandSpec, fn: string, pick: (command: CommandSpec) => string[]): string {
  const lines = [`${fn}() {`, `  case "$1" in`];
  for (const command of allCommands(root)) {
    const list = pick(command);
    if (list.length > 0) lines.push(`    ${sq(command.path)}) echo ${sq(list.join(" "))} ;;`);
  }
  lines.push("  esac", "}");
  return lines.join("\n");
}

/** Global flags plus the command's own; the root's own flags are the global ones. */
function flagsOf(root: CommandSpec, command: CommandSpec): FlagSpec[] {
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

function bashScript(root: CommandSpec): string {
  return `# bash completion for simadmin, generated by \`simadmin completion-script bash\`.
# Load it in the current shell:   source <(simadmin completion-script bash)
# or install it for every shell:  simadmin completion-script bash > ~/.local/share/bash-completion/completions/simadmin

${wordsByPathCase(root, "__simadmin_subcommands", (c) => c.subcommands.map((s) => s.name))}

${wordsByPathCase(root, "__simadmin_flags", (c) => flagsOf(root, c).flatMap(flagNames))}

${takesValueCase(root, "__simadmin_takes_value")}

${flagValuesCase(root, "__simadmin_flag_values")}

${argValuesCase(root, "__simadmin_arg_values")}

__simadmin_reply() {
  local IFS=$'\\n'
  case "$1" in
    @files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    @dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    *) IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "$1" -- "$2")) ;;
  esac
}

_simadmin() {
  COMPREPLY=()
  local cword=$COMP_CWORD cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmdpath="" npos=0 i w
  # Walk the words before the cursor: flags (and the values they take) are skipped,
  # subcommand names extend the command path, anything else is a positional argument.
  for ((i = 1; i < cword; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ "\${COMP_WORDS[i+1]:-}" == "=" ]]; then
      i=$((i + 2)) # --flag=value, split by COMP_WORDBREAKS
      continue
    fi
    case "$w" in
      --*=*) ;;
      -*) if __simadmin_takes_value "$cmdpath" "$w"; then i=$((i + 1)); fi ;;
      *)
        if [[ " $(__simadmin_subcommands "$cmdpath") " == *" $w "* ]]; then
          cmdpath="\${cmdpath:+$cmdpath }$w"
          npos=0
        else
          npos=$((npos + 1))
        fi
        ;;
    esac
  done
  if ((cword > 0)); then prev="\${COMP_WORDS[cword-1]}"; fi
  if [[ "$cur" == "=" ]]; then
    cur=""
  elif [[ "$prev" == "=" && cword -gt 1 ]]; then
    prev="\${COMP_WORDS[cword-2]}"
  fi
  if [[ "$prev" == -* ]] && __simadmin_takes_value "$cmdpath" "$prev"; then
    __simadmin_reply "$(__simadmin_flag_values "$prev")" "$cur"
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    __simadmin_reply "$(__simadmin_flags "$cmdpath")" "$cur"
    return 0
  fi
  local subcommands
  subcommands="$(__simadmin_subcommands "$cmdpath")"
  if [[ -n "$subcommands" ]]; then
    __simadmin_reply "$subcommands" "$cur"
    return 0
  fi
  __simadmin_reply "$(__simadmin_arg_values "$cmdpath" "$npos")" "$cur"
  return 0
}

complete -F _simadmin simadmin`;
}

/** zsh's _describe entries: "name:description" (colons in the name escaped). */
function describeEntries(entries: { name: string; description: string }[]): string {
  return entries.map((e) => sq(`${e.name.replace(/:/g, "\\:")}:${e.description.replace(/\s+/g, " ")}`)).join(" ");
}

function zshScript(root: CommandSpec): string {
  const described = (fn: string, pick: (command: CommandSpec) => { name: string; description: string }[]): string => {
    const lines = [`${fn}() {`, "  reply=()", `  case "$1" in`];
    for (const command of allCommands(root)) {
      const entries = pick(command);
      if (entries.length > 0) lines.push(`    ${sq(command.path)}) reply=(${describeEntries(entries)}) ;;`);
    }
    lines.push("  esac", "}");
    return lines.join("\n");
  };
  return `#compdef simadmin
# zsh completion for simadmin, generated by \`simadmin completion-script zsh\`.
# Load it in the current shell:  source <(simadmin completion-script zsh)
# or install it: simadmin completion-script zsh > "\${fpath[1]}/_simadmin"   (then restart zsh)

${described("__simadmin_subcommands", (c) => c.subcommands.map((s) => ({ name: s.name, description: s.description })))}

${described("__simadmin_flags", (c) =>
  flagsOf(root, c).flatMap((f) => flagNames(f).map((name) => ({ name, description: f.description }))),
)}

${takesValueCase(root, "__simadmin_takes_value")}

${flagValuesCase(root, "__simadmin_flag_values")}

${argValuesCase(root, "__simadmin_arg_values")}

__simadmin_offer() {
  case "$1" in
    '') return 1 ;;
    @files) _files ;;
    @dirs) _files -/ ;;
    *) compadd -- \${=1} ;;
  esac
}

_simadmin() {
  local cmdpath="" w flag cur="\${words[CURRENT]}"
  local -a reply
  integer i npos=0
  # Walk the words before the cursor: flags (and the values they take) are skipped,
  # subcommand names extend the command path, anything else is a positional argument.
  for (( i = 2; i < CURRENT; i++ )); do
    w="\${words[i]}"
    case "$w" in
      --*=*) ;;
      -*) if __simadmin_takes_value "$cmdpath" "$w"; then i=$(( i + 1 )); fi ;;
      *)
        __simadmin_subcommands "$cmdpath"
        if (( \${reply[(I)$w:*]} )); then
          cmdpath="\${cmdpath:+$cmdpath }$w"
          npos=0
        else
          npos=$(( npos + 1 ))
        fi
        ;;
    esac
  done
  if [[ "$cur" == --*=* ]]; then
    flag="\${cur%%=*}"
    compset -P '*='
    __simadmin_offer "$(__simadmin_flag_values "$flag")"
    return
  fi
  flag="\${words[CURRENT-1]}"
  if (( CURRENT > 2 )) && [[ "$flag" == -* ]] && __simadmin_takes_value "$cmdpath" "$flag"; then
    __simadmin_offer "$(__simadmin_flag_values "$flag")"
    return
  fi
  if [[ "$cur" == -* ]]; then
    __simadmin_flags "$cmdpath"
    _describe -t options 'simadmin option' reply
    return
  fi
  __simadmin_subcommands "$cmdpath"
  if (( \${#reply} )); then
    _describe -t commands 'simadmin command' reply
    return
  fi
  __simadmin_offer "$(__simadmin_arg_values "$cmdpath" "$npos")"
}

if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _simadmin "$@"
else
  compdef _simadmin simadmin
fi`;
}

/** fish single-quoted string. */
function fq(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\s+/g, " ")}'`;
}

function fishScript(root: CommandSpec): string {
  const commands = allCommands(root);
  const subnames = [
    "function __simadmin_subcommands",
    '    switch "$argv[1]"',
    ...commands
      .filter((c) => c.subcommands.length > 0)
      .map((c) => `        case ${fq(c.path)}\n            echo ${c.subcommands.map((s) => fq(s.name)).join(" ")}`),
    "    end",
    "end",
  ].join("\n");
  const takesValue = [
    "function __simadmin_takes_value",
    '    switch "$argv[2]"',
    `        case ${root.flags
      .filter((f) => f.takesValue)
      .flatMap(flagNames)
      .map(fq)
      .join(" ")}`,
    "            return 0",
    "    end",
    '    switch "$argv[1]|$argv[2]"',
    ...commands
      .filter((c) => c !== root && c.flags.some((f) => f.takesValue))
      .map(
        (c) =>
          `        case ${c.flags
            .filter((f) => f.takesValue)
            .flatMap(flagNames)
            .map((name) => fq(`${c.path}|${name}`))
            .join(" ")}\n            return 0`,
      ),
    "    end",
    "    return 1",
    "end",
  ].join("\n");

  const flagLine = (condition: string | undefined, flag: FlagSpec): string => {
    const parts = ["complete -c simadmin"];
    if (condition) parts.push(`-n ${fq(condition)}`);
    if (flag.short) parts.push(`-s ${flag.short.replace(/^-/, "")}`);
    if (flag.long) parts.push(`-l ${flag.long.replace(/^--/, "")}`);
    if (flag.takesValue) {
      if (flag.values.kind === "files") parts.push("-r -F");
      else if (flag.values.kind === "dirs") parts.push(`-x -a ${fq("(__fish_complete_directories)")}`);
      else if (flag.values.kind === "words") parts.push(`-x -a ${fq(flag.values.words.join(" "))}`);
      else parts.push("-x");
    }
    parts.push(`-d ${fq(flag.description)}`);
    return parts.join(" ");
  };

  const lines: string[] = [];
  for (const flag of root.flags) lines.push(flagLine(undefined, flag));
  for (const command of commands) {
    if (command === root) continue;
    for (const flag of command.flags) {
      if (flag.long === "--help") continue; // global above
      lines.push(flagLine(`__simadmin_at ${command.path}`, flag));
    }
  }
  for (const command of commands) {
    for (const sub of command.subcommands) {
      lines.push(
        `complete -c simadmin -n ${fq(command === root ? "__simadmin_at" : `__simadmin_at ${command.path}`)} -a ${fq(sub.name)} -d ${fq(sub.description)}`,
      );
    }
    command.args.forEach((source, index) => {
      const condition = fq(`__simadmin_at ${command.path}; and __simadmin_npos ${index}`);
      if (source.kind === "words") lines.push(`complete -c simadmin -n ${condition} -a ${fq(source.words.join(" "))}`);
      else if (source.kind === "files") lines.push(`complete -c simadmin -n ${condition} -F`);
      else if (source.kind === "dirs")
        lines.push(`complete -c simadmin -n ${condition} -a ${fq("(__fish_complete_directories)")}`);
    });
  }

  return `# fish completion for simadmin, generated by \`simadmin completion-script fish\`.
# Install: simadmin completion-script fish > ~/.config/fish/completions/simadmin.fish

${subnames}

${takesValue}

# Prints the command path (e.g. "users import") and then the count of positional arguments.
function __simadmin_state
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath ''
    set -l npos 0
    set -l skip 0
    for w in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case '--*=*'
            case '-*'
                if __simadmin_takes_value "$cmdpath" $w
                    set skip 1
                end
            case '*'
                if contains -- $w (__simadmin_subcommands "$cmdpath" | string split ' ')
                    set cmdpath (string trim -- "$cmdpath $w")
                    set npos 0
                else
                    set npos (math $npos + 1)
                end
        end
    end
    echo $cmdpath
    echo $npos
end

function __simadmin_at
    set -l state (__simadmin_state)
    test "$state[1]" = "$argv"
end

function __simadmin_npos
    set -l state (__simadmin_state)
    test "$state[2]" = "$argv[1]"
end

complete -c simadmin -f
${lines.join("\n")}`;
}

export function completionScript(shell: Shell, root: CommandSpec = describeProgram()): string {
  switch (shell) {
    case "bash":
      return bashScript(root);
    case "zsh":
      return zshScript(root);
    case "fish":
      return fishScript(root);
  }
}

function isShell(value: unknown): value is Shell {
  return typeof value === "string" && (SHELLS as readonly string[]).includes(value);
}

export async function runCompletionScript(_ctx: Context, _options: CommandOptions, args: string[]): Promise<CommandResult> {
  const shell = args[0];
  if (!isShell(shell)) {
    throw new UsageError(`unknown shell '${shell ?? ""}'; completion scripts exist for ${SHELLS.join(", ")}`);
  }
  const script = completionScript(shell);
  return { kind: "object", value: { shell, script }, text: script, defaultText: true };
}
