// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runSandbox: CommandRun = async () => {
  throw new Error("sandbox: not implemented yet");
};
