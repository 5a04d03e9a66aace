import type { CommandDeclaration, Declaration } from "./types.js";
import { textCommandsOf } from "./global-flags.js";
import { auth, authLogin, authLogout, authStatus } from "./auth/command.js";
import { config, configGet, configList, configPath, configSet, configUnset } from "./config/command.js";
import { reports } from "./reports/command.js";
import { reportsSync } from "./reports-sync/command.js";
import { library } from "./library/command.js";
import { assign, unassign } from "./assign/command.js";
import { token } from "./token/command.js";
import { link } from "./link/command.js";
import { links, linksRevoke, linksServe } from "./links/command.js";
import { completion } from "./completion/command.js";
import { progress } from "./progress/command.js";
import { progressNotify } from "./progress-notify/command.js";
import { users } from "./users/command.js";
import { usersCreate } from "./users-create/command.js";
import { usersImport } from "./users-import/command.js";
import { usersSync } from "./users-sync/command.js";
import { importStatus } from "./import-status/command.js";
import { sandbox } from "./sandbox/command.js";
import { completionScript } from "./completion-script/command.js";
import { api } from "./api/command.js";
import { state, statePush, stateShow } from "./state/command.js";

// Every command, in the order `simadmin --help` lists them. A new command starts as a copy
// of a folder under src/commands/ and one line here (docs/architecture.md). Plain data only:
// program.ts imports this for --help.

export const DECLARATIONS: readonly Declaration[] = [
  auth,
  authLogin,
  authStatus,
  authLogout,
  config,
  configList,
  configGet,
  configSet,
  configUnset,
  configPath,
  reports,
  reportsSync,
  library,
  assign,
  unassign,
  token,
  link,
  links,
  linksServe,
  linksRevoke,
  completion,
  progress,
  progressNotify,
  users,
  usersCreate,
  usersImport,
  usersSync,
  importStatus,
  state,
  stateShow,
  statePush,
  sandbox,
  completionScript,
  api,
];

export function commandDeclarations(): CommandDeclaration[] {
  return DECLARATIONS.filter((d): d is CommandDeclaration => d.kind === "command");
}

/** The commands that offer `-o text` (one bare value), as their names. */
export function textCommandNames(): string[] {
  return textCommandsOf(DECLARATIONS);
}
