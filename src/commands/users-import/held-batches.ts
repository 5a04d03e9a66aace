import { ServiceError } from "../../errors.js";
import { type ManifestBatch, rowRange } from "../../domain/users-csv/import-manifest.js";
import type { ManifestStore } from "./side-files.js";

// Batches an earlier run may have delivered, which a --resume does not send again without
// --resend-ambiguous: the error that names them and the ways out.

/**
 * Exit 8 ("the service's answer is unknown", docs/cli-contract.md "Retries"): batches an
 * earlier run may have delivered were held back; each is named with how to check it.
 */
export function heldError(held: readonly ManifestBatch[], total: number, rerun: string, store: ManifestStore): ServiceError {
  const numbers = held.map((b) => b.number).join(",");
  const names = held.map((b) => `batch ${b.number} of ${total} (${rowRange(b)})`).join(", ");
  const tasks = store.manifest.batches.filter((b) => b.taskId !== undefined);
  return new ServiceError(
    `${names} may have been received by the service in an earlier run (killed or cut off after the upload began); not sent again`,
    {
      delivery: "not-sent",
      hint:
        `the service has no idempotency key, so check in the app whether the users of ${held.length === 1 ? "those rows" : "those batches' rows"} exist` +
        ` (an "accepted: batch N of ${total}, task <id>" line printed by that run can be checked with \`simadmin import-status --task <id>\`)` +
        (tasks.length > 0 && tasks.length <= 5 ? `; the recorded tasks: ${tasks.map((b) => b.taskId).join(", ")}` : "") +
        `; if they exist, \`${rerun} --resume --mark-imported ${numbers}\` records ${held.length === 1 ? "it" : "them"} as imported without sending` +
        `; if they do not, \`${rerun} --resume --resend-ambiguous\` sends ${held.length === 1 ? "it" : "them"} again`,
    },
  );
}
