// The batch manifest of `users import` (`<file>.import.json`, docs/cli-contract.md "Users CSV"
// and "Retries") as the commands see it: one import point for its parts, each doing one job —
//   manifest-schema.ts   its shape: batch states, zod schemas, the types derived from them
//   manifest-file.ts     the file: side-file paths, its text read and written, its sections
//                        (one per service and organization)
//   manifest-batches.ts  batch records: built, updated, counted, shown
//   manifest-start.ts    whether a run may start with the manifest found (or none)
//   manifest-resume.ts   what a --resume / --retry-failed run sends, and --mark-imported
// All pure: the command reads and writes the file (atomically).

export type { ImportManifest, ImportSection, ImportTarget, ManifestBatch, ManifestRowError } from "./manifest-schema.js";
export {
  describeTarget,
  errorsPathFor,
  joinManifest,
  lockPathFor,
  manifestPathFor,
  normalizeBaseUrl,
  parseManifest,
  serializeManifest,
  splitManifest,
} from "./manifest-file.js";
export { batchRecord, countStates, newManifest, pendingBatch, rowRange, updateBatch } from "./manifest-batches.js";
export { decideStart, type StartDecision } from "./manifest-start.js";
export {
  batchAction,
  checkSameBatches,
  countResends,
  markImported,
  parseAcceptedTasks,
  parseBatchNumbers,
  prepareResend,
} from "./manifest-resume.js";
