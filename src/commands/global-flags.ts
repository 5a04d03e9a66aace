import type { CommandDeclaration, Declaration, FlagDeclaration } from "./types.js";
import { OUTPUT_FORMAT_NAMES } from "./output-formats.js";

// The program's own description and flags: program.ts declares them on the root, completion
// scripts offer them. Apart from registry.ts so that describing the program needs no command.

export const PROGRAM_DESCRIPTION =
  "Administer the simulation training platform: reports, simulations, links, completions and users.";

/** `-V, --version` (commander's own flag; main.ts answers it without commander when alone). */
export const VERSION_FLAG: FlagDeclaration = { flags: "-V, --version", description: "print the version" };

/** The global options: program.ts declares them on the root, completion scripts offer them. */
export function globalFlags(declarations: readonly Declaration[]): FlagDeclaration[] {
  return [
    { flags: "--profile <name>", description: 'settings profile (env SIMADMIN_PROFILE; default "default")' },
    {
      flags: "--base-url <url>",
      description: "service base address, e.g. https://api.example.com (env SIMADMIN_BASE_URL)",
    },
    { flags: "--org <id>", description: "organizationId for access calls (env SIMADMIN_ORG)" },
    { flags: "--api-version <n>", description: "API version (env SIMADMIN_API_VERSION; default 2)", choices: ["1", "2"] },
    {
      flags: "-o, --output <format>",
      description: `table, json, csv, ndjson, xlsx (only into --out/--out-dir); text (the bare value) for ${textCommandsOf(declarations).join(", ")} and with --query; default table on a terminal, json otherwise`,
      choices: OUTPUT_FORMAT_NAMES,
    },
    {
      flags: "--out <path>",
      description:
        "write the result to a file (atomically; FIFOs and devices written in place) instead of stdout; without -o the extension picks the format (.json .ndjson .csv .xlsx .txt)",
      values: { kind: "files" },
    },
    { flags: "--fields <list>", description: "comma-separated columns to keep, in this order" },
    {
      flags: "--query <expr>",
      description: "JMESPath expression applied to the JSON result before it is printed (any format)",
    },
    {
      flags: "--delimiter <c>",
      description: 'CSV output delimiter: ",", ";" or tab (default ","; an errors file keeps its input\'s)',
      choices: [",", ";", "tab"],
    },
    { flags: "--bom", description: "start CSV output (and an errors file) with a UTF-8 byte-order mark (Excel)" },
    { flags: "-q, --quiet", description: "no spinners or progress on stderr" },
    { flags: "-v, --verbose", description: "HTTP trace on stderr (API key and tokens redacted)" },
    { flags: "--no-color", description: "no colour (also NO_COLOR)" },
    { flags: "--timeout <seconds>", description: "per-request timeout in seconds (default 30; reports 120)" },
    { flags: "--retries <n>", description: "retries after 429, 5xx and network errors (default 5)" },
    { flags: "--sandbox", description: "run against an in-process local sandbox (no key or settings needed)" },
    {
      flags: "--ping-url <url>",
      description: "a cron monitor (healthchecks.io, Cronitor, Uptime Kuma push URL) pinged at the start and end",
    },
    {
      flags: "--links-url <url>",
      description: "public address of the link service, for --durable links (env SIMADMIN_LINKS_URL)",
    },
    {
      flags: "--state <dir|url>",
      description:
        "where workflow state is kept: a directory or postgres://… (env SIMADMIN_STATE; profile setting state; default <settings dir>/state)",
      values: { kind: "dirs" },
    },
    {
      flags: "--lock-timeout <duration>",
      description: "how long to wait for another run's lock on the same state or database (default 60s; bare seconds too)",
    },
    {
      flags: "--junit <file>",
      description: "also write a JUnit XML report of the run (rows or batches as test cases)",
      values: { kind: "files" },
    },
  ];
}

/** The commands that offer `-o text` (one bare value), as their names. */
export function textCommandsOf(declarations: readonly Declaration[]): string[] {
  return declarations
    .filter((d): d is CommandDeclaration => d.kind === "command")
    .filter((d) => d.outputs !== "none" && d.outputs.includes("text"))
    .map((d) => d.name);
}
