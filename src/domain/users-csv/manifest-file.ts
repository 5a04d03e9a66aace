// The manifest as a file (manifest-schema.ts): where it lies beside the CSV (with the lock and
// the errors file), its text read and written, and its sections — one per service and
// organization the same file was imported into. Pure: the command reads and writes the file
// (atomically).

import { normalizeBaseUrl } from "../tenant.js";
import { ImportManifest, type ImportSection, type ImportTarget } from "./manifest-schema.js";

export { normalizeBaseUrl };

export function isSectionFor(section: ImportSection, target: ImportTarget): boolean {
  if (section.organizationId !== target.organizationId) return false;
  if (section.baseUrl === undefined) return true; // written before the service was recorded
  return (
    normalizeBaseUrl(section.baseUrl) === normalizeBaseUrl(target.baseUrl) && (section.apiVersion ?? 2) === target.apiVersion
  );
}

/** This run's section of a manifest file (if any) and every other one, kept as they are. */
export function splitManifest(
  file: ImportManifest | undefined,
  target: ImportTarget,
): { mine: ImportManifest | undefined; others: ImportSection[] } {
  if (file === undefined) return { mine: undefined, others: [] };
  const { otherImports, ...top } = file;
  const all: ImportSection[] = [top, ...(otherImports ?? [])];
  const mine = all.find((s) => isSectionFor(s, target));
  return { mine, others: all.filter((s) => s !== mine) };
}

/** The file to write: this run's section on top, the others kept. */
export function joinManifest(mine: ImportManifest, others: readonly ImportSection[]): ImportManifest {
  const { otherImports: _ignored, ...top } = mine;
  return others.length > 0 ? { ...top, otherImports: [...others] } : top;
}

/** "org-demo at https://api.example.com (API v2)" for messages. */
export function describeTarget(section: Pick<ImportSection, "organizationId" | "baseUrl" | "apiVersion">): string {
  return `organization ${section.organizationId}${section.baseUrl ? ` at ${section.baseUrl} (API v${section.apiVersion ?? 2})` : ""}`;
}

/** `staff.csv` → `staff`: the stem the side files are named after (`staff.import.json`). */
function stem(csvPath: string): string {
  return /\.csv$/i.test(csvPath) ? csvPath.slice(0, -4) : csvPath;
}

export function manifestPathFor(csvPath: string): string {
  return `${stem(csvPath)}.import.json`;
}

/** The lock that keeps two runs from importing the same file at once (output/file-lock.ts). */
export function lockPathFor(csvPath: string): string {
  return `${stem(csvPath)}.import.lock`;
}

export function errorsPathFor(csvPath: string): string {
  return `${stem(csvPath)}.errors.csv`;
}

export type ParsedManifest = { ok: true; manifest: ImportManifest } | { ok: false; problem: string };

export function parseManifest(text: string): ParsedManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON (${(error as Error).message})` };
  }
  const parsed = ImportManifest.safeParse(json);
  if (!parsed.success) {
    // A failed safeParse always carries at least one issue: the first names what to fix.
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `${issue.path.join(".") || "document"}: ${issue.message}` };
  }
  return { ok: true, manifest: parsed.data };
}

export function serializeManifest(manifest: ImportManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
