// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runReports: CommandRun = async () => {
  throw new Error("reports: not implemented yet");
};
