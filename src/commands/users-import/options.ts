import * as z from "zod";
import { encodingOption } from "../../domain/csv-input/reader.js";
import { DEFAULT_IMPORT_WAIT_TIMEOUT_MS } from "../shared/import-wait.js";
import { durationFlag, onlyWith, parsedFlag, switchFlag, usageIssue } from "../shared/flags.js";

export const UsersImportOptions = z
  .object({
    dryRun: switchFlag,
    skipInvalid: switchFlag,
    wait: switchFlag,
    waitTimeout: durationFlag("--wait-timeout").optional(),
    resume: switchFlag,
    /** Also send again batches whose task ended FAILED (and ambiguous ones), keeping their history. */
    retryFailed: switchFlag,
    /** Under --resume: also send again batches whose earlier upload may have been received (issue 22 item 1). */
    resendAmbiguous: switchFlag,
    yes: switchFlag,
    /** --encoding, resolved to its WHATWG name; undefined: BOM or UTF-8 (docs/cli-contract.md "Users CSV"). */
    // Checked before anything is read or sent: an unknown name is a usage error (exit 2).
    encoding: parsedFlag((name) => encodingOption(name)).optional(),
  })
  .superRefine((options, ctx) => {
    onlyWith(options, ctx, { key: "wait", flag: "--wait" }, [{ key: "waitTimeout", flag: "--wait-timeout" }]);
    if (options.resendAmbiguous && !options.resume && !options.retryFailed)
      usageIssue(
        ctx,
        "--resend-ambiguous applies only with --resume (or --retry-failed)",
        "add --resume: it continues the import recorded in <file>.import.json",
      );
    if (options.dryRun && options.wait) usageIssue(ctx, "--wait has nothing to wait for with --dry-run (nothing is sent)");
  })
  .transform(({ waitTimeout, ...rest }) => ({ ...rest, timeoutMs: waitTimeout ?? DEFAULT_IMPORT_WAIT_TIMEOUT_MS }));

export type UsersImportOptions = z.output<typeof UsersImportOptions>;
