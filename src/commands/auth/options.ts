import * as z from "zod";
import { switchFlag } from "../shared/flags.js";

// --no-verify: commander sets `verify: false` (true when not given).
export const LoginOptions = z.object({ withKey: switchFlag, verify: z.boolean().optional() });
export { NoOptions } from "../shared/flags.js";
