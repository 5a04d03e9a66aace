import type * as z from "zod";
import { UsageError } from "../../errors.js";
import { parseBatchNumbers } from "../../domain/users-csv/import-manifest.js";
import { parsedFlag, usageIssue } from "./flags.js";

// Flags `users import` and `users sync` share for batches held back as possibly received
// (docs/import-safety.md "Held batches").

/** --mark-imported 2,3: batch numbers as the held-batch message names them. */
export const markImportedFlag = parsedFlag((text) => {
  const numbers = parseBatchNumbers(text);
  if (numbers === undefined)
    throw new UsageError(`--mark-imported: ${JSON.stringify(text)} is not a list of batch numbers like 2 or 2,3`);
  return numbers;
});

/** --mark-imported contradicts --resend-ambiguous: a held batch is either imported already or sent again. */
export function checkMarkImported(
  options: { markImported?: number[] | undefined; resendAmbiguous: boolean },
  ctx: z.RefinementCtx,
): void {
  if (options.markImported !== undefined && options.resendAmbiguous)
    usageIssue(
      ctx,
      "--mark-imported and --resend-ambiguous contradict each other: a held batch is either imported already or sent again",
      "run one of them; a later run can settle other batches the other way",
    );
}
