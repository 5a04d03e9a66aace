import type { Command } from "commander";
import type { CommandDeclaration } from "./commands/types.js";
import { DECLARATIONS, textCommandNames } from "./commands/registry.js";
import { commandContext, createRunContext, type CommandContext, type Deps, type RunContext } from "./context.js";
import { UsageError } from "./errors.js";
import type { GlobalFlagValues } from "./global-flags-schema.js";
import { readGlobalFlags, resolveOutputPlan } from "./output-plan.js";

// The one way a command runs (after trigger.dev's wrapCommandAction): build the context,
// load the command's module, parse its options with its schema, enforce what its
// declaration says it supports, run it, print what it returns. Everything that can be
// refused without the service is refused here, before the command sends anything
// (docs/cli-contract.md "Exit codes": 2).
//
// main.ts → program.ts (commander, built from the declarations) → runCommand → the
// command's run function (src/commands/<name>/).

/** A zod issue, as much of it as the runner reads (the schema modules own zod). */
interface Issue {
  message: string;
  path: readonly PropertyKey[];
  code?: string;
  params?: { hint?: string };
}

/** The first problem with the options, as the usage error it is: the flag is named. */
function optionsError(issues: readonly Issue[], command: string): UsageError {
  const issue = issues[0];
  if (!issue) return new UsageError(`bad options for ${command}`);
  const hint = issue.params?.hint;
  // Our own checks (shared/flags.ts) write whole messages naming the flag; zod's built-in
  // ones do not, so the flag is put in front.
  const key = issue.path[0];
  const flag = typeof key === "string" ? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : undefined;
  const message = issue.code === "custom" || flag === undefined ? issue.message : `${flag}: ${issue.message}`;
  return new UsageError(message, hint === undefined ? {} : { hint });
}

/** The commands that offer -o text, for the message of those that do not. */
function textCommands(): string {
  return textCommandNames()
    .map((name) => `\`${name}\``)
    .join(", ");
}

async function enforce(
  declaration: CommandDeclaration,
  context: CommandContext,
  options: Record<string, unknown>,
): Promise<void> {
  const { services, printer } = context;
  const { outputPlan } = printer;
  const { name } = declaration;
  if (declaration.api !== "local" && declaration.api.length < 2) {
    const { apiVersion } = await services.settings();
    if (!declaration.api.includes(apiVersion)) {
      const need = declaration.api.join(" or ");
      throw new UsageError(
        declaration.versionNote
          ? `\`${name}\` needs API version ${need}: ${declaration.versionNote}`
          : `\`${name}\` needs API version ${need}; it does not exist in version ${apiVersion}`,
        { hint: `drop --api-version ${apiVersion} (or SIMADMIN_API_VERSION / the profile's apiVersion)` },
      );
    }
  }
  if (declaration.outputs !== "none") {
    const { format } = outputPlan;
    // With --query, -o text prints the query's values, whatever the command (output/query.ts).
    const queryText = format === "text" && outputPlan.query !== undefined;
    if (!declaration.outputs.includes(format) && !queryText) {
      const formats = declaration.outputs.filter((f) => f !== "text");
      const offered = `-o ${formats.slice(0, -1).join(", ")}${formats.length > 1 ? " or " : ""}${formats.at(-1) ?? ""}`;
      // The message names where the format came from, never an -o the user did not type.
      const origin = outputPlan.formatOrigin;
      throw new UsageError(
        format === "text"
          ? `\`${name}\` has no single value to print as text (${origin})`
          : `\`${name}\` does not print ${format} (${origin})`,
        { hint: format === "text" ? `use ${offered}; text is for ${textCommands()}` : `use ${offered}` },
      );
    }
  }
  if (declaration.needsOrg === true || (declaration.needsOrg === "unless-dry-run" && options.dryRun !== true)) {
    await services.org();
  }
}

/**
 * The command's options. A subcommand of a command (`reports sync` under `reports`) that
 * declares a flag of its parent (`--dry-run`) finds it in the parent's options: commander
 * gives a known option to the first command that declares it, wherever it stands in argv.
 */
function withParentOptions(command: Command): Record<string, unknown> {
  const own = command.opts();
  const parent = command.parent?.parent ? command.parent.opts() : {};
  const merged: Record<string, unknown> = { ...own };
  for (const option of command.options) {
    const key = option.attributeName();
    if (merged[key] === undefined && parent[key] !== undefined) merged[key] = parent[key];
  }
  return merged;
}

/**
 * `reports sync --from …`: commander gives `--from` to `reports`, which `reports sync` never
 * reads — silently ignored, a sync of other dates than the user meant. The flags of the
 * command above (not the program's: those are the global flags) are refused instead.
 */
/** `reports <kind>`, `progress`: the command above as its usage line starts. */
const outerUsage = (outer: Command): string => [outer.name(), ...outer.registeredArguments.map((a) => `<${a.name()}>`)].join(" ");

