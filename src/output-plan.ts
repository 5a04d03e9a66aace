import { extname } from "node:path";
import type { GlobalFlagValues } from "./global-flags-schema.js";
import { UsageError } from "./errors.js";
import { checkOutputPath } from "./output/atomic-file.js";
import type { ColorChoice } from "./messages.js";
import type { IOStreams } from "./output/io.js";
import type { CompiledQuery } from "./output/query.js";
import { OUTPUT_FORMATS, type OutputFormat } from "./output/render.js";
import type { Env } from "./settings/paths.js";
import type { GlobalOptions, ResolvedSettings } from "./settings/resolve.js";

// Decide once, hand down (docs/cli-contract.md, Global options `-o`,
// `--out`, `--fields`, `--query`, `--delimiter`, `--bom`): the runner resolves where a
// command's data goes and how it is written into ONE OutputPlan, before the command runs
// and before anything is sent; the printer writes by it and the command reads it. Nobody
// derives the format, the fields or the query again.

/**
 * Commander's global options when every one is of the kind global-flags-schema.ts's zod schema
 * accepts, as that schema returns them (only its keys); undefined otherwise — the runner then
 * asks the schema, whose issue names what is wrong. Every command reads them before it runs:
 * checked by hand, zod (its module and the schema) does not load for a start that passes
 * (docs/architecture.md, Start-up). test/unit/output-plan.test.ts holds the two to agreement.
 */
export function readGlobalFlags(input: Record<string, unknown>): GlobalFlagValues | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, kind] of GLOBAL_FLAG_KINDS) {
    if (!(key in input)) continue;
    const value = input[key];
    if (value !== undefined) {
      const fits =
        kind === "boolean"
          ? typeof value === "boolean"
          : typeof value === "string" && (kind === "string" || (kind === "non-empty" ? value !== "" : kind.includes(value)));
      if (!fits) return undefined;
    }
    out[key] = value;
  }
  return out;
}

const GLOBAL_FLAG_KINDS: [keyof GlobalOptions, "string" | "boolean" | "non-empty" | readonly string[]][] = [
  ["profile", "string"],
  ["baseUrl", "string"],
  ["org", "string"],
  ["apiVersion", "string"],
  ["output", OUTPUT_FORMATS],
  ["out", "non-empty"],
  ["fields", "string"],
  ["query", "string"],
  ["bom", "boolean"],
  ["delimiter", [",", ";", "tab"]],
  ["quiet", "boolean"],
  ["verbose", "boolean"],
  ["color", "boolean"],
  ["timeout", "string"],
  ["retries", "string"],
  ["sandbox", "boolean"],
  ["pingUrl", "non-empty"],
  ["junit", "non-empty"],
  ["linksUrl", "string"],
  ["state", "non-empty"],
  ["lockTimeout", "string"],
];

/** Where the format came from: decides the defaults a result may take (printer.ts). */
export type FormatSource = "flag" | "out-extension" | "profile" | "default";

export interface OutputPlan {
  format: OutputFormat;
  formatSource: FormatSource;
  /** The source in the user's words, for messages: never an `-o` the user did not type. */
  formatOrigin: string;
  /** --out: the file the data goes to (atomically); undefined: stdout. */
  out: string | undefined;
  /** A directory the command writes its files into (reports --out-dir); xlsx needs no --out then. */
  outDir: string | undefined;
  /** --fields, split and checked for repeats; undefined when not given. */
  fields: string[] | undefined;
  /** --query, compiled. */
  query: CompiledQuery | undefined;
  delimiter: "," | ";" | "\t";
  /** Whether --delimiter was given: a side file (the errors file) then takes it instead of its input's (output/csv.ts sideFileForm). */
  delimiterGiven: boolean;
  bom: boolean;
  /** Colour on stdout: a terminal, no --out, no --no-color or NO_COLOR (decided once: messages.ts decideColor). */
  color: boolean;
  /** The terminal's width, for tables. */
  width: number | undefined;
  /**
   * The data holds a user token or a link that admits its user (token, link, progress
   * --links): a new --out file is created 0600 (docs/cli-contract.md, "Output files").
   */
  secretOutput: boolean;
}

/** `--out` extensions that pick the format when -o is not given (`.jsonl`: a common alias of ndjson). */
const OUT_EXTENSIONS: Record<string, OutputFormat | undefined> = {
  ".json": "json",
  ".ndjson": "ndjson",
  ".jsonl": "ndjson",
  ".csv": "csv",
  ".xlsx": "xlsx",
  ".txt": "text",
};

const DELIMITERS = { ",": ",", ";": ";", tab: "\t" } as const;

/** The formats an output directory's files may have. */
const DIRECTORY_FORMATS: readonly OutputFormat[] = ["json", "ndjson", "csv", "xlsx"];

/** --fields as a list: trimmed, none empty, none twice. */
export function parseFieldsFlag(text: string): string[] {
  const fields = text
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError("--fields needs at least one field name, e.g. --fields id,title");
  const repeated = fields.filter((field, i) => fields.indexOf(field) !== i);
  if (repeated.length > 0) {
    throw new UsageError(`--fields names ${[...new Set(repeated)].join(", ")} more than once; name each column once`);
  }
  return fields;
}

