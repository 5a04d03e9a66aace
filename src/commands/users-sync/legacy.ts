import { createHash } from "node:crypto";
import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { isErrnoError, LocalFileError } from "../../errors.js";
import { parseManifest } from "../../domain/users-csv/import-manifest.js";
import { Baseline, SyncedUser } from "../../domain/users-sync/sync-plan.js";
import { PlannedRow, type SyncRun } from "../../domain/users-sync/records.js";
import type { SyncChanges } from "./sync-state.js";

// Before the state store, a sync kept its files in `<settings>/sync/<hash>/` (baseline.json,
// plan.json, and the import's plan.import.json). The first run against an empty store moves
// them in — the baseline, and the last plan with its batches, so that nothing it may have
// sent is sent again — and renames the directory to `<hash>.moved` (docs/users-sync.md
// "From the settings directory"). `--plan` reads them without moving anything.

const LegacyPlan = z.object({
  createdAt: z.string(),
  rows: z.array(PlannedRow),
  uncertain: z.record(z.string(), SyncedUser).default({}),
});

export interface LegacyState {
  dir: string;
  changes: SyncChanges;
}

/** `<configDir>/sync/<first 16 hex of sha256(baseUrl \n org)>`, as earlier versions named it. */
export function legacyDir(configDir: string, baseUrl: string, organizationId: string): string {
  const id = createHash("sha256").update(`${baseUrl}\n${organizationId}`).digest("hex").slice(0, 16);
  return join(configDir, "sync", id);
}

/** What the old directory holds, as changes for the store; undefined when there is no baseline there. */
export async function readLegacy(dir: string): Promise<LegacyState | undefined> {
  const baselineText = await readOptional(join(dir, "baseline.json"));
  if (baselineText === undefined) return undefined;
  const baseline = Baseline.safeParse(parseJson(baselineText));
  if (!baseline.success)
    throw new LocalFileError(`${join(dir, "baseline.json")} (the sync baseline of an earlier version) cannot be read`, {
      path: join(dir, "baseline.json"),
      hint: "restore it from a backup, or move the directory away to start a first sync",
    });
  const changes: SyncChanges = { baseline: baseline.data };
  const planText = await readOptional(join(dir, "plan.json"));
  const manifestText = await readOptional(join(dir, "plan.import.json"));
  const legacyPlan = planText === undefined ? undefined : LegacyPlan.safeParse(parseJson(planText));
  const manifest = manifestText === undefined ? undefined : parseManifest(manifestText);
  // A plan whose batches were recorded: its run, so that settling it sends nothing twice.
  if (legacyPlan?.success && manifest?.ok) {
    const run: SyncRun = {
      version: 1,
      createdAt: legacyPlan.data.createdAt,
      rows: legacyPlan.data.rows,
      batches: manifest.manifest.batches,
      uncertain: legacyPlan.data.uncertain,
    };
    changes.run = run;
  }
  return { dir, changes };
}

/** After the store holds it: the directory renamed, so no later run reads it again. */
export async function retireLegacy(dir: string): Promise<string> {
  const moved = `${dir}.moved`;
  try {
    await rename(dir, moved);
  } catch (error) {
    throw LocalFileError.fromSystem(error, dir, "rename (its state is in the state store now)");
  }
  return moved;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (isErrnoError(error) && error.code === "ENOENT") return undefined;
    throw LocalFileError.fromSystem(error, path, "read");
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
