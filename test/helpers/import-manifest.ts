import {
  type ImportManifest,
  type ManifestBatch,
  newManifest,
  pendingBatch,
} from "../../src/domain/users-csv/import-manifest.js";

// Manifests for the unit tests of domain/users-csv/manifest-*.ts: `staff.csv` imported into
// org-demo at https://api.example.com (API v2), batch i covering rows 2+750(i-1)..751+750(i-1).

export const SHA_A = "a".repeat(64);
export const SHA_B = "b".repeat(64);
export const NOW = "2026-11-21T00:00:00.000Z";
export const LATER = "2026-11-22T00:00:00.000Z";
export const NAMES = { file: "staff.csv", manifest: "staff.import.json", command: "simadmin users import staff.csv" };

/** A batch hash that names the batch: 00…01 for batch 1. */
export function hash(n: number): string {
  return n.toString(16).padStart(64, "0");
}

/** One batch per state; uploaded ones carry task-<n>, SCHEDULED. */
export function manifest(states: ManifestBatch["state"][], sha = SHA_A, org = "org-demo"): ImportManifest {
  const batches = states.map((state, i) => ({
    ...pendingBatch({ number: i + 1, rows: [2 + i * 750, 751 + i * 750], sha256: hash(i + 1) }),
    state,
    ...(state === "uploaded" ? { taskId: `task-${i + 1}`, status: "SCHEDULED" as const } : {}),
  }));
  return newManifest(
    {
      file: "staff.csv",
      sha256: sha,
      bytes: 100,
      baseUrl: "https://api.example.com",
      apiVersion: 2,
      organizationId: org,
      skipInvalid: false,
      totalRows: 1500,
      validRows: 1500,
      invalidRows: 0,
    },
    batches,
    NOW,
  );
}

/** `m` with batch `number` changed (a test's own edit, not updateBatch). */
export function withBatch(m: ImportManifest, number: number, patch: Partial<ManifestBatch>): ImportManifest {
  return { ...m, batches: m.batches.map((b) => (b.number === number ? { ...b, ...patch } : b)) };
}
