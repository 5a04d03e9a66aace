import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration, GroupDeclaration } from "../types.js";

// auth login | status | logout (docs/cli-contract.md "Configuration"). Plain data: see ../types.ts.

export const auth: GroupDeclaration = {
  kind: "group",
  name: "auth",
  description: "store, show or remove the API key of a profile",
  examples: ["simadmin auth login", "simadmin auth status", "simadmin auth logout"],
};

export const authLogin: CommandDeclaration = {
  kind: "command",
  name: "auth login",
  description: "store the API key for the profile (hidden prompt on a terminal; --with-key reads stdin)",
  flags: [
    { flags: "--with-key", description: "read the key from standard input" },
    { flags: "--no-verify", description: "store the key without checking it (one one-day report request)" },
  ],
  examples: [
    "simadmin auth login --base-url https://api.example.com --org org-42",
    "printf '%s' \"$KEY\" | simadmin --profile prod auth login --with-key",
  ],
  api: "local",
  outputs: "none",
  writesSettings: true,
  needsOrg: false,
  fields: false,
  load: async () => (await import("./auth.js")).login,
};

export const authStatus: CommandDeclaration = {
  kind: "command",
  name: "auth status",
  description: "show profile, base URL, org, API version and the key masked to its last 4 characters",
  examples: ["simadmin auth status", "simadmin --profile prod auth status -o json"],
  api: "local",
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: false,
  fields: true,
  load: async () => (await import("./auth.js")).status,
};

export const authLogout: CommandDeclaration = {
  kind: "command",
  name: "auth logout",
  description: "remove the stored API key of the profile",
  examples: ["simadmin --profile staging auth logout"],
  api: "local",
  outputs: "none",
  writesSettings: true,
  needsOrg: false,
  fields: false,
  load: async () => (await import("./auth.js")).logout,
};
