import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration, GroupDeclaration } from "../types.js";

// state show | push (docs/cli-contract.md "State", docs/state.md). Plain data: see ../types.ts.

const LOCAL = { api: "local", writesSettings: false, needsOrg: false } as const;

export const state: GroupDeclaration = {
  kind: "group",
  name: "state",
  description: "the state store of workflows (users sync, progress, links, reminders): what it holds, moving it",
  examples: ["simadmin state show", "simadmin state push --to postgres://simadmin@db.example.com/ops"],
};

export const stateShow: CommandDeclaration = {
  kind: "command",
  name: "state show",
  description: "what the state store holds: kinds, tenants, entry counts and ages (never values or secrets)",
  help: `Reads the store chosen by --state, SIMADMIN_STATE or the profile's state setting
(default: the directory state under the settings directory). A PostgreSQL URL's password is
never shown.`,
  examples: ["simadmin state show", "simadmin --state postgres://simadmin@db.example.com/ops state show -o json"],
  ...LOCAL,
  outputs: DATA_FORMATS,
  fields: true,
  load: async () => (await import("./show.js")).run,
};

export const statePush: CommandDeclaration = {
  kind: "command",
  name: "state push",
  description: "copy the whole state store into another one (e.g. a directory into PostgreSQL)",
  flags: [
    {
      flags: "--to <dir|url>",
      description: "the target store: a directory or postgres://…",
      required: true,
      values: { kind: "dirs" },
    },
    {
      flags: "--force",
      description: "also into a target that holds state: each kind pushed replaces the target's of the same tenant",
    },
  ],
  help: `Copies every entry (with its change time) of the current store into the target. A
target that holds anything is refused (exit 2) unless --force is given; run it while no other
simadmin run uses either store.`,
  examples: [
    "simadmin state push --to postgres://simadmin@db.example.com/ops",
    "SIMADMIN_STATE=postgres://db.example/ops simadmin state push --to ./copy --force",
  ],
  ...LOCAL,
  outputs: DATA_FORMATS,
  fields: true,
  load: async () => (await import("./push.js")).run,
};
