// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runLink: CommandRun = async () => {
  throw new Error("link: not implemented yet");
};
