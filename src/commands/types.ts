import type { OutputFormat } from "../output/render.js";
import type { PrintableResult, Printer } from "../printer.js";
import type { Services } from "../services.js";

// What a command is, in two halves (after Vercel CLI's commands/<name>/command.ts and gh's
// Factory):
//
// - its declaration (`src/commands/<name>/command.ts`): plain data — name, arguments,
//   flags, examples, and what it supports. program.ts builds commander from it; help, the
//   completion scripts, the README's commands list, docs/commands/ and the man pages are
//   derived from it, and the runner (src/runner.ts) enforces it. It must stay plain data:
//   `simadmin --help` imports every declaration, and only commander may load for help
//   (docs/architecture.md, Start-up).
// - its module (`options.ts` + the run file), imported only when the command runs: a zod
//   schema for its flags and a run function that receives them parsed and typed.
//
// Only type imports above: none of them loads anything at run time.

/** What may follow a flag or fill a positional argument (what the shell completes). */
export type ValueSource = { kind: "words"; words: readonly string[] } | { kind: "files" } | { kind: "dirs" } | { kind: "none" };

/** One flag of a command, in commander's syntax. */
export interface FlagDeclaration {
  /** "--user <id>", "-y, --yes", "--task <id...>" */
  flags: string;
  description: string;
  /** Must be given (commander says so before anything else runs). */
  required?: boolean;
  /** May be given several times; the values arrive as an array. */
  repeatable?: boolean;
  /** The only values accepted (commander checks them; the shell completes them). */
  choices?: readonly string[];
  /** What the shell completes for its value, when it is not one of `choices`. */
  values?: ValueSource;
}

/** One positional argument; required unless `many` (zero or more, the last argument only). */
export interface ArgumentDeclaration {
  name: string;
  description: string;
  /** Zero or more values (`[link...]`); the command checks whether it needs any. */
  many?: boolean;
  /** What the shell completes for it (the command checks the value itself). */
  values?: ValueSource;
}

/** API versions a command works with; "local" commands never call the service. */
export type ApiSupport = readonly (1 | 2)[] | "local";

/** A command group (`auth`, `config`, `users`): only subcommands, no run function. */
export interface GroupDeclaration {
  kind: "group";
  name: string;
  description: string;
  examples: readonly string[];
}

export interface CommandDeclaration {
  kind: "command";
  /** The full path: "library", "users import". */
  name: string;
  description: string;
  args?: readonly ArgumentDeclaration[];
  flags?: readonly FlagDeclaration[];
  /** Help text shown before the examples. */
  help?: string;
  examples: readonly string[];
  /** Under another version the runner stops with exit 2 before anything is sent. */
  api: ApiSupport;
  /** Why only version 2, when there is more to say than "it does not exist in version 1". */
  versionNote?: string;
  /**
   * The -o formats it prints (checked before the command runs); "none" for commands that
   * print no data (auth login, config set, …), which ignore -o.
   */
  outputs: readonly OutputFormat[] | "none";
  /**
   * Its own default format, decided with the rest of the output plan (output-plan.ts):
   * `text` — one bare value, what scripts want (config get, config path, completion-script),
   * unless -o or --query is given; `json` — service answers as they came (api), unless -o or
   * --out's extension says otherwise (a terminal's table and the profile's format do not).
   */
  ownFormat?: "text" | "json";
  /** It changes the settings file (auth login/logout, config set/unset). */
  writesSettings: boolean;
  /** It sends the organizationId: missing is exit 2 before the command runs. */
  needsOrg: boolean | "unless-dry-run";
  /** It accepts --fields (commands that print no data refuse it). */
  fields: boolean;
  /**
   * The option (its key in the parsed options) naming a directory the command writes its
   * files into (reports --out-dir): the output then needs no --out, even for xlsx.
   */
  outputDirectory?: string;
  /**
   * The format of the files written into that directory when neither -o nor the profile
   * chooses (progress --split-by: csv, the mail to each manager); json otherwise. Decided
   * in the output plan with the rest (output-plan.ts).
   */
  outputDirectoryFormat?: "csv";
  /**
   * Its data holds a user token or a link that admits its user: a new --out file is created
   * 0600 (docs/cli-contract.md, "Output files"). `true` always, or the key of the option that
   * makes it so (`links`: progress --links). The runner puts it in the output plan.
   */
  secretOutput?: true | string;
  /**
   * A command under a command (`reports sync` beside `reports <kind>`): commander reads the
   * outer command's flags wherever they stand, so the runner refuses them (exit 2) with this
   * hint — what to give instead.
   */
  outerFlagsHint?: string;
  /** The command's module, imported only when it runs. */
  load: () => Promise<CommandModule>;
}

export type Declaration = GroupDeclaration | CommandDeclaration;

/** What a command's run function receives: its options parsed, and the two halves of the context. */
export interface CommandInput<Options> {
  options: Options;
  /** Positional arguments, as declared. */
  args: string[];
  services: Services;
  printer: Printer;
  /**
   * Every command as registered (registry.ts), for a command that describes the program
   * (completion-script); handed down by the runner so that no command imports the registry
   * that imports it (no import cycle).
   */
  declarations: readonly Declaration[];
}

/**
 * What a command hands back: the result the runner prints, and optionally an error that
 * decides the exit code after it is printed (a CliError; anything else is a bug, exit 1) (import-status --wait printing the statuses
 * before exit 10, users import printing the invalid rows before exit 6).
 */
export type CommandOutcome = PrintableResult & { failure?: Error };

/** One problem with a command's options, as much of a zod issue as the runner reads. */
export interface OptionsIssue {
  message: string;
  path: readonly PropertyKey[];
  code?: string;
  params?: { hint?: string };
}

/**
 * What the runner asks of a command's options schema: a zod schema's safeParse, or a
 * hand-written check of the same form where a command's start-up matters more than zod's
 * loading (token: docs/architecture.md, Start-up).
 */
export interface OptionsSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly OptionsIssue[] } };
}

/** The lazily loaded half: the options schema and the run function typed by it. */
export interface CommandModule {
  options: OptionsSchema<unknown>;
  run: (input: CommandInput<never>) => Promise<CommandOutcome>;
  /**
   * Every field any of its results can hold, for a command whose records have a known shape:
   * the runner checks --fields against them before the command runs (exit 2, nothing sent),
   * and a result then knows them all (a field another of its results has prints empty).
   * Absent: the names can only be checked on the data (records of unknown shape, or columns
   * that come from an input file, which the command checks itself once it has read it).
   */
  fields?: readonly string[];
}

/** Ties a run function's options type to its schema (checked at compile time). */
export function defineRun<T>(
  options: OptionsSchema<T>,
  run: (input: CommandInput<T>) => Promise<CommandOutcome>,
  declared: { fields?: readonly string[] } = {},
): CommandModule {
  return { options, run: run, ...(declared.fields ? { fields: declared.fields } : {}) };
}
