import * as z from "zod";
import { UsageError } from "../../errors.js";
import { parseAcceptedTasks } from "../../domain/users-csv/import-manifest.js";
import { encodingOption } from "../../domain/csv-input/reader.js";
import { checkMarkImported, markImportedFlag } from "../shared/import-flags.js";
import { DEFAULT_IMPORT_WAIT_TIMEOUT_MS } from "../shared/import-wait.js";
import { sheetFlags } from "../shared/sheet-flags.js";
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
    /** Under --resume: also send again batches whose earlier upload may have been received (docs/import-safety.md). */
    resendAmbiguous: switchFlag,
    /** Under --resume: held batches the user checked were imported; recorded without sending (docs/import-safety.md). */
    markImported: markImportedFlag.optional(),
    /** Under --resume: the taskId an accepted batch got when the manifest could not record it (disk full). */
    acceptedTask: parsedFlag((text) => {
      const tasks = parseAcceptedTasks(text);
      if (tasks === undefined)
        throw new UsageError(`--accepted-task: ${JSON.stringify(text)} is not <batch>=<taskId>, e.g. 2=task-1a2b`);
      return tasks;
    }).optional(),
    yes: switchFlag,
    /** --encoding, resolved to its WHATWG name; undefined: BOM or UTF-8 (docs/cli-contract.md "Users CSV"). */
    // Checked before anything is read or sent: an unknown name is a usage error (exit 2).
    encoding: parsedFlag((name) => encodingOption(name)).optional(),
    ...sheetFlags,
  })
  .superRefine((options, ctx) => {
    onlyWith(options, ctx, { key: "wait", flag: "--wait" }, [{ key: "waitTimeout", flag: "--wait-timeout" }]);
    if (options.resendAmbiguous && !options.resume && !options.retryFailed)
      usageIssue(
        ctx,
        "--resend-ambiguous applies only with --resume (or --retry-failed)",
        "add --resume: it continues the import recorded in <file>.import.json",
      );
    if (options.markImported !== undefined && !options.resume && !options.retryFailed)
      usageIssue(
        ctx,
        "--mark-imported applies only with --resume",
        "add --resume: it continues the import recorded in the manifest",
      );
    checkMarkImported(options, ctx);
    if (options.acceptedTask !== undefined && !options.resume && !options.retryFailed)
      usageIssue(ctx, "--accepted-task applies only with --resume", "add --resume");
    if (options.acceptedTask !== undefined && options.resendAmbiguous)
      usageIssue(ctx, "--accepted-task and --resend-ambiguous contradict each other: an accepted batch is never sent again");
    if (options.dryRun && options.wait) usageIssue(ctx, "--wait has nothing to wait for with --dry-run (nothing is sent)");
  })
  .transform(({ waitTimeout, ...rest }) => ({ ...rest, timeoutMs: waitTimeout ?? DEFAULT_IMPORT_WAIT_TIMEOUT_MS }));

export type UsersImportOptions = z.output<typeof UsersImportOptions>;
