// @ts-nocheck
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// completion --user --sim: simulation attempts (docs/service-spec.md §4.3) — not shell
// completion, which is `completion-script`. Plain data: see ../types.ts.

export const completion: CommandDeclaration = {
  kind: "command",
  name: "completion",
  description: "every attempt of a user at a simulation with its state; --wait polls until one is completed",
  flags: [
    { flags: "--user <id>", description: "userId", required: true },
    { flags: "--sim <id>", description: "simulationId", required: true },
    { flags: "--wait", description: "poll until a completed attempt exists" },
    { flags: "--wait-timeout <duration>", description: "give up after this long, e.g. 90m, 2h (default 2h)" },
    { flags: "--interval <duration>", description: "time between polls, e.g. 30s, 5m (default 60s)" },
    { flags: "--since <timestamp>", description: "count only completions after this ISO 8601 time" },
  ],
  examples: [
    "simadmin completion --user user-demo --sim sim-001",
    "simadmin completion --user user-demo --sim sim-002 --wait --wait-timeout 30m",
  ],
  api: [1, 2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  load: async () => (await import("./completion.js")).run,
};
