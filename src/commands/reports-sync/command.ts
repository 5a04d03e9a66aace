import { REPORT_KINDS } from "../../domain/report-kinds.js";
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// reports sync (docs/cli-contract.md, Sync). Plain data: see ../types.ts.

export const reportsSync: CommandDeclaration = {
  kind: "command",
  name: "reports sync",
  description: "keep a DuckDB or PostgreSQL database of every report kind up to date, fetching only what is missing or open",
  flags: [
    {
      flags: "--db <target>",
      description: "a DuckDB file (created when missing) or a postgres://user@host:port/db URL",
      required: true,
      values: { kind: "files" },
    },
    {
      flags: "--kinds <list>",
      description: `comma-separated report kinds (default: all seven: ${REPORT_KINDS.join(", ")})`,
      // The shells complete the first kind of the list (docs/shell-completion.md).
      values: { kind: "words", words: REPORT_KINDS },
    },
    {
      flags: "--since <date>",
      description: "where history starts, YYYY-MM-DD (default: 90 days back on the first run, then where it started)",
    },
    {
      flags: "--open-days <n>",
      description: "a window is fetched again until this many days after its end (default 2; reports lag behind)",
    },
    { flags: "--dry-run", description: "print the windows a run would fetch, the requests and the least time; send nothing" },
    {
      flags: "--force",
      description:
        "sync even when the database holds another service's, organization's or key's reports (their windows are replaced)",
    },
    {
      flags: "--dbt-sources <file>",
      description: "also write a dbt sources.yml for the tables, with freshness on fetched_at",
      values: { kind: "files" },
    },
  ],
  help: `Windows are fixed 30-day blocks counted from 1970-01-01, so a window is always the same
request; each is replaced whole in one transaction (a killed run leaves it old or new). A
run fetches the windows missing since --since, the one that holds today, and those that
ended less than --open-days days before their last fetch: a nightly run costs one or two
requests per kind. Tables: one per kind (syms_result, …) with window_start, window_end,
fetched_at, row_number (the primary key: window_start, row_number), raw (JSON) and a
snake_case column per field; simadmin_sync_windows records each fetch and whose data it is,
simadmin_sync_columns which column holds which field. Runs into one database wait for each
other (--lock-timeout); a database holding another tenant's reports is refused without
--force.`,
  examples: [
    "simadmin reports sync --db reports.duckdb",
    "simadmin reports sync --db reports.duckdb --since 2025-01-01 --dry-run",
    "simadmin reports sync --db postgres://db.internal/reports --kinds users,teams-result",
  ],
  api: [1, 2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: false,
  fields: true,
  outerFlagsHint:
    "a sync starts at --since YYYY-MM-DD and always runs up to today, into --db (no --from/--to/--month/--last, --raw or --out-dir); see simadmin reports sync --help",
  load: async () => (await import("./reports-sync.js")).run,
};
