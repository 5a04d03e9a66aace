import { extname } from "node:path";
import * as z from "zod";
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

/** Commander's global options, checked by schema like every command's own (house style: zod at every boundary). */
export const GlobalFlags = z.object({
  profile: z.string().optional(),
  baseUrl: z.string().optional(),
  org: z.string().optional(),
  apiVersion: z.string().optional(),
  output: z.enum(OUTPUT_FORMATS).optional(),
  out: z.string().min(1, "--out needs a file name").optional(),
  fields: z.string().optional(),
  query: z.string().optional(),
  bom: z.boolean().optional(),
  delimiter: z.enum([",", ";", "tab"]).optional(),
  quiet: z.boolean().optional(),
  verbose: z.boolean().optional(),
  color: z.boolean().optional(),
  timeout: z.string().optional(),
  retries: z.string().optional(),
  sandbox: z.boolean().optional(),
  pingUrl: z.string().min(1, "--ping-url needs the monitor's URL").optional(),
  junit: z.string().min(1, "--junit needs a file name").optional(),
  linksUrl: z.string().optional(),
  state: z.string().min(1, "--state needs a directory or a postgres:// URL").optional(),
  lockTimeout: z.string().optional(),
}) satisfies z.ZodType<GlobalOptions>;

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
  globals: z.output<typeof GlobalFlags>;
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
