import { Command, Option } from "commander";
import type { Context } from "./context.js";
import type { CommandResult } from "./output/render.js";
import { REPORT_KINDS } from "./domain/report-kinds.js";

// The whole command surface in one file (after changesets' cli.ts). Each action imports its
// command module only when it runs, so `simadmin --help` loads commander and nothing else.

export type CommandOptions = Record<string, unknown>;
export type CommandRun = (ctx: Context, options: CommandOptions, args: string[]) => Promise<CommandResult | void>;
/** Provided by main.ts: builds the Context, runs the command, prints its result. */
export type Runner = (load: () => Promise<CommandRun>, command: Command) => Promise<void>;

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`;
}

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    unexpected internal error (a bug: please report it)
  2    usage: unknown command or flag, bad argument or date, command not in this API version
  3    authentication: no API key, or the service answered 401
  4    permission: the service answered 403
  5    not found: the service answered 404
  6    invalid data: local CSV validation failed, or the service answered 400
  7    rate limited: 429 still returned after the retries
  8    service unavailable: 5xx, timeout or network failure after the retries
  9    a --wait ran out of time
  10   a bulk import task ended FAILED
  130  interrupted (Ctrl-C)
`;

export function createProgram(runner: Runner, version: string): Command {
  const program = new Command("simadmin");
  // Only main.ts ends the process: commander throws instead of exiting (inherited by every
  // command declared below).
  program.exitOverride();
  program
    .description("Administer the simulation training platform: reports, simulations, links, completions and users.")
    .version(version, "-V, --version", "print the version")
    .showSuggestionAfterError(true)
    .showHelpAfterError("(run with --help for usage)")
    // Global options work after the subcommand too, so each command's help lists them (gh's
    // "inherited flags"). Set before the commands are declared: they copy it.
    .configureHelp({ showGlobalOptions: true })
    .option("--profile <name>", 'settings profile (env SIMADMIN_PROFILE; default "default")')
    .option("--base-url <url>", "service base address, e.g. https://api.example.com (env SIMADMIN_BASE_URL)")
    .option("--org <id>", "organizationId for access calls (env SIMADMIN_ORG)")
    .addOption(new Option("--api-version <n>", "API version (env SIMADMIN_API_VERSION; default 2)").choices(["1", "2"]))
    .addOption(
      new Option(
        "-o, --output <format>",
        "table, json, csv, ndjson, xlsx (only into --out/--out-dir); text (the bare value) for token, link, assign, config get, config path and with --query; default table on a terminal, json otherwise",
      ).choices(["table", "json", "csv", "ndjson", "xlsx", "text"]),
    )
    .option(
      "--out <path>",
      "write the result to a file (atomically; FIFOs and devices written in place) instead of stdout; without -o the extension picks the format (.json .ndjson .csv .xlsx .txt)",
    )
    .option("--fields <list>", "comma-separated columns to keep, in this order")
    .option("--query <expr>", "JMESPath expression applied to the JSON result before it is printed (any format)")
    .addOption(new Option("--delimiter <c>", 'CSV output delimiter: ",", ";" or tab (default ",")').choices([",", ";", "tab"]))
    .option("--bom", "start CSV output with a UTF-8 byte-order mark (Excel)")
    .option("-q, --quiet", "no spinners or progress on stderr")
    .option("-v, --verbose", "HTTP trace on stderr (API key and tokens redacted)")
    .option("--no-color", "no colour (also NO_COLOR)")
    .option("--timeout <seconds>", "per-request timeout in seconds (default 30; reports 120)")
    .option("--retries <n>", "retries after 429, 5xx and network errors (default 5)")
    .option("--sandbox", "run against an in-process local sandbox (no key or settings needed)")
    .addHelpText(
      "after",
      `${EXIT_CODES_HELP}\nEnvironment: SIMADMIN_API_KEY, SIMADMIN_PROFILE, SIMADMIN_BASE_URL, SIMADMIN_ORG, SIMADMIN_API_VERSION,\n  SIMADMIN_CONFIG_DIR, SIMADMIN_RATE_LIMITS, NO_COLOR. Precedence: flag > environment > profile > default.\n${examples("simadmin --sandbox library --user user-demo", "simadmin reports users --month 2026-10 -o csv --out users.csv")}`,
    );

  const act = (load: () => Promise<CommandRun>) =>
    async function (this: Command): Promise<void> {
      await runner(load, this);
    };

  // --- auth -------------------------------------------------------------------------------
  const auth = program
    .command("auth")
    .description("store, show or remove the API key of a profile")
    .addHelpText("after", examples("simadmin auth login", "simadmin auth status", "simadmin auth logout"));
  auth
    .command("login")
    .description("store the API key for the profile (hidden prompt on a terminal; --with-key reads stdin)")
    .option("--with-key", "read the key from standard input")
    .addHelpText(
      "after",
      examples(
        "simadmin auth login --base-url https://api.example.com --org org-42",
        "printf '%s' \"$KEY\" | simadmin --profile prod auth login --with-key",
      ),
    )
    .action(act(async () => (await import("./commands/auth/auth.js")).runAuthLogin));
  auth
    .command("status")
    .description("show profile, base URL, org, API version and the key masked to its last 4 characters")
    .addHelpText("after", examples("simadmin auth status", "simadmin --profile prod auth status -o json"))
    .action(act(async () => (await import("./commands/auth/auth.js")).runAuthStatus));
  auth
    .command("logout")
    .description("remove the stored API key of the profile")
    .addHelpText("after", examples("simadmin --profile staging auth logout"))
    .action(act(async () => (await import("./commands/auth/auth.js")).runAuthLogout));

  // --- config -----------------------------------------------------------------------------
  const config = program
    .command("config")
    .description("profile settings: baseUrl, org, apiVersion, output, timeout")
    .addHelpText(
      "after",
      examples("simadmin config list", "simadmin config set org org-42", "simadmin --profile prod config get baseUrl"),
    );
  config
    .command("list")
    .description("list the profile's settings")
    .addHelpText("after", examples("simadmin config list", "simadmin --profile prod config list -o json"))
    .action(act(async () => (await import("./commands/config/config.js")).runConfigList));
  config
    .command("get")
    .argument("<key>", "baseUrl, org, apiVersion, output or timeout")
    .description("print one setting")
    .addHelpText("after", examples("simadmin config get baseUrl"))
    .action(act(async () => (await import("./commands/config/config.js")).runConfigGet));
  config
    .command("set")
    .argument("<key>", "baseUrl, org, apiVersion, output or timeout")
    .argument("<value>", "the new value (validated)")
    .description("change one setting")
    .addHelpText(
      "after",
      examples("simadmin config set baseUrl https://api.example.com", "simadmin --profile prod config set org org-42"),
    )
    .action(act(async () => (await import("./commands/config/config.js")).runConfigSet));
  config
    .command("unset")
    .argument("<key>", "baseUrl, org, apiVersion, output or timeout")
    .description("remove one setting")
    .addHelpText("after", examples("simadmin config unset output"))
    .action(act(async () => (await import("./commands/config/config.js")).runConfigUnset));
  config
    .command("path")
    .description("print the settings file's path")
    .addHelpText("after", examples("simadmin config path"))
    .action(act(async () => (await import("./commands/config/config.js")).runConfigPath));

  // --- reports ----------------------------------------------------------------------------
  program
    .command("reports")
    .argument("<kind>", `one of ${REPORT_KINDS.join(", ")}, or all`)
    .description("a report for an inclusive date range of any length (split into windows of at most 30 days)")
    .option("--from <date>", "first day, YYYY-MM-DD (with --to)")
    .option("--to <date>", "last day, YYYY-MM-DD, inclusive (with --from)")
    .option("--month <YYYY-MM>", "a calendar month")
    .option("--last <days>", "the last N days written Nd, e.g. 7d; ends yesterday (UTC)")
    .option("--out-dir <dir>", "with `all`: one file per kind, <kind>_<from>_<to>.<ext>")
    .option("--raw", "each window's response untouched, with its dates")
    .addHelpText(
      "after",
      `
Dates are UTC calendar days. A range may not end after today; --month of the current month
ends today; --last Nd is the N whole days ending yesterday (today's data is still partial).
--fields is checked against the first records that arrive. A failed run keeps the windows it
fetched (for 24 h, in the settings dir): the same command run again resumes from them.
${examples(
  "simadmin reports users --month 2026-10",
  "simadmin reports user-results --from 2026-01-01 --to 2026-03-31 -o csv --out q1.csv",
  "simadmin reports all --last 7d -o csv --out-dir ./exports",
)}`,
    )
    .action(act(async () => (await import("./commands/reports/reports.js")).runReports));

  // --- access -----------------------------------------------------------------------------
  program
    .command("library")
    .description("simulations available to a user (version 2)")
    .requiredOption("--user <id>", "userId")
    .option("--tag <tag>", "only simulations with this tag (repeatable)", collect)
    .option("--search <text>", "search term")
    .option("--page <n>", "page number (1-based)")
    .option("--page-size <n>", "items per page")
    .option("--all", "walk every page")
    .addHelpText(
      "after",
      examples("simadmin library --user user-demo", "simadmin library --user user-demo --tag sales --all -o csv"),
    )
    .action(act(async () => (await import("./commands/library/library.js")).runLibrary));
  program
    .command("assign")
    .description("assign a simulation to a user and print its deep link; --from-csv for many (version 2)")
    .option("--user <id>", "userId")
    .option("--sim <id>", "simulationId")
    .option("--from-csv <file>", "every row of a CSV with columns userId,simulationId")
    .option("--resume", "with --from-csv: continue from <file>.assign.json without repeating a finished row")
    .option("--dry-run", "with --from-csv: validate and print the plan; send nothing")
    .addHelpText(
      "after",
      examples(
        "simadmin assign --user user-demo --sim sim-001",
        "simadmin assign --from-csv cohort.csv -o csv --out assigned.csv",
      ),
    )
    .action(act(async () => (await import("./commands/assign/assign.js")).runAssign));
  program
    .command("unassign")
    .description("unassign a simulation from a user; --from-csv for many (version 2)")
    .option("--user <id>", "userId")
    .option("--sim <id>", "simulationId")
    .option("--from-csv <file>", "every row of a CSV with columns userId,simulationId")
    .option("--resume", "with --from-csv: continue from <file>.unassign.json without repeating a finished row")
    .option("--dry-run", "with --from-csv: validate and print the plan; send nothing")
    .addHelpText(
      "after",
      examples("simadmin unassign --user user-demo --sim sim-001", "simadmin unassign --from-csv leavers.csv --dry-run"),
    )
    .action(act(async () => (await import("./commands/assign/assign.js")).runUnassign));
  program
    .command("token")
    .description("a user access token with expiresIn and expiresAt (version 2); -o text prints the bare token")
    .requiredOption("--user <id>", "userId")
    .addHelpText("after", examples("simadmin token --user user-demo", "TOKEN=$(simadmin token --user user-demo -o text)"))
    .action(act(async () => (await import("./commands/token/token.js")).runToken));
  program
    .command("link")
    .description("the complete link <deepLink>?token=<token> for a user; -o text prints the bare URL; --from-csv for many")
    .option("--user <id>", "userId")
    .option("--sim <id>", "simulationId")
    .option("--assign", "take the deep link from assigning the simulation (version 2)")
    .option("--from-csv <file>", "every row of a CSV with columns userId,simulationId (one token per user)")
    .option("--resume", "with --from-csv: continue from <file>.link.json without repeating a finished row")
    .option("--dry-run", "with --from-csv: validate and print the plan; send nothing")
    .addHelpText(
      "after",
      examples(
        "simadmin link --user user-demo --sim sim-001 -o text",
        "simadmin link --user user-demo --sim sim-001 --assign",
        "simadmin link --from-csv cohort.csv --out links.csv",
      ),
    )
    .action(act(async () => (await import("./commands/link/link.js")).runLink));
  program
    .command("completion")
    .description("every attempt of a user at a simulation with its state; --wait polls until one is completed")
    .requiredOption("--user <id>", "userId")
    .requiredOption("--sim <id>", "simulationId")
    .option("--wait", "poll until a completed attempt exists")
    .option("--wait-timeout <duration>", "give up after this long, e.g. 90m, 2h (default 2h)")
    .option("--interval <duration>", "time between polls, e.g. 30s, 5m (default 60s)")
    .option("--since <timestamp>", "count only completions after this ISO 8601 time")
    .addHelpText(
      "after",
      examples(
        "simadmin completion --user user-demo --sim sim-001",
        "simadmin completion --user user-demo --sim sim-002 --wait --wait-timeout 30m",
      ),
    )
    .action(act(async () => (await import("./commands/completion/completion.js")).runCompletion));

  // --- users ------------------------------------------------------------------------------
  const users = program
    .command("users")
    .description("create trainees, one at a time or by CSV import (version 2)")
    .addHelpText(
      "after",
      examples("simadmin users create --email ana@example.com --first-name Ana", "simadmin users import staff.csv --dry-run"),
    );
  users
    .command("create")
    .description("create a trainee (username is set to the email); returns the existing user if there is one")
    .requiredOption("--email <email>", "email, also used as username")
    .option("--first-name <name>", "first name")
    .option("--last-name <name>", "last name")
    .option("--team <name>", "team name")
    .option("--field <key=value>", "another user field (repeatable; not username, email or role)", collect)
    .addHelpText(
      "after",
      examples("simadmin users create --email ana@example.com --first-name Ana --last-name Diaz --team Sales"),
    )
    .action(act(async () => (await import("./commands/users-create/users-create.js")).runUsersCreate));
  users
    .command("import")
    .argument("<file>", "users CSV: firstName,lastName,username,email,role,teamName,status,action")
    .description("validate a users CSV locally, then upload it in batches of at most 750 rows")
    .option("--dry-run", "validate and show the plan; send nothing")
    .option("--skip-invalid", "upload the valid rows only (default: any invalid row stops the import)")
    .option("--wait", "poll each task until COMPLETED or FAILED")
    .option("--wait-timeout <duration>", "give up waiting after this long (default 30m)")
    .option("--resume", "continue from <file>.import.json without uploading a batch twice")
    .option("--encoding <name>", "read a file without BOM in this encoding, e.g. windows-1252 (default UTF-8)")
    .option("--retry-failed", "like --resume, and also send again batches whose task ended FAILED (history kept)")
    .option("-y, --yes", "do not ask for confirmation on a terminal")
    .addHelpText(
      "after",
      examples(
        "simadmin users import staff.csv --dry-run",
        "simadmin users import staff.csv --yes --wait",
        "simadmin users import staff.csv --resume",
        "simadmin users import staff-excel.csv --encoding windows-1252",
        "simadmin users import staff.csv --retry-failed --wait",
      ),
    )
    .addHelpText(
      "after",
      "\nOne run at a time per file: a second run of the same file stops with exit 2 naming the\nfirst one's pid (staff.import.lock). A corrected staff.errors.csv can be imported as it is.",
    )
    .action(act(async () => (await import("./commands/users-import/users-import.js")).runUsersImport));
  program
    .command("import-status")
    .description("status of bulk import tasks (version 2)")
    .requiredOption("--task <id...>", "taskId (repeatable)")
    .option("--wait", "poll until every task is COMPLETED or FAILED")
    .option("--wait-timeout <duration>", "give up waiting after this long (default 30m)")
    .addHelpText(
      "after",
      examples("simadmin import-status --task task-abc123", "simadmin import-status --task t1 --task t2 --wait"),
    )
    .action(act(async () => (await import("./commands/import-status/import-status.js")).runImportStatus));

  program
    .command("api")
    .argument("<path>", "endpoint path under the base URL, version prefix included, e.g. /v2/access-api/user/token")
    .description("a raw POST to any endpoint with the profile's key, rate budgets and retry rules; prints the answer as JSON")
    .option("--data <json>", "the request body (JSON)")
    .option("--input <file>", "read the JSON body from a file, or - for stdin")
    .addHelpText(
      "after",
      `
The budget follows the path (report/… uses the reports budget, the rest the access budget).
Paths known to be safe to repeat are retried after timeouts and 5xx; any other path only when
the service cannot have received it. Without --data or --input the body is {}.
${examples(
  `simadmin api /v2/access-api/user/token --data '{"organizationId":"org-42","userId":"u-123"}'`,
  "simadmin api /v2/report/users --input range.json -o csv",
  'echo \'{"organizationId":"org-42","taskId":"t-1"}\' | simadmin api /v2/access-api/user/bulk-import/status --input -',
)}`,
    )
    .action(act(async () => (await import("./commands/api/api.js")).runApi));

  // --- tooling ----------------------------------------------------------------------------
  program
    .command("sandbox")
    .description("run the local sandbox service in the foreground; prints its base URL and demo keys")
    .option("--port <n>", "port (default: a free one)")
    .option("--host <address>", "address to bind (default 127.0.0.1)")
    .option("--rate-scale <x>", "multiply the rate-limit windows, e.g. 0.1 for fast tests")
    .option("--reset", "forget the state that --sandbox runs keep (imports, assignments, users) and exit")
    .addHelpText(
      "after",
      examples("simadmin sandbox --port 8787", "simadmin sandbox --rate-scale 0.1", "simadmin sandbox --reset"),
    )
    .action(act(async () => (await import("./commands/sandbox/sandbox.js")).runSandbox));
  program
    .command("completion-script")
    .argument("<shell>", "bash, zsh or fish")
    .description("print a shell completion script")
    .addHelpText(
      "after",
      examples(
        "source <(simadmin completion-script bash)",
        "simadmin completion-script fish > ~/.config/fish/completions/simadmin.fish",
      ),
    )
    .action(act(async () => (await import("./commands/completion-script/completion-script.js")).runCompletionScript));

  return program;
}
