import * as z from "zod";
import { encodingOption } from "../../domain/csv-input/reader.js";
import { parseValidFor } from "../../domain/durable-links.js";
import { DEFAULT_DUE_SOON_DAYS } from "../../engines/progress/progress-plan.js";
import { durationFlag, nonEmptyFlag, onlyWith, parsedFlag, switchFlag, usageIssue, wholeNumberFlag } from "../shared/flags.js";

export const DEFAULT_WAIT_TIMEOUT_MS = 2 * 3_600_000;

export const ProgressOptions = z
  .object({
    fromCsv: nonEmptyFlag("--from-csv"),
    wait: switchFlag,
    waitTimeout: durationFlag("--wait-timeout").optional(),
    links: switchFlag,
    durable: switchFlag,
    validFor: parsedFlag(parseValidFor).optional(),
    validUntil: z.string().optional(),
    refresh: switchFlag,
    splitBy: nonEmptyFlag("--split-by").optional(),
    outDir: nonEmptyFlag("--out-dir").optional(),
    dueSoon: wholeNumberFlag("--due-soon", 0, 3650).optional(),
    dryRun: switchFlag,
    /** --encoding of a CSV file, resolved to its WHATWG name (users-CSV reading rules). */
    encoding: parsedFlag((name) => encodingOption(name)).optional(),
  })
  .superRefine((options, ctx) => {
    onlyWith(options, ctx, { key: "wait", flag: "--wait" }, [{ key: "waitTimeout", flag: "--wait-timeout" }]);
    if (options.durable && !options.links) {
      usageIssue(ctx, "--durable applies only with --links", "add --links, or drop --durable");
    }
    onlyWith(options, ctx, { key: "durable", flag: "--durable" }, [
      { key: "validFor", flag: "--valid-for" },
      { key: "validUntil", flag: "--valid-until" },
    ]);
    if (options.validFor !== undefined && options.validUntil !== undefined) {
      usageIssue(ctx, "--valid-for and --valid-until cannot go together", "give one of them");
    }
    if ((options.splitBy === undefined) !== (options.outDir === undefined)) {
      usageIssue(
        ctx,
        "--split-by <column> and --out-dir <dir> go together",
        "give both, e.g. --split-by manager --out-dir ./mail",
      );
    }
  })
  .transform(({ waitTimeout, dueSoon, ...rest }) => ({
    ...rest,
    timeoutMs: waitTimeout ?? DEFAULT_WAIT_TIMEOUT_MS,
    dueSoonDays: dueSoon ?? DEFAULT_DUE_SOON_DAYS,
  }));
export type ProgressOptions = z.output<typeof ProgressOptions>;
