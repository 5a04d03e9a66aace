// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runImportStatus: CommandRun = async () => {
  throw new Error("import-status: not implemented yet");
};
