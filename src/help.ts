import { globalFlags, VERSION_FLAG } from "./commands/global-flags.js";
import { DECLARATIONS } from "./commands/registry.js";
import type { FlagDeclaration } from "./commands/types.js";

// What help says besides each command's own declaration: the exit codes, the environment,
// the global options, and the 80-column text rules every help line follows. Plain data and string functions only: program.ts imports this for `--help`, and
// scripts/docs.mjs renders the same lists into docs/ and the man pages, so help, the manual
// and the man pages cannot disagree (docs/cli-contract.md "Exit codes", "Global options").

/** Help is written for 80 columns at most, whatever the terminal (a narrower one gets less). */
export const HELP_WIDTH = 80;

/** docs/cli-contract.md "Exit codes", in order. */
export const EXIT_CODES: readonly (readonly [code: number, meaning: string])[] = [
  [0, "success"],
  [1, "unexpected internal error (a bug: please report it)"],
  [2, "usage: unknown command or flag, bad argument or date, command not in this API version — nothing was sent"],
  [3, "authentication: no API key, or the service answered 401"],
  [4, "permission: the service answered 403"],
  [5, "not found: the service answered 404"],
  [6, "invalid data: local CSV validation failed, or the service answered 400"],
  [7, "rate limited: 429 still returned after the retries"],
  [8, "service unavailable: 5xx, timeout or network failure after the retries"],
  [9, "a --wait ran out of time"],
  [10, "a bulk import task ended FAILED"],
  [11, "local file error: a file could not be read or written (the message names the path and the cause)"],
  [12, "users sync --plan: changes are pending (0: the roster and the service agree)"],
  [130, "interrupted (Ctrl-C): stops within a second and leaves no partial output file"],
];

/** Every variable simadmin reads (docs/cli-contract.md "Global options"), in the order help lists them. */
export const ENVIRONMENT: readonly (readonly [name: string, meaning: string])[] = [
  ["SIMADMIN_API_KEY", "the API key; wins over the stored key (there is no --api-key flag: argv is visible to every local user)"],
  ["SIMADMIN_PROFILE", 'settings profile, as --profile (default "default")'],
  ["SIMADMIN_BASE_URL", "service base address, as --base-url"],
  ["SIMADMIN_ORG", "organizationId for access calls, as --org"],
  ["SIMADMIN_API_VERSION", "API version, as --api-version (default 2)"],
  ["SIMADMIN_CONFIG_DIR", "settings directory (default: the OS config directory; `simadmin config path`)"],
  [
    "SIMADMIN_KEYCHAIN",
    "off: never use the OS keychain; auth login stores the key in the 0600 settings file (servers, cron, containers)",
  ],
  ["SIMADMIN_RATE_LIMITS", "client-side rate budgets (default reports=10/60s,access=100/300s)"],
  [
    "SIMADMIN_RATE_STORE",
    "where concurrent runs share their rate budget: the settings directory (default), file:///<dir> for every account of one host, or redis://… for many machines behind one address",
  ],
  ["SIMADMIN_LINKS_URL", "public address of the link service, as --links-url (durable links)"],
  ["SIMADMIN_SMTP_URL", "the SMTP relay of progress notify, as --smtp (its password is never shown)"],
  ["SIMADMIN_LINKS_KEY", "the key that signs durable links (at least 32 bytes); wins over the one kept in the state store"],
  [
    "SIMADMIN_STATE",
    "where workflow state is kept, as --state: a directory (default <settings dir>/state) or postgres://… shared by every machine",
  ],
  ["HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY", "proxies, read as curl reads them (either case)"],
  ["NODE_EXTRA_CA_CERTS", "a PEM file of extra trusted certificate authorities (a company CA)"],
  ["NO_COLOR", "no colour, as --no-color"],
  ["XDG_CONFIG_HOME, XDG_CACHE_HOME", "where the settings (Linux), the --sandbox state and the start-up code cache are kept"],
];

export const PRECEDENCE = "Precedence: flag > environment > profile setting > built-in default.";

/** The help topics `simadmin help <topic>` answers besides the commands. */
export const HELP_TOPICS = ["options", "environment", "exit-codes"] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

/** The one line every command's help ends with instead of the global options themselves. */
export const GLOBAL_OPTIONS_POINTER =
  "Global options (--profile, -o, --out, --fields, --query, -q, -v, --sandbox, …):\n  simadmin help options";

