// @ts-nocheck
import { DATA_FORMATS, TEXT_AND_DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration, FlagDeclaration } from "../types.js";
import { ENCODING_FLAG } from "../shared/declarations.js";

// assign / unassign --user --sim (docs/service-spec.md §4.5). Plain data: see ../types.ts.

/** --user and --sim, or --from-csv for many (bulk operations; options.ts says which is needed). */
const ids = (command: string): readonly FlagDeclaration[] => [
  { flags: "--user <id>", description: "userId" },
  { flags: "--sim <id>", description: "simulationId" },
  { flags: "--from-csv <file>", description: "every row of a CSV with columns userId,simulationId", values: { kind: "files" } },
  {
    flags: "--resume",
    description: `with --from-csv: continue from <file>.${command}.json without repeating a finished row`,
  },
  { flags: "--dry-run", description: "with --from-csv: validate and print the plan; send nothing" },
  ENCODING_FLAG,
];

export const assign: CommandDeclaration = {
  kind: "command",
  name: "assign",
  description: "assign a simulation to a user and print its deep link; --from-csv for many (version 2)",
  flags: ids("assign"),
  examples: ["simadmin assign --user user-demo --sim sim-001", "simadmin assign --from-csv cohort.csv -o csv --out assigned.csv"],
  api: [2],
  // -o text: the bare deep link, which is what the user needs next.
  outputs: TEXT_AND_DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  load: async () => (await import("./assign.js")).assign,
};

export const unassign: CommandDeclaration = {
  kind: "command",
  name: "unassign",
  description: "unassign a simulation from a user; --from-csv for many (version 2)",
  flags: ids("unassign"),
  examples: ["simadmin unassign --user user-demo --sim sim-001", "simadmin unassign --from-csv leavers.csv --dry-run"],
  api: [2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  load: async () => (await import("./assign.js")).unassign,
};
