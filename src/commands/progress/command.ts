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
    { flags: "--links", description: "a fresh complete link (deep link + user token) for every pair not completed" },
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
completed are cached in the settings directory and not asked again (--refresh asks anew).`,
  examples: [
    "simadmin progress --from-csv cohort.csv",
    "simadmin progress --from-csv cohort.xlsx --split-by manager --out-dir ./mail -o xlsx",
    "simadmin progress --from-csv cohort.csv --wait --wait-timeout 4h",
    "simadmin progress --from-csv cohort.csv --links -o csv --out reminders.csv",
  ],
  api: [1, 2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  // --links: each link carries a user token.
  secretOutput: "links",
  outputDirectory: "outDir",
  load: async () => (await import("./progress.js")).run,
};
