import * as z from "zod";
import { nonEmptyFlag, switchFlag } from "../shared/flags.js";

export const PushOptions = z.object({
  to: nonEmptyFlag("--to"),
  force: switchFlag,
});
