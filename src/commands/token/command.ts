import { TEXT_AND_DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// token --user (docs/service-spec.md §4.6). Plain data: see ../types.ts.

export const token: CommandDeclaration = {
  kind: "command",
  name: "token",
  description: "a user access token with expiresIn and expiresAt (version 2); -o text prints the bare token",
  flags: [{ flags: "--user <id>", description: "userId", required: true }],
  examples: ["simadmin token --user user-demo", "TOKEN=$(simadmin token --user user-demo -o text)"],
  api: [2],
  outputs: TEXT_AND_DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  // It prints a user token.
  secretOutput: true,
  load: async () => (await import("./token.js")).run,
};
