// @ts-nocheck
import * as z from "zod";
import { UsageError } from "../../errors.js";
import { parsedFlag, switchFlag, wholeNumberFlag } from "../shared/flags.js";

export const SandboxOptions = z.object({
  reset: switchFlag,
  port: wholeNumberFlag("--port", 0, 65535).default(0),
  host: z
    .string()
    .optional()
    .transform((host) => (host === undefined || host === "" ? "127.0.0.1" : host)),
  rateScale: parsedFlag((raw) => {
    const scale = Number(raw);
    if (!Number.isFinite(scale) || scale <= 0 || scale > 100)
      throw new UsageError(`--rate-scale: must be a number above 0 (e.g. 0.1), got '${raw}'`);
    return scale;
  }).default(1),
});
