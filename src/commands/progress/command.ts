import { DATA_FORMATS } from "../output-formats.js";
import { ENCODING_FLAG } from "../shared/declarations.js";
import type { CommandDeclaration } from "../types.js";

// progress --from-csv: who has completed what was assigned (docs/cli-contract.md "Progress").
// Plain data: see ../types.ts.

export const progress: CommandDeclaration = {
  kind: "command",
  name: "progress",
  description: "who has completed what was assigned: a state per user and simulation of a CSV or .xlsx",
  flags: [
    {
      flags: "--from-csv <file>",
      description: "userId,simulationId[,dueDate] and any other columns (.csv or .xlsx)",
      required: true,
      values: { kind: "files" },
    },
    { flags: "--wait", description: "keep polling the pairs not completed until all are" },
    { flags: "--wait-timeout <duration>", description: "with --wait: give up after this long, e.g. 90m, 2h (default 2h)" },
    {
      flags: "--links",
      description: "a fresh complete link (deep link + user token, valid 1 hour) for every pair not completed",
    },
    {
      flags: "--durable",
      description: "with --links: durable links <links-url>/l/<id> for mailing, made without a request (see links serve)",
    },
    {
      flags: "--valid-for <dur>",
      description: "with --durable: how long the links work, e.g. 30d (default), 2w; at most 365d",
    },
    { flags: "--valid-until <date>", description: "with --durable: the links work through this day (YYYY-MM-DD, local time)" },
    { flags: "--refresh", description: "ask again about pairs cached as completed" },
    { flags: "--split-by <column>", description: "one file per value of this column (with --out-dir)" },
    { flags: "--out-dir <dir>", description: "with --split-by: where the files go", values: { kind: "dirs" } },
    { flags: "--due-soon <days>", description: "pairs due within this many days are asked first after overdue ones (default 7)" },
    { flags: "--dry-run", description: "print the plan (pairs to ask, cached, time the budget needs) and send nothing" },
    ENCODING_FLAG,
  ],
  help: `States: completed (a completed attempt exists), in-progress (attempts, none completed),
not-started, overdue (not completed and past dueDate, a UTC day). Under --api-version 1 the
service returns completed attempts only: completed, not-started or overdue. Pairs seen
completed are cached in the settings directory and not asked again (--refresh asks anew).
A --links link carries a user token that lives one hour; to mail the links, add --durable:
they stay valid for weeks and get a fresh token when the trainee clicks Start on the page of
simadmin links serve (needs --links-url, SIMADMIN_LINKS_URL or the profile's linksUrl).`,
  examples: [
    "simadmin progress --from-csv cohort.csv",
    "simadmin progress --from-csv cohort.xlsx --split-by manager --out-dir ./mail -o xlsx",
    "simadmin progress --from-csv cohort.csv --wait --wait-timeout 4h",
    "simadmin progress --from-csv cohort.csv --links --durable -o csv --out reminders.csv",
  ],
  api: [1, 2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  // --links: each link carries a user token.
  secretOutput: "links",
  outputDirectory: "outDir",
  // Only an -o or a profile's output setting chooses; the default never fits a file: CSV.
  outputDirectoryFormat: "csv",
  load: async () => (await import("./progress.js")).run,
};
