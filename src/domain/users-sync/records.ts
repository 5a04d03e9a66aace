// What `users sync` keeps in the state store (kind `users-sync`, per service and
// organization; docs/users-sync.md "What is kept"), one entry per key, every change one atomic
// put (docs/cli-contract.md "State"):
//
//   baseline       every user the service accepted from a sync, with the values sent
//   run            the plan being sent: its rows and its batches as the import engine records
//                  them (engines/users-import/journal.ts) — present from before the first
//                  upload until the run settles it (settle.ts), so a killed run leaves it
//   held           batches of earlier runs that may have been received (cut off or killed
//                  after the body was sent, or an answer that contradicts itself): never sent
//                  again until the user says --resend-ambiguous or --mark-imported
//   tasks          accepted batches whose task's end is not known yet (no --wait): asked
//                  about on the next run; their rows enter the baseline only when COMPLETED
//   unsent         the rows of the last plan that were never sent (what --resume sends)
//   deactivations  user key → when a sync last sent it INACTIVE, for the 7-day guard
//
// Schemas only (zod: the types are derived from them); the rules are in settle.ts and sync-plan.ts.

import * as z from "zod";
import { ManifestBatch } from "../users-csv/manifest-schema.js";
import { SyncedUser } from "./sync-plan.js";

export const PlannedRow = SyncedUser.extend({
  change: z.enum(["add", "update", "deactivate", "reactivate"]),
  action: z.enum(["Add", "Update"]),
  rosterRow: z.number().int().nullable(),
  changed: z.array(z.string()),
});
export type PlannedRow = z.infer<typeof PlannedRow>;

export const SyncRun = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  /** Plan row r (0-based) is row r + 2 of the batches (header = 1), as in a users CSV. */
  rows: z.array(PlannedRow),
  batches: z.array(ManifestBatch),
  /**
   * Users (key) this run sends as Add again after an earlier upload of them may have been
   * received (--resend-ambiguous): if the service now says they exist, that upload went
   * through, with these values.
   */
  uncertain: z.record(z.string(), SyncedUser).default({}),
});
export type SyncRun = z.infer<typeof SyncRun>;

/** A batch held back: its rows, and what is known of its upload. */
export const HeldBatch = z.object({
  /** The number the user gives --mark-imported (unique among the held). */
  number: z.number().int().positive(),
  /** When the plan it came from was made. */
  plannedAt: z.string(),
  rows: z.array(PlannedRow),
  batch: ManifestBatch,
});
export type HeldBatch = z.infer<typeof HeldBatch>;
export const HeldBatches = z.array(HeldBatch);

/** An accepted batch whose task's end is not known: the rows it holds that the service did not reject. */
export const OpenTask = z.object({
  taskId: z.string().min(1),
  plannedAt: z.string(),
  uploadedAt: z.string().optional(),
  rows: z.array(PlannedRow),
});
export type OpenTask = z.infer<typeof OpenTask>;
export const OpenTasks = z.array(OpenTask);

/** The last plan's rows never sent, for --resume. */
export const Unsent = z.object({ createdAt: z.string(), rows: z.array(PlannedRow) });
export type Unsent = z.infer<typeof Unsent>;

/** Key → ISO time a sync last sent that user INACTIVE. */
export const Deactivations = z.record(z.string(), z.string());
export type Deactivations = z.infer<typeof Deactivations>;