function refuseOuterFlags(declaration: CommandDeclaration, command: Command): void {
  const outer = command.parent;
  if (!outer?.parent) return;
  // A flag both declare (`--dry-run`) is the subcommand's own: withParentOptions hands it down.
  const own = new Set(command.options.map((o) => o.attributeName()));
  const given = outer.options.filter(
    (o) =>
      !own.has(o.attributeName()) &&
      outer.getOptionValue(o.attributeName()) !== undefined &&
      outer.getOptionValueSource(o.attributeName()) === "cli",
  );
  if (given.length === 0) return;
  const names = given.map((o) => o.long ?? o.short ?? o.flags);
  throw new UsageError(
    `\`${declaration.name}\` does not take ${names.join(", ")} (${names.length === 1 ? "a flag" : "flags"} of \`${outerUsage(outer)}\`)`,
    { hint: declaration.outerFlagsHint ?? `see simadmin ${declaration.name} --help` },
  );
}

/**
 * The required flags of a command that has subcommands (`progress --from-csv` beside `progress
 * notify`): commander cannot check them itself (program.ts), so they are checked here, in its words.
 */
function requireFlags(declaration: CommandDeclaration, command: Command): void {
  const given = withParentOptions(command);
  for (const flag of declaration.flags ?? []) {
    if (!flag.required) continue;
    const option = command.options.find((o) => o.flags === flag.flags);
    if (option && given[option.attributeName()] === undefined) {
      throw new UsageError(`required option '${flag.flags}' not specified`);
    }
  }
}

/** The global options that readGlobalFlags did not take, through their zod schema: its first issue is the error. */
async function checkGlobalFlags(flags: Record<string, unknown>, command: string): Promise<GlobalFlagValues> {
  const { GlobalFlags } = await import("./global-flags-schema.js");
  const parsed = GlobalFlags.safeParse(flags);
  if (!parsed.success) throw optionsError(parsed.error.issues, command);
  return parsed.data;
}

/**
 * Runs one declared command. `onContext` hands the context to main.ts as soon as it exists,
 * so that an error is redacted and the context disposed whatever happens.
 */
export async function runCommand(
  declaration: CommandDeclaration,
  command: Command,
  deps: Deps,
  onContext: (context: RunContext) => void,
): Promise<void> {
  refuseOuterFlags(declaration, command);
  requireFlags(declaration, command);
  const flags = command.optsWithGlobals();
  const globals = readGlobalFlags(flags) ?? (await checkGlobalFlags(flags, declaration.name));
  const run = createRunContext(deps, globals, {
    writesSettings: declaration.writesSettings,
    title: [declaration.name, ...command.args].join(" "),
  });
  onContext(run);
  if (globals.pingUrl !== undefined) {
    const { startRunPing } = await import("./run-ping.js");
    run.pinger = await startRunPing(globals.pingUrl, run, deps.env);
  }
  if (globals.fields !== undefined && !declaration.fields) {
    throw new UsageError(`\`${declaration.name}\` prints no data: --fields does not apply`);
  }
  const module = await declaration.load();
  const parsed = module.options.safeParse(withParentOptions(command));
  if (!parsed.success) throw optionsError(parsed.error.issues, declaration.name);
  const options = parsed.data as Record<string, unknown>;
  const dir = declaration.outputDirectory === undefined ? undefined : options[declaration.outputDirectory];
  const secret = declaration.secretOutput;
  // The output decided once, before the command sends anything (a bad --query, --fields,
  // --out extension or --out path stops here): output-plan.ts. The printer is built on it.
  const outputPlan = await resolveOutputPlan({
    globals,
    io: deps.io,
    env: deps.env,
    settings: () => run.services.settings(),
    outDir: typeof dir === "string" ? dir : undefined,
    outDirFormat: declaration.outputDirectoryFormat,
    printsData: declaration.outputs !== "none",
    ownFormat: declaration.ownFormat,
    color: run.messages.color,
    secretOutput: secret === true || (typeof secret === "string" && options[secret] === true),
  });
  // --fields checked before the command sends or writes anything, where its fields are known
  // (docs/output.md "--fields"); a result then knows every field the command declares.
  if (module.fields && outputPlan.fields)
    (await import("./output/fields-check.js")).checkFields(outputPlan.fields, module.fields);
  const context = commandContext(run, outputPlan);
  await enforce(declaration, context, options);
  const outcome = await module.run({ options: options as never, args: command.args, declarations: DECLARATIONS, ...context });
  const { failure, ...result } = outcome;
  await context.printer.print(
    module.fields && outputPlan.fields
      ? (await import("./output/fields-check.js")).withKnownFields(result, module.fields)
      : result,
  );
  if (failure) throw failure;
}
