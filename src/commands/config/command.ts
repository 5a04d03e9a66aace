import { DATA_FORMATS, TEXT_AND_DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration, GroupDeclaration, ValueSource } from "../types.js";

// config list | get | set | unset | path (docs/cli-contract.md "Configuration"). Plain data: see ../types.ts.

// The setting names, spelled out here because the schema module (zod) may not load for --help;
// test/unit/declarations.test.ts checks them against settings/schema.ts.
const SETTING_KEYS: ValueSource = {
  kind: "words",
  words: ["baseUrl", "org", "apiVersion", "output", "timeout", "linksUrl", "state"],
};
const KEY = { name: "key", description: "baseUrl, org, apiVersion, output, timeout, linksUrl or state", values: SETTING_KEYS };
const LOCAL = { api: "local", writesSettings: false, needsOrg: false } as const;

export const config: GroupDeclaration = {
  kind: "group",
  name: "config",
  description: "profile settings: baseUrl, org, apiVersion, output, timeout, linksUrl, state",
  examples: ["simadmin config list", "simadmin config set org org-42", "simadmin --profile prod config get baseUrl"],
};

export const configList: CommandDeclaration = {
  kind: "command",
  name: "config list",
  description: "list the profile's settings",
  examples: ["simadmin config list", "simadmin --profile prod config list -o json"],
  ...LOCAL,
  outputs: DATA_FORMATS,
  fields: true,
  load: async () => (await import("./config.js")).list,
};

export const configGet: CommandDeclaration = {
  kind: "command",
  name: "config get",
  args: [KEY],
  description: "print one setting",
  examples: ["simadmin config get baseUrl"],
  ...LOCAL,
  outputs: TEXT_AND_DATA_FORMATS,
  ownFormat: "text",
  fields: true,
  load: async () => (await import("./config.js")).get,
};

export const configSet: CommandDeclaration = {
  kind: "command",
  name: "config set",
  args: [KEY, { name: "value", description: "the new value (validated)" }],
  description: "change one setting",
  examples: ["simadmin config set baseUrl https://api.example.com", "simadmin --profile prod config set org org-42"],
  ...LOCAL,
  writesSettings: true,
  outputs: "none",
  fields: false,
  load: async () => (await import("./config.js")).set,
};

export const configUnset: CommandDeclaration = {
  kind: "command",
  name: "config unset",
  args: [KEY],
  description: "remove one setting",
  examples: ["simadmin config unset output"],
  ...LOCAL,
  writesSettings: true,
  outputs: "none",
  fields: false,
  load: async () => (await import("./config.js")).unset,
};

export const configPath: CommandDeclaration = {
  kind: "command",
  name: "config path",
  description: "print the settings file's path",
  examples: ["simadmin config path"],
  ...LOCAL,
  outputs: TEXT_AND_DATA_FORMATS,
  ownFormat: "text",
  fields: true,
  load: async () => (await import("./config.js")).path,
};
