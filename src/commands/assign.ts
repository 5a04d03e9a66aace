// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runAssign: CommandRun = async () => {
  throw new Error("assign: not implemented yet");
};
export const runUnassign: CommandRun = async () => {
  throw new Error("assign: not implemented yet");
};
