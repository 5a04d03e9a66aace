import * as z from "zod";
import { rangeSpecOf, type RangeSpec } from "../../domain/date-windows.js";
import { UsageError } from "../../errors.js";
import { switchFlag, usageIssue } from "../shared/flags.js";

// reports: one way of giving the range (--from with --to, --month or --last), checked here
// once and handed to the command as `range`; the dates themselves are checked against
// today (the injected clock) by the command.

export const ReportsOptions = z
  .object({
    from: z.string().optional(),
    to: z.string().optional(),
    month: z.string().optional(),
    last: z.string().optional(),
    outDir: z.string().min(1, "--out-dir needs a directory").optional(),
    raw: switchFlag,
    dryRun: switchFlag,
  })
  .transform((options, ctx) => {
    let range: RangeSpec;
    try {
      range = rangeSpecOf(options);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      usageIssue(ctx, error.message, error.hint);
      return z.NEVER;
    }
    return { outDir: options.outDir, raw: options.raw, dryRun: options.dryRun, range };
  });

export type ReportsOptions = z.output<typeof ReportsOptions>;
