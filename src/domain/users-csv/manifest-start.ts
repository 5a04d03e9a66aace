// Whether a `users import` run may start, given the manifest found beside the file (or none).
//
// Rules (decided here; the command's other decisions are in commands/users-import/users-import.ts):
// - Without --resume, a manifest that shows anything may have been sent for this same file
//   refuses the run (exit 2): running the same import twice is the accident to prevent.
//   A manifest where nothing was sent is simply replaced.
// - A manifest of another version of the file (other SHA-256) is replaced when its import
//   was finished (every batch uploaded or rejected) — the monthly HR export written over
//   last month's — and refuses the run when it was not: half an import is pending there
//   and only the user can say whether to finish or abandon it (delete the manifest).
//
// What a --resume run then does with the batches is in manifest-resume.ts. Pure: no I/O.

import type { ImportManifest } from "./manifest-schema.js";
import { countStates, isAmbiguous, isFinished, mayHaveBeenSent } from "./manifest-batches.js";
import { describeTarget } from "./manifest-file.js";

export type StartDecision =
  | { kind: "fresh" }
  /** A manifest exists but may be replaced; `note` says why, for stderr. */
  | { kind: "replace"; note: string }
  | { kind: "resume"; manifest: ImportManifest }
  /** Exit 2, nothing sent. */
  | { kind: "refuse"; message: string; hint: string };

function describeSent(manifest: ImportManifest): string {
  const counts = countStates(manifest);
  const parts: string[] = [];
  if (counts.uploaded) parts.push(`${counts.uploaded} uploaded`);
  if (counts.ambiguous + counts.uploading) parts.push(`${counts.ambiguous + counts.uploading} possibly received`);
  if (counts.rejected) parts.push(`${counts.rejected} rejected`);
  if (counts.pending) parts.push(`${counts.pending} not sent`);
  return `${manifest.batches.length} batch${manifest.batches.length === 1 ? "" : "es"}: ${parts.join(", ")}`;
}

/**
 * What to do with an existing manifest (or none) for the file as it is now. `names` are
 * for messages: the CSV's and the manifest's display names.
 */
export function decideStart(
  existing: ImportManifest | undefined,
  current: { sha256: string; organizationId: string },
  resume: boolean,
  names: { file: string; manifest: string; command: string },
): StartDecision {
  const rerun = `${names.command} --resume`;
  if (existing === undefined) {
    if (!resume) return { kind: "fresh" };
    return {
      kind: "refuse",
      message: `--resume: there is no manifest ${names.manifest} to resume from`,
      hint: `run without --resume to start the import of ${names.file}`,
    };
  }
  const sameFile = existing.sha256 === current.sha256;
  const sameOrg = existing.organizationId === current.organizationId;
  const anythingSent = existing.batches.some(mayHaveBeenSent);
  if (resume) {
    if (!sameFile) {
      return {
        kind: "refuse",
        message: `--resume: ${names.file} is not the file recorded in ${names.manifest} (its content changed since that import: SHA-256 ${current.sha256.slice(0, 12)}… instead of ${existing.sha256.slice(0, 12)}…)`,
        hint: `restore the file that was imported and resume, or remove ${names.manifest} to import the changed file as a new import (rows imported already would be sent again)`,
      };
    }
    if (!sameOrg) {
      return {
        kind: "refuse",
        message: `--resume: ${names.manifest} records an import into organization ${JSON.stringify(existing.organizationId)}, not ${JSON.stringify(current.organizationId)}`,
        hint: `resume with --org ${existing.organizationId}`,
      };
    }
    return { kind: "resume", manifest: existing };
  }
  if (!anythingSent) {
    return { kind: "replace", note: `${names.manifest} recorded no upload; starting afresh` };
  }
  if (sameFile) {
    const again = existing.batches.some((b) => b.status === "FAILED");
    const held = existing.batches.some(isAmbiguous);
    return {
      kind: "refuse",
      message: `${names.file} was already imported into ${describeTarget(existing)} according to ${names.manifest} (${describeSent(existing)}); nothing was sent`,
      hint:
        `run \`${rerun}\` to continue that import without sending a batch twice` +
        (again ? `, or \`${names.command} --retry-failed\` to also send its FAILED batches again` : "") +
        (held ? `; a possibly-received batch is sent again only with \`${rerun} --resend-ambiguous\`` : "") +
        `; remove ${names.manifest} only to import the whole file again`,
    };
  }
  if (isFinished(existing)) {
    return {
      kind: "replace",
      note: `replacing ${names.manifest}: it recorded a finished import of an earlier version of ${names.file}`,
    };
  }
  return {
    kind: "refuse",
    message: `${names.manifest} records an unfinished import of an earlier version of ${names.file} (${describeSent(existing)}), and the file has changed since; nothing was sent`,
    hint: `restore that version and run \`${rerun}\` to finish it, or remove ${names.manifest} to abandon it and import the file as it is now`,
  };
}
