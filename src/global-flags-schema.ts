import * as z from "zod";
import { OUTPUT_FORMATS } from "./output/render.js";
import type { GlobalOptions } from "./settings/resolve.js";

/**
 * Commander's global options, checked by schema like every command's own (house style: zod at
 * every boundary). The runner checks them by hand first (output-plan.ts readGlobalFlags) and
 * loads this module only for options that fail there: its issue is the message.
 */
export const GlobalFlags = z.object({
  profile: z.string().optional(),
  baseUrl: z.string().optional(),
  org: z.string().optional(),
  apiVersion: z.string().optional(),
  output: z.enum(OUTPUT_FORMATS).optional(),
  out: z.string().min(1, "--out needs a file name").optional(),
  fields: z.string().optional(),
  query: z.string().optional(),
  bom: z.boolean().optional(),
  delimiter: z.enum([",", ";", "tab"]).optional(),
  quiet: z.boolean().optional(),
  verbose: z.boolean().optional(),
  color: z.boolean().optional(),
  timeout: z.string().optional(),
  retries: z.string().optional(),
  sandbox: z.boolean().optional(),
  pingUrl: z.string().min(1, "--ping-url needs the monitor's URL").optional(),
  junit: z.string().min(1, "--junit needs a file name").optional(),
  linksUrl: z.string().optional(),
  state: z.string().min(1, "--state needs a directory or a postgres:// URL").optional(),
  lockTimeout: z.string().optional(),
}) satisfies z.ZodType<GlobalOptions>;

export type GlobalFlagValues = z.output<typeof GlobalFlags>;
