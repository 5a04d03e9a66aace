// @ts-nocheck
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// import-status --task <id>… [--wait] (docs/service-spec.md §4.9). Plain data: see ../types.ts.

export const importStatus: CommandDeclaration = {
  kind: "command",
  name: "import-status",
  description: "status of bulk import tasks (version 2)",
  flags: [
    { flags: "--task <id...>", description: "taskId (repeatable)", required: true },
    { flags: "--wait", description: "poll until every task is COMPLETED or FAILED" },
    { flags: "--wait-timeout <duration>", description: "give up waiting after this long (default 30m)" },
  ],
  examples: ["simadmin import-status --task task-abc123", "simadmin import-status --task t1 --task t2 --wait"],
  api: [2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  load: async () => (await import("./import-status.js")).run,
};