/** Words of `text` packed into lines of at most `width` columns (a longer word stands alone). */
function pack(words: readonly string[], width: number, join = " "): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && line.length + join.length + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line}${join}${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * Prose reflowed to `width`: blank lines separate paragraphs, a line starting with "- " or
 * a space starts a new line (a list item, an indented line); the rest is joined and wrapped.
 */
export function wrapText(text: string, width: number, indent = ""): string {
  const out: string[] = [];
  for (const paragraph of text.trim().split(/\n\s*\n/)) {
    const items: string[] = [];
    for (const line of paragraph.split("\n")) {
      if (items.length === 0 || /^(- |\s)/.test(line)) items.push(line.trimEnd());
      else items[items.length - 1] += ` ${line.trim()}`;
    }
    if (out.length > 0) out.push("");
    for (const item of items) {
      const lead = /^\s*(- )?/.exec(item)![0];
      const hang = indent + " ".repeat(lead.length);
      const words = item.slice(lead.length).split(/\s+/).filter(Boolean);
      pack(words, width - hang.length).forEach((line, i) => out.push(`${i === 0 ? indent + lead : hang}${line}`));
    }
  }
  return out.join("\n");
}

/** Shell words of a command line, quotes kept, so that a break never falls inside a quoted argument. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  for (const c of line) {
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === " ") {
      if (word !== "") words.push(word);
      word = "";
      continue;
    }
    word += c;
  }
  if (word !== "") words.push(word);
  return words;
}

/**
 * One example as it is typed, `  $ simadmin …`, broken with `\` continuations before
 * `width` (each continuation indented), so it can still be pasted into a shell.
 */
export function wrapExample(example: string, width: number, prompt = "  $ "): string {
  const cont = " ".repeat(prompt.length + 2);
  const lines = pack(shellWords(example), width - prompt.length - 2);
  return lines.map((line, i) => `${i === 0 ? prompt : cont}${line}${i < lines.length - 1 ? " \\" : ""}`).join("\n");
}

/** Two columns: each term, then its description wrapped beside it (a long term on a line of its own). */
export function twoColumns(rows: readonly (readonly [string, string])[], width: number, indent = "  "): string {
  const termWidth = Math.min(Math.max(...rows.map(([term]) => term.length)), 24);
  const gap = 2;
  const textWidth = width - indent.length - termWidth - gap;
  const pad = " ".repeat(indent.length + termWidth + gap);
  return rows
    .flatMap(([term, text]) => {
      const lines = pack(text.split(/\s+/).filter(Boolean), textWidth);
      const head = `${indent}${term}`;
      if (term.length > termWidth) return [head, ...lines.map((line) => pad + line)];
      return lines.map((line, i) => (i === 0 ? `${head.padEnd(pad.length)}${line}` : pad + line));
    })
    .join("\n");
}

/** The description, and the choices when it does not already name them all. */
export function flagText(flag: FlagDeclaration): string {
  const unnamed = flag.choices?.some((choice) => !flag.description.includes(choice));
  return unnamed ? `${flag.description} (${flag.choices!.join(" or ")})` : flag.description;
}

/** `simadmin help options`: the global options every command accepts, before or after it. */
function optionsTopic(width: number): string {
  const rows = [...globalFlags(DECLARATIONS), VERSION_FLAG].map((flag) => [flag.flags, flagText(flag)] as const);
  return [
    "Global options, accepted before or after any command:",
    "",
    twoColumns(rows, width),
    "",
    wrapText(`${PRECEDENCE} Environment variables: simadmin help environment.`, width),
  ].join("\n");
}

function environmentTopic(width: number): string {
  return ["Environment:", "", twoColumns(ENVIRONMENT, width), "", wrapText(PRECEDENCE, width)].join("\n");
}

function exitCodesTopic(width: number): string {
  return [
    "Exit codes:",
    "",
    twoColumns(
      EXIT_CODES.map(([code, meaning]) => [String(code), meaning] as const),
      width,
    ),
  ].join("\n");
}

/** The text of `simadmin help <topic>`, ending with a line break. */
export function helpTopic(topic: HelpTopic, width = HELP_WIDTH): string {
  const text =
    topic === "options" ? optionsTopic(width) : topic === "environment" ? environmentTopic(width) : exitCodesTopic(width);
  return `${text}\n`;
}

export function isHelpTopic(word: string | undefined): word is HelpTopic {
  return (HELP_TOPICS as readonly (string | undefined)[]).includes(word);
}
