// @ts-nocheck
import * as z from "zod";
import { switchFlag } from "../shared/flags.js";

export const LoginOptions = z.object({ withKey: switchFlag });
export { NoOptions } from "../shared/flags.js";
