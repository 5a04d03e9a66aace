// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runCompletionScript: CommandRun = async () => {
  throw new Error("completion-script: not implemented yet");
};
