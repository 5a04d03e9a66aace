import { REPORT_KINDS } from "../../domain/report-kinds.js";
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// reports <kind>|all (docs/cli-contract.md "Dates", "Records of unknown shape"). Plain data: see ../types.ts.

export const reports: CommandDeclaration = {
  kind: "command",
  name: "reports",
  args: [
    {
      name: "kind",
      description: `one of ${REPORT_KINDS.join(", ")}, or all`,
      values: { kind: "words", words: [...REPORT_KINDS, "all"] },
    },
  ],
  description: "a report for an inclusive date range of any length (split into windows of at most 30 days)",
  flags: [
    { flags: "--from <date>", description: "first day, YYYY-MM-DD (with --to)" },
    { flags: "--to <date>", description: "last day, YYYY-MM-DD, inclusive (with --from)" },
    { flags: "--month <YYYY-MM>", description: "a calendar month" },
    { flags: "--last <days>", description: "the last N days written Nd, e.g. 7d; ends yesterday (UTC)" },
    {
      flags: "--out-dir <dir>",
      description: "with `all`: one file per kind, <kind>_<from>_<to>.<ext>",
      values: { kind: "dirs" },
    },
    { flags: "--raw", description: "each window's response untouched, with its dates" },
    { flags: "--dry-run", description: "send nothing: print the windows, the requests and the least time they take" },
  ],
  help: `Dates are UTC calendar days. A range may not end after today; --month of the current month
ends today; --last Nd is the N whole days ending yesterday (today's data is still partial).
--fields is checked against the first records that arrive. A failed run keeps the windows it
fetched (for 24 h, in the settings dir): the same command run again resumes from them.`,
  examples: [
    "simadmin reports users --month 2026-10",
    "simadmin reports user-results --from 2026-01-01 --to 2026-03-31 -o csv --out q1.csv",
    "simadmin reports all --last 7d -o csv --out-dir ./exports",
  ],
  api: [1, 2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: false,
  fields: true,
  outputDirectory: "outDir",
  load: async () => (await import("./reports.js")).run,
};
