import { createHash } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { LocalFileError, UsageError } from "../../errors.js";
import { Baseline, type PlanRow, SyncedUser } from "../../domain/users-sync/plan.js";
import { writeFileAtomic } from "../../output/atomic-file.js";

// Where `users sync` keeps what it knows, per service and organization (docs/cli-contract.md
// "Sync": "kept in the settings directory"): `<settings>/sync/<hash of base URL + org>/`
// (0700) holding
//   baseline.json       every user the service accepted from a sync, with the values sent
//   plan.json           the last run's plan rows, and which of its batches entered the baseline
//   plan.csv            the same plan as the users CSV that was imported (+ its manifest
//                       plan.import.json and plan.errors.csv, written by the import itself)
//   sync.lock           held for the whole run: two syncs never interleave their baselines
// Every file is 0600 and written atomically (output/atomic-file.ts): a killed run leaves
// the previous version or the new one, never half a file.

export const PlanRecord = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  wait: z.boolean(),
  rows: z.array(
    SyncedUser.extend({
      change: z.enum(["add", "update", "deactivate", "reactivate"]),
      action: z.enum(["Add", "Update"]),
      rosterRow: z.number().int().nullable(),
      changed: z.array(z.string()),
    }),
  ),
  /** Batches whose rows are in the baseline already. */
  folded: z.array(z.number().int()),
  /** How many of its rows are in the baseline. */
  foldedRows: z.number().int().default(0),
  /**
   * Users (lower-case email) this plan sends as Add again after an earlier upload of them
   * was ambiguous, with the values sent then: if the service now says they exist, that
   * upload went through and those values are what it holds.
   */
  uncertain: z.record(z.string(), SyncedUser).default({}),
});
export type PlanRecord = z.infer<typeof PlanRecord>;

/** What one sync works on: the roster, the service and organization, and their state directory. */
export interface SyncSetup {
  rosterPath: string;
  organizationId: string;
  /** The normalized base URL, or "sandbox" (its address changes from run to run). */
  serviceKey: string;
  state: SyncState;
}

export class SyncState {
  readonly baselinePath: string;
  readonly planPath: string;
  readonly planCsvPath: string;
  readonly planManifestPath: string;
  readonly lockPath: string;

  constructor(readonly dir: string) {
    this.baselinePath = join(dir, "baseline.json");
    this.planPath = join(dir, "plan.json");
    this.planCsvPath = join(dir, "plan.csv");
    this.planManifestPath = join(dir, "plan.import.json");
    this.lockPath = join(dir, "sync.lock");
  }

  /** `<root>/sync/<first 16 hex of sha256(baseUrl \n org)>`: one directory per service and organization. */
  static for(root: string, baseUrl: string, organizationId: string): SyncState {
    const id = createHash("sha256").update(`${baseUrl}\n${organizationId}`).digest("hex").slice(0, 16);
    return new SyncState(join(root, "sync", id));
  }

  async ensureDir(): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw LocalFileError.fromSystem(error, this.dir, "create the directory");
    }
  }

  async loadBaseline(): Promise<Baseline | undefined> {
    return readJson(this.baselinePath, Baseline, "the sync baseline");
  }

  saveBaseline(baseline: Baseline): Promise<void> {
    return writeJson(this.baselinePath, baseline);
  }

  loadPlan(): Promise<PlanRecord | undefined> {
    return readJson(this.planPath, PlanRecord, "the last sync's plan");
  }

  savePlan(plan: PlanRecord): Promise<void> {
    return writeJson(this.planPath, plan);
  }

  /** The plan CSV (users-CSV columns) the import sends. */
  writePlanCsv(csv: string): Promise<void> {
    return writeFileAtomic(this.planCsvPath, csv, 0o600);
  }

  /** Forgets the last plan once its outcome is in the baseline. */
  async removePlan(): Promise<void> {
    for (const name of ["plan.json", "plan.csv", "plan.import.json", "plan.errors.csv"]) {
      try {
        await rm(join(this.dir, name), { force: true });
      } catch (error) {
        throw LocalFileError.fromSystem(error, join(this.dir, name), "remove");
      }
    }
  }
}

/** The baseline of a first sync: no user yet. */
export function emptyBaseline(setup: SyncSetup, nowIso: string): Baseline {
  return {
    version: 1,
    baseUrl: setup.serviceKey,
    organizationId: setup.organizationId,
    createdAt: nowIso,
    updatedAt: nowIso,
    users: {},
  };
}

/** Plan rows as kept in plan.json. */
export function planRows(rows: readonly PlanRow[]): PlanRecord["rows"] {
  return rows.map((r) => ({ ...r, changed: [...r.changed] }));
}

async function readJson<S extends z.ZodType>(path: string, schema: S, what: string): Promise<z.output<S> | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw LocalFileError.fromSystem(error, path, `read ${what}`);
  }
  let parsed: z.ZodSafeParseResult<z.output<S>>;
  try {
    parsed = schema.safeParse(JSON.parse(text));
  } catch {
    parsed = { success: false } as z.ZodSafeParseResult<z.output<S>>;
  }
  if (!parsed.success) {
    throw new UsageError(`${path} (${what}) is not one simadmin can read; nothing was sent`, {
      hint: "restore it from a backup; removing it makes the next sync a first run",
    });
  }
  return parsed.data;
}

function writeJson(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, 0o600);
}
