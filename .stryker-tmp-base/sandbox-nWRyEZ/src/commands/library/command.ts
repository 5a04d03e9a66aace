// @ts-nocheck
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// library --user (docs/service-spec.md §4.4). Plain data: see ../types.ts.

export const library: CommandDeclaration = {
  kind: "command",
  name: "library",
  description: "simulations available to a user (version 2)",
  flags: [
    { flags: "--user <id>", description: "userId", required: true },
    { flags: "--tag <tag>", description: "only simulations with this tag (repeatable)", repeatable: true },
    { flags: "--search <text>", description: "search term" },
    { flags: "--page <n>", description: "page number (1-based)" },
    { flags: "--page-size <n>", description: "items per page" },
    { flags: "--all", description: "walk every page" },
  ],
  examples: ["simadmin library --user user-demo", "simadmin library --user user-demo --tag sales --all -o csv"],
  api: [2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  load: async () => (await import("./library.js")).run,
};
