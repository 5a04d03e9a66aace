import * as z from "zod";
import { UsageError } from "../../errors.js";
import { encodingOption } from "../../domain/csv-input/reader.js";
import { parseDeactivateLimit } from "../../domain/users-sync/sync-plan.js";
import { parseMapping, RosterMapError } from "../../domain/users-sync/roster.js";
import { checkMarkImported, markImportedFlag } from "../shared/import-flags.js";
import { DEFAULT_IMPORT_WAIT_TIMEOUT_MS } from "../shared/import-wait.js";
import { sheetFlags } from "../shared/sheet-flags.js";
import { durationFlag, onlyWith, parsedFlag, switchFlag, usageIssue } from "../shared/flags.js";

/** --max-deactivate 10 / 10%, --max-changes 25 / 5%. */
function limitFlag(flag: string) {
  return parsedFlag((text) => {
    const limit = parseDeactivateLimit(text);
    if (limit === undefined)
      throw new UsageError(`${flag}: ${JSON.stringify(text)} is neither a whole number nor a percentage like 10%`);
    return limit;
  });
}

export const UsersSyncOptions = z
  .object({
    plan: switchFlag,
    /** The same as --plan (docs/users-sync.md): users import's --dry-run means "send nothing" too. */
    dryRun: switchFlag,
    maxDeactivate: limitFlag("--max-deactivate").optional(),
    /** Updates (changed values, returners) a run may send: a count, or a percentage of the baseline's users. */
    maxChanges: limitFlag("--max-changes").optional(),
    map: z
      .array(
        parsedFlag((text) => {
          try {
            return parseMapping(text);
          } catch (error) {
            if (error instanceof RosterMapError) throw new UsageError(error.message);
            throw error;
          }
        }),
      )
      .optional(),
    assumeExisting: switchFlag,
    skipInvalid: switchFlag,
    wait: switchFlag,
    waitTimeout: durationFlag("--wait-timeout").optional(),
    resume: switchFlag,
    resendAmbiguous: switchFlag,
    markImported: markImportedFlag.optional(),
    yes: switchFlag,
    encoding: parsedFlag((name) => encodingOption(name)).optional(),
    ...sheetFlags,
  })
  .superRefine((options, ctx) => {
    onlyWith(options, ctx, { key: "wait", flag: "--wait" }, [{ key: "waitTimeout", flag: "--wait-timeout" }]);
    if ((options.plan || options.dryRun) && options.wait)
      usageIssue(ctx, "--wait has nothing to wait for with --plan (nothing is sent)");
    if ((options.plan || options.dryRun) && options.resume) usageIssue(ctx, "--resume sends; it cannot go with --plan");
    // Held batches are settled by a run that sends: --plan only shows them.
    if ((options.plan || options.dryRun) && (options.resendAmbiguous || options.markImported !== undefined))
      usageIssue(ctx, "--resend-ambiguous and --mark-imported settle held batches; they cannot go with --plan");
    checkMarkImported(options, ctx);
  })
  .transform(({ waitTimeout, dryRun, plan, ...rest }) => ({
    ...rest,
    plan: plan || dryRun,
    timeoutMs: waitTimeout ?? DEFAULT_IMPORT_WAIT_TIMEOUT_MS,
  }));

export type UsersSyncOptions = z.output<typeof UsersSyncOptions>;
