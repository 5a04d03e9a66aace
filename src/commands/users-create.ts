// placeholder until the command is implemented (work in progress, not a finished command)
import type { CommandRun } from "../program.js";

export const runUsersCreate: CommandRun = async () => {
  throw new Error("users-create: not implemented yet");
};
