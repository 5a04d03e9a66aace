import { TEXT_AND_DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";
import { ENCODING_FLAG } from "../shared/declarations.js";

// link --user --sim [--assign] (docs/service-spec.md §1 steps 2–4). Plain data: see ../types.ts.

export const link: CommandDeclaration = {
  kind: "command",
  name: "link",
  description: "the complete link <deepLink>?token=<token> for a user; -o text prints the bare URL; --from-csv for many",
  flags: [
    { flags: "--user <id>", description: "userId" },
    { flags: "--sim <id>", description: "simulationId" },
    { flags: "--assign", description: "take the deep link from assigning the simulation (version 2)" },
    {
      flags: "--from-csv <file>",
      description: "every row of a CSV with columns userId,simulationId (one token per user; with --durable none)",
      values: { kind: "files" },
    },
    {
      flags: "--resume",
      description: "with --from-csv: continue from <file>.link.json without repeating a finished row (not with --durable)",
    },
    { flags: "--dry-run", description: "with --from-csv: validate and print the plan; send nothing" },
    ENCODING_FLAG,
    {
      flags: "--durable",
      description:
        "a durable link <links-url>/l/<id> for mailing: no request now, a fresh token when the trainee clicks (see `links serve`)",
    },
    {
      flags: "--valid-for <dur>",
      description: "with --durable: how long the link works, e.g. 30d (default), 2w, 12h; at most 365d",
    },
    { flags: "--valid-until <date>", description: "with --durable: the link works through this day (YYYY-MM-DD, local time)" },
  ],
  help: "A plain link carries a user token that the service lets live one hour (3600 s): fine to open now, dead by the next morning, and a mail gateway that opens links to scan them can spend it first. To mail a link, make it --durable: it stays valid for weeks (--valid-for, default 30 days) and gets a fresh token only when the trainee clicks Start on the page simadmin links serve shows. --from-csv --durable makes a mail-merge file of durable links, one per row, with no request to the service. Durable links need the link service's address: --links-url, SIMADMIN_LINKS_URL or `simadmin config set linksUrl <url>`.",
  examples: [
    "simadmin link --user user-demo --sim sim-001 -o text",
    "simadmin link --user user-demo --sim sim-001 --assign",
    "simadmin link --from-csv cohort.csv --out links.csv",
    "simadmin link --user user-demo --sim sim-001 --durable --links-url https://links.example.com",
    "simadmin link --from-csv cohort.csv --durable --valid-for 6w -o csv --out mail-merge.csv",
  ],
  // Version 1 has deep-links but not user/token (docs/service-spec.md §9.2), and a link
  // without a token does not admit the user: refused before anything is sent rather than
  // failing half-way.
  api: [2],
  versionNote: "the user token (user/token) exists only in version 2, and the deep link alone is not usable without a token",
  outputs: TEXT_AND_DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  // Every link carries a token or admits its user (durable).
  secretOutput: true,
  load: async () => (await import("./link.js")).run,
};
