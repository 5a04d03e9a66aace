import * as z from "zod";
import { checkRangeFlags } from "../../domain/date-windows.js";
import { UsageError } from "../../errors.js";
import { switchFlag, usageIssue } from "../shared/flags.js";

// reports: one way of giving the range (--from with --to, --month or --last); the dates
// themselves are checked against today (the injected clock) by the command.

export const ReportsOptions = z
  .object({
    from: z.string().optional(),
    to: z.string().optional(),
    month: z.string().optional(),
    last: z.string().optional(),
    outDir: z.string().min(1, "--out-dir needs a directory").optional(),
    raw: switchFlag,
  })
  .superRefine((options, ctx) => {
    try {
      checkRangeFlags(options);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      usageIssue(ctx, error.message, error.hint);
    }
  });

export type ReportsOptions = z.output<typeof ReportsOptions>;