export interface PlanInput {
  globals: GlobalFlagValues;
  io: IOStreams;
  env: Env;
  settings: () => Promise<ResolvedSettings>;
  /** The command's output directory option (reports --out-dir), when given. */
  outDir: string | undefined;
  /** The default format of the files in that directory (types.ts outputDirectoryFormat); json without it. */
  outDirFormat?: OutputFormat | undefined;
  /** False for commands that print no data: -o and --out are then not looked at. */
  printsData: boolean;
  /** The command's own default format (types.ts CommandDeclaration.ownFormat). */
  ownFormat?: "text" | "json" | undefined;
  /** Colour on each stream, decided once for the run. */
  color: ColorChoice;
  /** The command's declaration says its data is secret with these options (types.ts secretOutput). */
  secretOutput: boolean;
}

/**
 * The output format: -o, else the --out extension, else the profile's, else json into files
 * (--out without extension, --out-dir) and table on a terminal, json otherwise.
 */
async function chooseFormat(input: PlanInput): Promise<{ format: OutputFormat; source: FormatSource }> {
  const { globals, io } = input;
  const out = globals.out;
  if (globals.output) {
    // text and xlsx are not profile settings: -o gives them directly (settings/resolve.ts).
    const settings = await input.settings();
    return { format: settings.output ?? globals.output, source: "flag" };
  }
  if (out !== undefined && extname(out) !== "") {
    const extension = extname(out).toLowerCase();
    const format = OUT_EXTENSIONS[extension];
    if (!format) {
      throw new UsageError(`--out ${out}: the extension ${extension} names no output format`, {
        hint: "use .json, .ndjson, .csv, .xlsx or .txt, or give the format with -o",
      });
    }
    return { format, source: "out-extension" };
  }
  const settings = await input.settings();
  if (settings.output) return { format: settings.output, source: "profile" };
  if (input.outDir !== undefined && input.outDirFormat !== undefined) return { format: input.outDirFormat, source: "default" };
  const toFiles = out !== undefined || input.outDir !== undefined;
  return { format: io.stdoutIsTTY && !toFiles ? "table" : "json", source: "default" };
}

function originOf(input: PlanInput, format: OutputFormat, source: FormatSource, profileOutput: string | undefined): string {
  const { globals, io } = input;
  switch (source) {
    case "flag":
      return `-o ${globals.output}`;
    case "out-extension":
      return `--out ${globals.out}`;
    case "profile":
      return `the profile's output setting '${profileOutput}' (\`simadmin config unset output\`)`;
    case "default":
      if (input.outDir !== undefined) return `the default for --out-dir (${format})`;
      return `the default for ${io.stdoutIsTTY && !globals.out ? "a terminal" : "a pipe"} (${format})`;
  }
}

/**
 * Resolves the plan; every usage error in it (a bad --out extension, xlsx with nowhere to go
 * but stdout, a bad --fields or --query) and an --out path that cannot be written (exit 11)
 * is found here, before the command sends anything.
 */
export async function resolveOutputPlan(input: PlanInput): Promise<OutputPlan> {
  const { globals, io } = input;
  const fields = globals.fields === undefined ? undefined : parseFieldsFlag(globals.fields);
  const query = globals.query === undefined ? undefined : (await import("./output/query.js")).compileQuery(globals.query);
  let format: OutputFormat = "json";
  let formatSource: FormatSource = "default";
  let formatOrigin = "";
  if (input.printsData) {
    ({ format, source: formatSource } = await chooseFormat(input));
    if (format === "xlsx" && !globals.out && input.outDir === undefined) {
      throw new UsageError("-o xlsx writes a workbook, not text for a terminal or a pipe", {
        hint: "add --out <file>.xlsx",
      });
    }
    const profileOutput = formatSource === "profile" ? (await input.settings()).output : undefined;
    formatOrigin = originOf(input, format, formatSource, profileOutput);
    // Files into the command's directory (reports --out-dir, progress --split-by): a format
    // a file holds, whichever command writes them.
    if (input.outDir !== undefined && !DIRECTORY_FORMATS.includes(format)) {
      throw new UsageError(`--out-dir writes files: use -o csv, json, ndjson or xlsx, not ${format} (${formatOrigin})`);
    }
    // A token must not be minted (nor a report fetched) only to fail on a missing or
    // read-only directory (exit 11, docs/cli-contract.md "Bad input").
    if (globals.out) await checkOutputPath(globals.out);
    // The command's own default (a bare value; an answer as it came), after the checks
    // above, which keep looking at the format the flags and the profile gave.
    if (input.ownFormat === "text" && formatSource !== "flag" && globals.query === undefined) format = "text";
    if (input.ownFormat === "json" && (formatSource === "profile" || formatSource === "default")) format = "json";
  }
  // --junit is written when the run is over: a directory, or a missing or read-only
  // directory, is found now, before anything is sent (docs/ci-and-cron.md).
  if (globals.junit) await checkOutputPath(globals.junit);
  return {
    format,
    formatSource,
    formatOrigin,
    out: globals.out,
    outDir: input.outDir,
    fields,
    query: await query,
    delimiter: DELIMITERS[globals.delimiter ?? ","],
    delimiterGiven: globals.delimiter !== undefined,
    bom: globals.bom === true,
    color: input.color.stdout,
    width: io.columns,
    secretOutput: input.secretOutput,
  };
}
