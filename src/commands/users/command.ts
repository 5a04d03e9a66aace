import type { GroupDeclaration } from "../types.js";

// The `users` group: its subcommands live in users-create/, users-import/ and users-sync/.

export const users: GroupDeclaration = {
  kind: "group",
  name: "users",
  description: "create trainees one at a time, import them from a CSV, or sync them with an HR roster (version 2)",
  examples: ["simadmin users create --email ana@example.com --first-name Ana", "simadmin users import staff.csv --dry-run"],
};
