// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runLibrary: CommandRun = async () => {
  throw new Error("library: not implemented yet");
};
