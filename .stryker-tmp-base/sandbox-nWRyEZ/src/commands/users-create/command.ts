// @ts-nocheck
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// users create --email … (docs/service-spec.md §4.7). Plain data: see ../types.ts.

export const usersCreate: CommandDeclaration = {
  kind: "command",
  name: "users create",
  description: "create a trainee (username is set to the email); returns the existing user if there is one",
  flags: [
    { flags: "--email <email>", description: "email, also used as username", required: true },
    { flags: "--first-name <name>", description: "first name" },
    { flags: "--last-name <name>", description: "last name" },
    { flags: "--team <name>", description: "team name" },
    {
      flags: "--field <key=value>",
      description: "another user field (repeatable; not username, email or role)",
      repeatable: true,
    },
  ],
  examples: ["simadmin users create --email ana@example.com --first-name Ana --last-name Diaz --team Sales"],
  api: [2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  load: async () => (await import("./users-create.js")).run,
};
