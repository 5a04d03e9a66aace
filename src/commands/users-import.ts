// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runUsersImport: CommandRun = async () => {
  throw new Error("users-import: not implemented yet");
};
