// @ts-nocheck
import * as z from "zod";
import { usageIssue } from "../shared/flags.js";

export const ApiOptions = z.object({ data: z.string().optional(), input: z.string().optional() }).superRefine((options, ctx) => {
  if (options.data !== undefined && options.input !== undefined)
    usageIssue(ctx, "give --data <json> or --input <file|->, not both");
});
export type ApiOptions = z.output<typeof ApiOptions>;
