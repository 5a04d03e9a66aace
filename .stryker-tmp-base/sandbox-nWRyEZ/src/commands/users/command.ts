// @ts-nocheck
import type { GroupDeclaration } from "../types.js";

// The `users` group: its subcommands live in users-create/ and users-import/.

export const users: GroupDeclaration = {
  kind: "group",
  name: "users",
  description: "create trainees, one at a time or by CSV import (version 2)",
  examples: ["simadmin users create --email ana@example.com --first-name Ana", "simadmin users import staff.csv --dry-run"],
};
