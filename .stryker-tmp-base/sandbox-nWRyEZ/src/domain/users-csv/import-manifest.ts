// @ts-nocheck
// The batch manifest of `users import` (docs/cli-contract.md "Users CSV" and "Retries"): a file
// `<file>.import.json` beside the CSV that records, for one import of one version of the
// file, every batch's rows, hash, taskId and last known status — as soon as each is known.
// It is what makes a failure halfway recoverable without duplicating a batch (issue 7).
//
// Batch states:
//   pending    not sent (or sent and certainly not received: 429, connection refused, 401…)
//   uploading  written just before the upload is sent; found in a manifest, it means the
//              run died mid-upload — it may have been received, exactly like "ambiguous"
//   uploaded   the service answered with a taskId
//   ambiguous  the upload failed in a way that leaves open whether the service accepted it
//              (timeout, reset, 5xx, connection dropped after sending)
//   rejected   the service answered 400 "no valid row": no task exists, its rows are errors
//
// Rules (decided here; the command's other decisions are in commands/users-import/users-import.ts):
// - Without --resume, a manifest that shows anything may have been sent for this same file
//   refuses the run (exit 2): running the same import twice is the accident to prevent.
//   A manifest where nothing was sent is simply replaced.
// - A manifest of another version of the file (other SHA-256) is replaced when its import
//   was finished (every batch uploaded or rejected) — the monthly HR export written over
//   last month's — and refuses the run when it was not: half an import is pending there
//   and only the user can say whether to finish or abandon it (delete the manifest).
// - --resume needs the manifest of this very file (same SHA-256, same organization, same
//   batch hashes); it skips batches with a taskId and rejected ones, sends pending ones and
//   re-sends ambiguous (or uploading) ones — --resume is the user's say-so for those.
//
// Pure: no I/O; the command reads and writes the file (atomically).
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import * as z from "zod";
import { IMPORT_TASK_STATES } from "./task-status.js";
import type { UserBatch } from "./batches.js";
export const MANIFEST_VERSION = 1;
export const BATCH_STATES = ["pending", "uploading", "uploaded", "ambiguous", "rejected"] as const;
export type BatchState = (typeof BATCH_STATES)[number];
const Sha256 = z.string().regex(stryMutAct_9fa48("4476") ? /^[^0-9a-f]{64}$/ : stryMutAct_9fa48("4475") ? /^[0-9a-f]$/ : stryMutAct_9fa48("4474") ? /^[0-9a-f]{64}/ : stryMutAct_9fa48("4473") ? /[0-9a-f]{64}$/ : (stryCov_9fa48("4473", "4474", "4475", "4476"), /^[0-9a-f]{64}$/), stryMutAct_9fa48("4477") ? "" : (stryCov_9fa48("4477"), "a SHA-256 in hex"));
export const ManifestRowError = z.object(stryMutAct_9fa48("4478") ? {} : (stryCov_9fa48("4478"), {
  /** Row of the original file (undefined → null when the service named a row the batch lacks). */
  row: z.number().int().nullable(),
  batchRow: z.number().int().nullable(),
  field: z.string().nullable(),
  messages: z.array(z.string())
}));
export type ManifestRowError = z.infer<typeof ManifestRowError>;
export const ManifestBatch = z.object(stryMutAct_9fa48("4479") ? {} : (stryCov_9fa48("4479"), {
  number: z.number().int().positive(),
  /** How many user rows the batch holds. */
  rows: z.number().int().positive(),
  /** Spreadsheet rows of its first and last user in the original file. */
  firstRow: z.number().int().positive(),
  lastRow: z.number().int().positive(),
  /** SHA-256 of the uploaded CSV bytes (batches.ts): the same rows always hash the same. */
  sha256: Sha256,
  state: z.enum(BATCH_STATES),
  /** How many times the batch was sent (a re-sent ambiguous batch counts twice). */
  sends: z.number().int().nonnegative().default(0),
  taskId: stryMutAct_9fa48("4480") ? z.string().max(1).optional() : (stryCov_9fa48("4480"), z.string().min(1).optional()),
  status: z.enum(IMPORT_TASK_STATES).optional(),
  statusAt: z.string().optional(),
  uploadedAt: z.string().optional(),
  validUsersCount: z.number().int().nonnegative().optional(),
  invalidUsersCount: z.number().int().nonnegative().optional(),
  /** Rows the service rejected, mapped to rows of the original file. */
  rowErrors: z.array(ManifestRowError).optional(),
  /** The last failure, for people reading the manifest. */
  error: z.string().optional(),
  /**
   * Earlier sends of this batch, oldest first, kept when it is sent again (a FAILED task
   * under --retry-failed, an ambiguous upload under --resume): no taskId is ever lost.
   */
  history: z.array(z.object(stryMutAct_9fa48("4481") ? {} : (stryCov_9fa48("4481"), {
    state: z.enum(BATCH_STATES),
    taskId: z.string().optional(),
    status: z.enum(IMPORT_TASK_STATES).optional(),
    uploadedAt: z.string().optional(),
    error: z.string().optional(),
    replacedAt: z.string()
  }))).optional()
}));
export type ManifestBatch = z.infer<typeof ManifestBatch>;

/** One import of the file into one service and organization. */
export const ImportSection = z.object(stryMutAct_9fa48("4482") ? {} : (stryCov_9fa48("4482"), {
  manifestVersion: z.literal(MANIFEST_VERSION),
  /** The CSV's file name (not its path: the pair may be moved together). */
  file: z.string(),
  sha256: Sha256,
  bytes: z.number().int().nonnegative(),
  /**
   * The service the batches went to (issue 12 item 12). Absent in manifests written before
   * it was recorded: such a section is taken as this run's when the organization matches.
   */
  baseUrl: z.string().optional(),
  apiVersion: z.number().int().optional(),
  organizationId: stryMutAct_9fa48("4483") ? z.string().max(1) : (stryCov_9fa48("4483"), z.string().min(1)),
  skipInvalid: z.boolean(),
  totalRows: z.number().int().nonnegative(),
  validRows: z.number().int().nonnegative(),
  invalidRows: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  batches: z.array(ManifestBatch)
}));
export type ImportSection = z.infer<typeof ImportSection>;

/**
 * The file: the latest import at the top level (what older versions read), imports of the
 * same file into other services or organizations under `otherImports`, kept untouched.
 */
export const ImportManifest = ImportSection.extend(stryMutAct_9fa48("4484") ? {} : (stryCov_9fa48("4484"), {
  otherImports: z.array(ImportSection).optional()
}));
export type ImportManifest = z.infer<typeof ImportManifest>;

/** Whose import a section records: base URL (no trailing slash), API version, organization. */
export interface ImportTarget {
  baseUrl: string;
  apiVersion: number;
  organizationId: string;
}
export function normalizeBaseUrl(url: string): string {
  if (stryMutAct_9fa48("4485")) {
    {}
  } else {
    stryCov_9fa48("4485");
    return url.replace(stryMutAct_9fa48("4487") ? /\/$/ : stryMutAct_9fa48("4486") ? /\/+/ : (stryCov_9fa48("4486", "4487"), /\/+$/), stryMutAct_9fa48("4488") ? "Stryker was here!" : (stryCov_9fa48("4488"), ""));
  }
}
export function isSectionFor(section: ImportSection, target: ImportTarget): boolean {
  if (stryMutAct_9fa48("4489")) {
    {}
  } else {
    stryCov_9fa48("4489");
    if (stryMutAct_9fa48("4492") ? section.organizationId === target.organizationId : stryMutAct_9fa48("4491") ? false : stryMutAct_9fa48("4490") ? true : (stryCov_9fa48("4490", "4491", "4492"), section.organizationId !== target.organizationId)) return stryMutAct_9fa48("4493") ? true : (stryCov_9fa48("4493"), false);
    if (stryMutAct_9fa48("4496") ? section.baseUrl !== undefined : stryMutAct_9fa48("4495") ? false : stryMutAct_9fa48("4494") ? true : (stryCov_9fa48("4494", "4495", "4496"), section.baseUrl === undefined)) return stryMutAct_9fa48("4497") ? false : (stryCov_9fa48("4497"), true); // written before the service was recorded
    return stryMutAct_9fa48("4500") ? normalizeBaseUrl(section.baseUrl) === normalizeBaseUrl(target.baseUrl) || (section.apiVersion ?? 2) === target.apiVersion : stryMutAct_9fa48("4499") ? false : stryMutAct_9fa48("4498") ? true : (stryCov_9fa48("4498", "4499", "4500"), (stryMutAct_9fa48("4502") ? normalizeBaseUrl(section.baseUrl) !== normalizeBaseUrl(target.baseUrl) : stryMutAct_9fa48("4501") ? true : (stryCov_9fa48("4501", "4502"), normalizeBaseUrl(section.baseUrl) === normalizeBaseUrl(target.baseUrl))) && (stryMutAct_9fa48("4504") ? (section.apiVersion ?? 2) !== target.apiVersion : stryMutAct_9fa48("4503") ? true : (stryCov_9fa48("4503", "4504"), (stryMutAct_9fa48("4505") ? section.apiVersion && 2 : (stryCov_9fa48("4505"), section.apiVersion ?? 2)) === target.apiVersion)));
  }
}

/** This run's section of a manifest file (if any) and every other one, kept as they are. */
export function splitManifest(file: ImportManifest | undefined, target: ImportTarget): {
  mine: ImportManifest | undefined;
  others: ImportSection[];
} {
  if (stryMutAct_9fa48("4506")) {
    {}
  } else {
    stryCov_9fa48("4506");
    if (stryMutAct_9fa48("4509") ? file !== undefined : stryMutAct_9fa48("4508") ? false : stryMutAct_9fa48("4507") ? true : (stryCov_9fa48("4507", "4508", "4509"), file === undefined)) return stryMutAct_9fa48("4510") ? {} : (stryCov_9fa48("4510"), {
      mine: undefined,
      others: stryMutAct_9fa48("4511") ? ["Stryker was here"] : (stryCov_9fa48("4511"), [])
    });
    const {
      otherImports,
      ...top
    } = file;
    const all: ImportSection[] = stryMutAct_9fa48("4512") ? [] : (stryCov_9fa48("4512"), [top, ...(stryMutAct_9fa48("4513") ? otherImports && [] : (stryCov_9fa48("4513"), otherImports ?? (stryMutAct_9fa48("4514") ? ["Stryker was here"] : (stryCov_9fa48("4514"), []))))]);
    const mine = all.find(stryMutAct_9fa48("4515") ? () => undefined : (stryCov_9fa48("4515"), s => isSectionFor(s, target)));
    return stryMutAct_9fa48("4516") ? {} : (stryCov_9fa48("4516"), {
      mine,
      others: stryMutAct_9fa48("4517") ? all : (stryCov_9fa48("4517"), all.filter(stryMutAct_9fa48("4518") ? () => undefined : (stryCov_9fa48("4518"), s => stryMutAct_9fa48("4521") ? s === mine : stryMutAct_9fa48("4520") ? false : stryMutAct_9fa48("4519") ? true : (stryCov_9fa48("4519", "4520", "4521"), s !== mine))))
    });
  }
}

/** The file to write: this run's section on top, the others kept. */
export function joinManifest(mine: ImportManifest, others: readonly ImportSection[]): ImportManifest {
  if (stryMutAct_9fa48("4522")) {
    {}
  } else {
    stryCov_9fa48("4522");
    const {
      otherImports: _ignored,
      ...top
    } = mine;
    return (stryMutAct_9fa48("4526") ? others.length <= 0 : stryMutAct_9fa48("4525") ? others.length >= 0 : stryMutAct_9fa48("4524") ? false : stryMutAct_9fa48("4523") ? true : (stryCov_9fa48("4523", "4524", "4525", "4526"), others.length > 0)) ? stryMutAct_9fa48("4527") ? {} : (stryCov_9fa48("4527"), {
      ...top,
      otherImports: stryMutAct_9fa48("4528") ? [] : (stryCov_9fa48("4528"), [...others])
    }) : top;
  }
}

/** "org-demo at https://api.example.com (API v2)" for messages. */
export function describeTarget(section: Pick<ImportSection, "organizationId" | "baseUrl" | "apiVersion">): string {
  if (stryMutAct_9fa48("4529")) {
    {}
  } else {
    stryCov_9fa48("4529");
    return stryMutAct_9fa48("4530") ? `` : (stryCov_9fa48("4530"), `organization ${section.organizationId}${section.baseUrl ? stryMutAct_9fa48("4531") ? `` : (stryCov_9fa48("4531"), ` at ${section.baseUrl} (API v${stryMutAct_9fa48("4532") ? section.apiVersion && 2 : (stryCov_9fa48("4532"), section.apiVersion ?? 2)})`) : stryMutAct_9fa48("4533") ? "Stryker was here!" : (stryCov_9fa48("4533"), "")}`);
  }
}

/** `staff.csv` → `staff`: the stem the side files are named after (`staff.import.json`). */
function stem(csvPath: string): string {
  if (stryMutAct_9fa48("4534")) {
    {}
  } else {
    stryCov_9fa48("4534");
    return (stryMutAct_9fa48("4535") ? /\.csv/i : (stryCov_9fa48("4535"), /\.csv$/i)).test(csvPath) ? stryMutAct_9fa48("4536") ? csvPath : (stryCov_9fa48("4536"), csvPath.slice(0, stryMutAct_9fa48("4537") ? +4 : (stryCov_9fa48("4537"), -4))) : csvPath;
  }
}
export function manifestPathFor(csvPath: string): string {
  if (stryMutAct_9fa48("4538")) {
    {}
  } else {
    stryCov_9fa48("4538");
    return stryMutAct_9fa48("4539") ? `` : (stryCov_9fa48("4539"), `${stem(csvPath)}.import.json`);
  }
}

/** The lock that keeps two runs from importing the same file at once (output/file-lock.ts). */
export function lockPathFor(csvPath: string): string {
  if (stryMutAct_9fa48("4540")) {
    {}
  } else {
    stryCov_9fa48("4540");
    return stryMutAct_9fa48("4541") ? `` : (stryCov_9fa48("4541"), `${stem(csvPath)}.import.lock`);
  }
}
export function errorsPathFor(csvPath: string): string {
  if (stryMutAct_9fa48("4542")) {
    {}
  } else {
    stryCov_9fa48("4542");
    return stryMutAct_9fa48("4543") ? `` : (stryCov_9fa48("4543"), `${stem(csvPath)}.errors.csv`);
  }
}
export type ParsedManifest = {
  ok: true;
  manifest: ImportManifest;
} | {
  ok: false;
  problem: string;
};
export function parseManifest(text: string): ParsedManifest {
  if (stryMutAct_9fa48("4544")) {
    {}
  } else {
    stryCov_9fa48("4544");
    let json: unknown;
    try {
      if (stryMutAct_9fa48("4545")) {
        {}
      } else {
        stryCov_9fa48("4545");
        json = JSON.parse(text);
      }
    } catch (error) {
      if (stryMutAct_9fa48("4546")) {
        {}
      } else {
        stryCov_9fa48("4546");
        return stryMutAct_9fa48("4547") ? {} : (stryCov_9fa48("4547"), {
          ok: stryMutAct_9fa48("4548") ? true : (stryCov_9fa48("4548"), false),
          problem: stryMutAct_9fa48("4549") ? `` : (stryCov_9fa48("4549"), `not JSON (${(error as Error).message})`)
        });
      }
    }
    const parsed = ImportManifest.safeParse(json);
    if (stryMutAct_9fa48("4552") ? false : stryMutAct_9fa48("4551") ? true : stryMutAct_9fa48("4550") ? parsed.success : (stryCov_9fa48("4550", "4551", "4552"), !parsed.success)) {
      if (stryMutAct_9fa48("4553")) {
        {}
      } else {
        stryCov_9fa48("4553");
        const issue = parsed.error.issues[0];
        return stryMutAct_9fa48("4554") ? {} : (stryCov_9fa48("4554"), {
          ok: stryMutAct_9fa48("4555") ? true : (stryCov_9fa48("4555"), false),
          problem: issue ? stryMutAct_9fa48("4556") ? `` : (stryCov_9fa48("4556"), `${stryMutAct_9fa48("4559") ? issue.path.join(".") && "document" : stryMutAct_9fa48("4558") ? false : stryMutAct_9fa48("4557") ? true : (stryCov_9fa48("4557", "4558", "4559"), issue.path.join(stryMutAct_9fa48("4560") ? "" : (stryCov_9fa48("4560"), ".")) || (stryMutAct_9fa48("4561") ? "" : (stryCov_9fa48("4561"), "document")))}: ${issue.message}`) : stryMutAct_9fa48("4562") ? "" : (stryCov_9fa48("4562"), "not a manifest")
        });
      }
    }
    return stryMutAct_9fa48("4563") ? {} : (stryCov_9fa48("4563"), {
      ok: stryMutAct_9fa48("4564") ? false : (stryCov_9fa48("4564"), true),
      manifest: parsed.data
    });
  }
}
export function serializeManifest(manifest: ImportManifest): string {
  if (stryMutAct_9fa48("4565")) {
    {}
  } else {
    stryCov_9fa48("4565");
    return stryMutAct_9fa48("4566") ? `` : (stryCov_9fa48("4566"), `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** A batch as the manifest records it before it is sent. */
export function pendingBatch(batch: Pick<UserBatch, "number" | "rows" | "sha256">): ManifestBatch {
  if (stryMutAct_9fa48("4567")) {
    {}
  } else {
    stryCov_9fa48("4567");
    const first = batch.rows[0];
    const last = batch.rows[stryMutAct_9fa48("4568") ? batch.rows.length + 1 : (stryCov_9fa48("4568"), batch.rows.length - 1)];
    if (stryMutAct_9fa48("4571") ? first === undefined && last === undefined : stryMutAct_9fa48("4570") ? false : stryMutAct_9fa48("4569") ? true : (stryCov_9fa48("4569", "4570", "4571"), (stryMutAct_9fa48("4573") ? first !== undefined : stryMutAct_9fa48("4572") ? false : (stryCov_9fa48("4572", "4573"), first === undefined)) || (stryMutAct_9fa48("4575") ? last !== undefined : stryMutAct_9fa48("4574") ? false : (stryCov_9fa48("4574", "4575"), last === undefined)))) throw new RangeError(stryMutAct_9fa48("4576") ? `` : (stryCov_9fa48("4576"), `batch ${batch.number} has no rows`));
    return stryMutAct_9fa48("4577") ? {} : (stryCov_9fa48("4577"), {
      number: batch.number,
      rows: batch.rows.length,
      firstRow: first,
      lastRow: last,
      sha256: batch.sha256,
      state: stryMutAct_9fa48("4578") ? "" : (stryCov_9fa48("4578"), "pending"),
      sends: 0
    });
  }
}
export interface ManifestSource {
  file: string;
  sha256: string;
  bytes: number;
  baseUrl: string;
  apiVersion: number;
  organizationId: string;
  skipInvalid: boolean;
  totalRows: number;
  validRows: number;
  invalidRows: number;
}
export function newManifest(source: ManifestSource, batches: ManifestBatch[], nowIso: string): ImportManifest {
  if (stryMutAct_9fa48("4579")) {
    {}
  } else {
    stryCov_9fa48("4579");
    return stryMutAct_9fa48("4580") ? {} : (stryCov_9fa48("4580"), {
      manifestVersion: MANIFEST_VERSION,
      ...source,
      createdAt: nowIso,
      updatedAt: nowIso,
      batches
    });
  }
}

/** A copy with batch `number` changed. */
export function updateBatch(manifest: ImportManifest, number: number, patch: Partial<ManifestBatch>, nowIso: string): ImportManifest {
  if (stryMutAct_9fa48("4581")) {
    {}
  } else {
    stryCov_9fa48("4581");
    let found = stryMutAct_9fa48("4582") ? true : (stryCov_9fa48("4582"), false);
    const batches = manifest.batches.map(b => {
      if (stryMutAct_9fa48("4583")) {
        {}
      } else {
        stryCov_9fa48("4583");
        if (stryMutAct_9fa48("4586") ? b.number === number : stryMutAct_9fa48("4585") ? false : stryMutAct_9fa48("4584") ? true : (stryCov_9fa48("4584", "4585", "4586"), b.number !== number)) return b;
        found = stryMutAct_9fa48("4587") ? false : (stryCov_9fa48("4587"), true);
        return stryMutAct_9fa48("4588") ? {} : (stryCov_9fa48("4588"), {
          ...b,
          ...patch
        });
      }
    });
    if (stryMutAct_9fa48("4591") ? false : stryMutAct_9fa48("4590") ? true : stryMutAct_9fa48("4589") ? found : (stryCov_9fa48("4589", "4590", "4591"), !found)) throw new RangeError(stryMutAct_9fa48("4592") ? `` : (stryCov_9fa48("4592"), `the manifest has no batch ${number}`));
    return stryMutAct_9fa48("4593") ? {} : (stryCov_9fa48("4593"), {
      ...manifest,
      batches,
      updatedAt: nowIso
    });
  }
}

/** Whether the service may have received this batch (it has, or may have, a task). */
export function mayHaveBeenSent(batch: ManifestBatch): boolean {
  if (stryMutAct_9fa48("4594")) {
    {}
  } else {
    stryCov_9fa48("4594");
    return stryMutAct_9fa48("4597") ? batch.state === "pending" : stryMutAct_9fa48("4596") ? false : stryMutAct_9fa48("4595") ? true : (stryCov_9fa48("4595", "4596", "4597"), batch.state !== (stryMutAct_9fa48("4598") ? "" : (stryCov_9fa48("4598"), "pending")));
  }
}

/** Nothing left to send without the user's say-so, and nothing in doubt. */
export function isFinished(manifest: ImportManifest): boolean {
  if (stryMutAct_9fa48("4599")) {
    {}
  } else {
    stryCov_9fa48("4599");
    return stryMutAct_9fa48("4600") ? manifest.batches.some(b => b.state === "uploaded" || b.state === "rejected") : (stryCov_9fa48("4600"), manifest.batches.every(stryMutAct_9fa48("4601") ? () => undefined : (stryCov_9fa48("4601"), b => stryMutAct_9fa48("4604") ? b.state === "uploaded" && b.state === "rejected" : stryMutAct_9fa48("4603") ? false : stryMutAct_9fa48("4602") ? true : (stryCov_9fa48("4602", "4603", "4604"), (stryMutAct_9fa48("4606") ? b.state !== "uploaded" : stryMutAct_9fa48("4605") ? false : (stryCov_9fa48("4605", "4606"), b.state === (stryMutAct_9fa48("4607") ? "" : (stryCov_9fa48("4607"), "uploaded")))) || (stryMutAct_9fa48("4609") ? b.state !== "rejected" : stryMutAct_9fa48("4608") ? false : (stryCov_9fa48("4608", "4609"), b.state === (stryMutAct_9fa48("4610") ? "" : (stryCov_9fa48("4610"), "rejected"))))))));
  }
}
export type StartDecision = {
  kind: "fresh";
}
/** A manifest exists but may be replaced; `note` says why, for stderr. */ | {
  kind: "replace";
  note: string;
} | {
  kind: "resume";
  manifest: ImportManifest;
}
/** Exit 2, nothing sent. */ | {
  kind: "refuse";
  message: string;
  hint: string;
};
function describeSent(manifest: ImportManifest): string {
  if (stryMutAct_9fa48("4611")) {
    {}
  } else {
    stryCov_9fa48("4611");
    const counts = countStates(manifest);
    const parts: string[] = stryMutAct_9fa48("4612") ? ["Stryker was here"] : (stryCov_9fa48("4612"), []);
    if (stryMutAct_9fa48("4614") ? false : stryMutAct_9fa48("4613") ? true : (stryCov_9fa48("4613", "4614"), counts.uploaded)) parts.push(stryMutAct_9fa48("4615") ? `` : (stryCov_9fa48("4615"), `${counts.uploaded} uploaded`));
    if (stryMutAct_9fa48("4618") ? false : stryMutAct_9fa48("4617") ? true : stryMutAct_9fa48("4616") ? counts.ambiguous - counts.uploading : (stryCov_9fa48("4616", "4617", "4618"), counts.ambiguous + counts.uploading)) parts.push(stryMutAct_9fa48("4619") ? `` : (stryCov_9fa48("4619"), `${stryMutAct_9fa48("4620") ? counts.ambiguous - counts.uploading : (stryCov_9fa48("4620"), counts.ambiguous + counts.uploading)} possibly received`));
    if (stryMutAct_9fa48("4622") ? false : stryMutAct_9fa48("4621") ? true : (stryCov_9fa48("4621", "4622"), counts.rejected)) parts.push(stryMutAct_9fa48("4623") ? `` : (stryCov_9fa48("4623"), `${counts.rejected} rejected`));
    if (stryMutAct_9fa48("4625") ? false : stryMutAct_9fa48("4624") ? true : (stryCov_9fa48("4624", "4625"), counts.pending)) parts.push(stryMutAct_9fa48("4626") ? `` : (stryCov_9fa48("4626"), `${counts.pending} not sent`));
    return stryMutAct_9fa48("4627") ? `` : (stryCov_9fa48("4627"), `${manifest.batches.length} batch${(stryMutAct_9fa48("4630") ? manifest.batches.length !== 1 : stryMutAct_9fa48("4629") ? false : stryMutAct_9fa48("4628") ? true : (stryCov_9fa48("4628", "4629", "4630"), manifest.batches.length === 1)) ? stryMutAct_9fa48("4631") ? "Stryker was here!" : (stryCov_9fa48("4631"), "") : stryMutAct_9fa48("4632") ? "" : (stryCov_9fa48("4632"), "es")}: ${parts.join(stryMutAct_9fa48("4633") ? "" : (stryCov_9fa48("4633"), ", "))}`);
  }
}
export function countStates(manifest: ImportManifest): Record<BatchState, number> {
  if (stryMutAct_9fa48("4634")) {
    {}
  } else {
    stryCov_9fa48("4634");
    const counts: Record<BatchState, number> = stryMutAct_9fa48("4635") ? {} : (stryCov_9fa48("4635"), {
      pending: 0,
      uploading: 0,
      uploaded: 0,
      ambiguous: 0,
      rejected: 0
    });
    for (const b of manifest.batches) stryMutAct_9fa48("4636") ? counts[b.state]-- : (stryCov_9fa48("4636"), counts[b.state]++);
    return counts;
  }
}

/**
 * What to do with an existing manifest (or none) for the file as it is now. `names` are
 * for messages: the CSV's and the manifest's display names.
 */
export function decideStart(existing: ImportManifest | undefined, current: {
  sha256: string;
  organizationId: string;
}, resume: boolean, names: {
  file: string;
  manifest: string;
  command: string;
}): StartDecision {
  if (stryMutAct_9fa48("4637")) {
    {}
  } else {
    stryCov_9fa48("4637");
    const rerun = stryMutAct_9fa48("4638") ? `` : (stryCov_9fa48("4638"), `${names.command} --resume`);
    if (stryMutAct_9fa48("4641") ? existing !== undefined : stryMutAct_9fa48("4640") ? false : stryMutAct_9fa48("4639") ? true : (stryCov_9fa48("4639", "4640", "4641"), existing === undefined)) {
      if (stryMutAct_9fa48("4642")) {
        {}
      } else {
        stryCov_9fa48("4642");
        if (stryMutAct_9fa48("4645") ? false : stryMutAct_9fa48("4644") ? true : stryMutAct_9fa48("4643") ? resume : (stryCov_9fa48("4643", "4644", "4645"), !resume)) return stryMutAct_9fa48("4646") ? {} : (stryCov_9fa48("4646"), {
          kind: stryMutAct_9fa48("4647") ? "" : (stryCov_9fa48("4647"), "fresh")
        });
        return stryMutAct_9fa48("4648") ? {} : (stryCov_9fa48("4648"), {
          kind: stryMutAct_9fa48("4649") ? "" : (stryCov_9fa48("4649"), "refuse"),
          message: stryMutAct_9fa48("4650") ? `` : (stryCov_9fa48("4650"), `--resume: there is no manifest ${names.manifest} to resume from`),
          hint: stryMutAct_9fa48("4651") ? `` : (stryCov_9fa48("4651"), `run without --resume to start the import of ${names.file}`)
        });
      }
    }
    const sameFile = stryMutAct_9fa48("4654") ? existing.sha256 !== current.sha256 : stryMutAct_9fa48("4653") ? false : stryMutAct_9fa48("4652") ? true : (stryCov_9fa48("4652", "4653", "4654"), existing.sha256 === current.sha256);
    const sameOrg = stryMutAct_9fa48("4657") ? existing.organizationId !== current.organizationId : stryMutAct_9fa48("4656") ? false : stryMutAct_9fa48("4655") ? true : (stryCov_9fa48("4655", "4656", "4657"), existing.organizationId === current.organizationId);
    const anythingSent = stryMutAct_9fa48("4658") ? existing.batches.every(mayHaveBeenSent) : (stryCov_9fa48("4658"), existing.batches.some(mayHaveBeenSent));
    if (stryMutAct_9fa48("4660") ? false : stryMutAct_9fa48("4659") ? true : (stryCov_9fa48("4659", "4660"), resume)) {
      if (stryMutAct_9fa48("4661")) {
        {}
      } else {
        stryCov_9fa48("4661");
        if (stryMutAct_9fa48("4664") ? false : stryMutAct_9fa48("4663") ? true : stryMutAct_9fa48("4662") ? sameFile : (stryCov_9fa48("4662", "4663", "4664"), !sameFile)) {
          if (stryMutAct_9fa48("4665")) {
            {}
          } else {
            stryCov_9fa48("4665");
            return stryMutAct_9fa48("4666") ? {} : (stryCov_9fa48("4666"), {
              kind: stryMutAct_9fa48("4667") ? "" : (stryCov_9fa48("4667"), "refuse"),
              message: stryMutAct_9fa48("4668") ? `` : (stryCov_9fa48("4668"), `--resume: ${names.file} is not the file recorded in ${names.manifest} (its content changed since that import: SHA-256 ${stryMutAct_9fa48("4669") ? current.sha256 : (stryCov_9fa48("4669"), current.sha256.slice(0, 12))}… instead of ${stryMutAct_9fa48("4670") ? existing.sha256 : (stryCov_9fa48("4670"), existing.sha256.slice(0, 12))}…)`),
              hint: stryMutAct_9fa48("4671") ? `` : (stryCov_9fa48("4671"), `restore the file that was imported and resume, or remove ${names.manifest} to import the changed file as a new import (rows imported already would be sent again)`)
            });
          }
        }
        if (stryMutAct_9fa48("4674") ? false : stryMutAct_9fa48("4673") ? true : stryMutAct_9fa48("4672") ? sameOrg : (stryCov_9fa48("4672", "4673", "4674"), !sameOrg)) {
          if (stryMutAct_9fa48("4675")) {
            {}
          } else {
            stryCov_9fa48("4675");
            return stryMutAct_9fa48("4676") ? {} : (stryCov_9fa48("4676"), {
              kind: stryMutAct_9fa48("4677") ? "" : (stryCov_9fa48("4677"), "refuse"),
              message: stryMutAct_9fa48("4678") ? `` : (stryCov_9fa48("4678"), `--resume: ${names.manifest} records an import into organization ${JSON.stringify(existing.organizationId)}, not ${JSON.stringify(current.organizationId)}`),
              hint: stryMutAct_9fa48("4679") ? `` : (stryCov_9fa48("4679"), `resume with --org ${existing.organizationId}`)
            });
          }
        }
        return stryMutAct_9fa48("4680") ? {} : (stryCov_9fa48("4680"), {
          kind: stryMutAct_9fa48("4681") ? "" : (stryCov_9fa48("4681"), "resume"),
          manifest: existing
        });
      }
    }
    if (stryMutAct_9fa48("4684") ? false : stryMutAct_9fa48("4683") ? true : stryMutAct_9fa48("4682") ? anythingSent : (stryCov_9fa48("4682", "4683", "4684"), !anythingSent)) {
      if (stryMutAct_9fa48("4685")) {
        {}
      } else {
        stryCov_9fa48("4685");
        return stryMutAct_9fa48("4686") ? {} : (stryCov_9fa48("4686"), {
          kind: stryMutAct_9fa48("4687") ? "" : (stryCov_9fa48("4687"), "replace"),
          note: stryMutAct_9fa48("4688") ? `` : (stryCov_9fa48("4688"), `${names.manifest} recorded no upload; starting afresh`)
        });
      }
    }
    if (stryMutAct_9fa48("4690") ? false : stryMutAct_9fa48("4689") ? true : (stryCov_9fa48("4689", "4690"), sameFile)) {
      if (stryMutAct_9fa48("4691")) {
        {}
      } else {
        stryCov_9fa48("4691");
        const again = stryMutAct_9fa48("4692") ? existing.batches.every(b => b.status === "FAILED" || b.state === "ambiguous" || b.state === "uploading") : (stryCov_9fa48("4692"), existing.batches.some(stryMutAct_9fa48("4693") ? () => undefined : (stryCov_9fa48("4693"), b => stryMutAct_9fa48("4696") ? (b.status === "FAILED" || b.state === "ambiguous") && b.state === "uploading" : stryMutAct_9fa48("4695") ? false : stryMutAct_9fa48("4694") ? true : (stryCov_9fa48("4694", "4695", "4696"), (stryMutAct_9fa48("4698") ? b.status === "FAILED" && b.state === "ambiguous" : stryMutAct_9fa48("4697") ? false : (stryCov_9fa48("4697", "4698"), (stryMutAct_9fa48("4700") ? b.status !== "FAILED" : stryMutAct_9fa48("4699") ? false : (stryCov_9fa48("4699", "4700"), b.status === (stryMutAct_9fa48("4701") ? "" : (stryCov_9fa48("4701"), "FAILED")))) || (stryMutAct_9fa48("4703") ? b.state !== "ambiguous" : stryMutAct_9fa48("4702") ? false : (stryCov_9fa48("4702", "4703"), b.state === (stryMutAct_9fa48("4704") ? "" : (stryCov_9fa48("4704"), "ambiguous")))))) || (stryMutAct_9fa48("4706") ? b.state !== "uploading" : stryMutAct_9fa48("4705") ? false : (stryCov_9fa48("4705", "4706"), b.state === (stryMutAct_9fa48("4707") ? "" : (stryCov_9fa48("4707"), "uploading"))))))));
        return stryMutAct_9fa48("4708") ? {} : (stryCov_9fa48("4708"), {
          kind: stryMutAct_9fa48("4709") ? "" : (stryCov_9fa48("4709"), "refuse"),
          message: stryMutAct_9fa48("4710") ? `` : (stryCov_9fa48("4710"), `${names.file} was already imported into ${describeTarget(existing)} according to ${names.manifest} (${describeSent(existing)}); nothing was sent`),
          hint: (stryMutAct_9fa48("4711") ? `` : (stryCov_9fa48("4711"), `run \`${rerun}\` to continue that import without sending a batch twice`)) + (again ? stryMutAct_9fa48("4712") ? `` : (stryCov_9fa48("4712"), `, or \`${names.command} --retry-failed\` to also send its FAILED or possibly-received batches again`) : stryMutAct_9fa48("4713") ? "Stryker was here!" : (stryCov_9fa48("4713"), "")) + (stryMutAct_9fa48("4714") ? `` : (stryCov_9fa48("4714"), `; remove ${names.manifest} only to import the whole file again`))
        });
      }
    }
    if (stryMutAct_9fa48("4716") ? false : stryMutAct_9fa48("4715") ? true : (stryCov_9fa48("4715", "4716"), isFinished(existing))) {
      if (stryMutAct_9fa48("4717")) {
        {}
      } else {
        stryCov_9fa48("4717");
        return stryMutAct_9fa48("4718") ? {} : (stryCov_9fa48("4718"), {
          kind: stryMutAct_9fa48("4719") ? "" : (stryCov_9fa48("4719"), "replace"),
          note: stryMutAct_9fa48("4720") ? `` : (stryCov_9fa48("4720"), `replacing ${names.manifest}: it recorded a finished import of an earlier version of ${names.file}`)
        });
      }
    }
    return stryMutAct_9fa48("4721") ? {} : (stryCov_9fa48("4721"), {
      kind: stryMutAct_9fa48("4722") ? "" : (stryCov_9fa48("4722"), "refuse"),
      message: stryMutAct_9fa48("4723") ? `` : (stryCov_9fa48("4723"), `${names.manifest} records an unfinished import of an earlier version of ${names.file} (${describeSent(existing)}), and the file has changed since; nothing was sent`),
      hint: stryMutAct_9fa48("4724") ? `` : (stryCov_9fa48("4724"), `restore that version and run \`${rerun}\` to finish it, or remove ${names.manifest} to abandon it and import the file as it is now`)
    });
  }
}

/**
 * Before a --resume or --retry-failed run sends anything: batches to send again keep what
 * their earlier send left in `history` (taskIds included). FAILED tasks (only with
 * --retry-failed) become pending; ambiguous ones stay ambiguous (they are re-sent with a warning).
 */
export function prepareResend(manifest: ImportManifest, retryFailed: boolean, nowIso: string): ImportManifest {
  if (stryMutAct_9fa48("4725")) {
    {}
  } else {
    stryCov_9fa48("4725");
    const batches = manifest.batches.map((b): ManifestBatch => {
      if (stryMutAct_9fa48("4726")) {
        {}
      } else {
        stryCov_9fa48("4726");
        const failed = stryMutAct_9fa48("4729") ? retryFailed && b.state === "uploaded" || b.status === "FAILED" : stryMutAct_9fa48("4728") ? false : stryMutAct_9fa48("4727") ? true : (stryCov_9fa48("4727", "4728", "4729"), (stryMutAct_9fa48("4731") ? retryFailed || b.state === "uploaded" : stryMutAct_9fa48("4730") ? true : (stryCov_9fa48("4730", "4731"), retryFailed && (stryMutAct_9fa48("4733") ? b.state !== "uploaded" : stryMutAct_9fa48("4732") ? true : (stryCov_9fa48("4732", "4733"), b.state === (stryMutAct_9fa48("4734") ? "" : (stryCov_9fa48("4734"), "uploaded")))))) && (stryMutAct_9fa48("4736") ? b.status !== "FAILED" : stryMutAct_9fa48("4735") ? true : (stryCov_9fa48("4735", "4736"), b.status === (stryMutAct_9fa48("4737") ? "" : (stryCov_9fa48("4737"), "FAILED")))));
        const ambiguous = stryMutAct_9fa48("4740") ? b.state === "ambiguous" && b.state === "uploading" : stryMutAct_9fa48("4739") ? false : stryMutAct_9fa48("4738") ? true : (stryCov_9fa48("4738", "4739", "4740"), (stryMutAct_9fa48("4742") ? b.state !== "ambiguous" : stryMutAct_9fa48("4741") ? false : (stryCov_9fa48("4741", "4742"), b.state === (stryMutAct_9fa48("4743") ? "" : (stryCov_9fa48("4743"), "ambiguous")))) || (stryMutAct_9fa48("4745") ? b.state !== "uploading" : stryMutAct_9fa48("4744") ? false : (stryCov_9fa48("4744", "4745"), b.state === (stryMutAct_9fa48("4746") ? "" : (stryCov_9fa48("4746"), "uploading")))));
        if (stryMutAct_9fa48("4749") ? !failed || !ambiguous : stryMutAct_9fa48("4748") ? false : stryMutAct_9fa48("4747") ? true : (stryCov_9fa48("4747", "4748", "4749"), (stryMutAct_9fa48("4750") ? failed : (stryCov_9fa48("4750"), !failed)) && (stryMutAct_9fa48("4751") ? ambiguous : (stryCov_9fa48("4751"), !ambiguous)))) return b;
        const entry = stryMutAct_9fa48("4752") ? {} : (stryCov_9fa48("4752"), {
          state: b.state,
          ...((stryMutAct_9fa48("4755") ? b.taskId !== undefined : stryMutAct_9fa48("4754") ? false : stryMutAct_9fa48("4753") ? true : (stryCov_9fa48("4753", "4754", "4755"), b.taskId === undefined)) ? {} : stryMutAct_9fa48("4756") ? {} : (stryCov_9fa48("4756"), {
            taskId: b.taskId
          })),
          ...((stryMutAct_9fa48("4759") ? b.status !== undefined : stryMutAct_9fa48("4758") ? false : stryMutAct_9fa48("4757") ? true : (stryCov_9fa48("4757", "4758", "4759"), b.status === undefined)) ? {} : stryMutAct_9fa48("4760") ? {} : (stryCov_9fa48("4760"), {
            status: b.status
          })),
          ...((stryMutAct_9fa48("4763") ? b.uploadedAt !== undefined : stryMutAct_9fa48("4762") ? false : stryMutAct_9fa48("4761") ? true : (stryCov_9fa48("4761", "4762", "4763"), b.uploadedAt === undefined)) ? {} : stryMutAct_9fa48("4764") ? {} : (stryCov_9fa48("4764"), {
            uploadedAt: b.uploadedAt
          })),
          ...((stryMutAct_9fa48("4767") ? b.error !== undefined : stryMutAct_9fa48("4766") ? false : stryMutAct_9fa48("4765") ? true : (stryCov_9fa48("4765", "4766", "4767"), b.error === undefined)) ? {} : stryMutAct_9fa48("4768") ? {} : (stryCov_9fa48("4768"), {
            error: b.error
          })),
          replacedAt: nowIso
        });
        const history = stryMutAct_9fa48("4769") ? [] : (stryCov_9fa48("4769"), [...(stryMutAct_9fa48("4770") ? b.history && [] : (stryCov_9fa48("4770"), b.history ?? (stryMutAct_9fa48("4771") ? ["Stryker was here"] : (stryCov_9fa48("4771"), [])))), entry]);
        if (stryMutAct_9fa48("4774") ? false : stryMutAct_9fa48("4773") ? true : stryMutAct_9fa48("4772") ? failed : (stryCov_9fa48("4772", "4773", "4774"), !failed)) return stryMutAct_9fa48("4775") ? {} : (stryCov_9fa48("4775"), {
          ...b,
          history
        });
        return stryMutAct_9fa48("4776") ? {} : (stryCov_9fa48("4776"), {
          number: b.number,
          rows: b.rows,
          firstRow: b.firstRow,
          lastRow: b.lastRow,
          sha256: b.sha256,
          state: stryMutAct_9fa48("4777") ? "" : (stryCov_9fa48("4777"), "pending"),
          sends: b.sends,
          history
        });
      }
    });
    return stryMutAct_9fa48("4778") ? {} : (stryCov_9fa48("4778"), {
      ...manifest,
      batches,
      updatedAt: nowIso
    });
  }
}

/** How many batches a --retry-failed run would send again. */
export function countResends(manifest: ImportManifest, retryFailed: boolean): {
  failed: number;
  ambiguous: number;
} {
  if (stryMutAct_9fa48("4779")) {
    {}
  } else {
    stryCov_9fa48("4779");
    let failed = 0;
    let ambiguous = 0;
    for (const b of manifest.batches) {
      if (stryMutAct_9fa48("4780")) {
        {}
      } else {
        stryCov_9fa48("4780");
        if (stryMutAct_9fa48("4783") ? retryFailed && b.state === "uploaded" || b.status === "FAILED" : stryMutAct_9fa48("4782") ? false : stryMutAct_9fa48("4781") ? true : (stryCov_9fa48("4781", "4782", "4783"), (stryMutAct_9fa48("4785") ? retryFailed || b.state === "uploaded" : stryMutAct_9fa48("4784") ? true : (stryCov_9fa48("4784", "4785"), retryFailed && (stryMutAct_9fa48("4787") ? b.state !== "uploaded" : stryMutAct_9fa48("4786") ? true : (stryCov_9fa48("4786", "4787"), b.state === (stryMutAct_9fa48("4788") ? "" : (stryCov_9fa48("4788"), "uploaded")))))) && (stryMutAct_9fa48("4790") ? b.status !== "FAILED" : stryMutAct_9fa48("4789") ? true : (stryCov_9fa48("4789", "4790"), b.status === (stryMutAct_9fa48("4791") ? "" : (stryCov_9fa48("4791"), "FAILED")))))) stryMutAct_9fa48("4792") ? failed-- : (stryCov_9fa48("4792"), failed++);
        if (stryMutAct_9fa48("4795") ? b.state === "ambiguous" && b.state === "uploading" : stryMutAct_9fa48("4794") ? false : stryMutAct_9fa48("4793") ? true : (stryCov_9fa48("4793", "4794", "4795"), (stryMutAct_9fa48("4797") ? b.state !== "ambiguous" : stryMutAct_9fa48("4796") ? false : (stryCov_9fa48("4796", "4797"), b.state === (stryMutAct_9fa48("4798") ? "" : (stryCov_9fa48("4798"), "ambiguous")))) || (stryMutAct_9fa48("4800") ? b.state !== "uploading" : stryMutAct_9fa48("4799") ? false : (stryCov_9fa48("4799", "4800"), b.state === (stryMutAct_9fa48("4801") ? "" : (stryCov_9fa48("4801"), "uploading")))))) stryMutAct_9fa48("4802") ? ambiguous-- : (stryCov_9fa48("4802"), ambiguous++);
      }
    }
    return stryMutAct_9fa48("4803") ? {} : (stryCov_9fa48("4803"), {
      failed,
      ambiguous
    });
  }
}

/**
 * Under --resume the batches computed from the file must be the manifest's: same count,
 * same hashes in the same order. Returns a problem, or undefined when they match.
 */
export function checkSameBatches(manifest: ImportManifest, computed: readonly Pick<ManifestBatch, "number" | "sha256">[]): string | undefined {
  if (stryMutAct_9fa48("4804")) {
    {}
  } else {
    stryCov_9fa48("4804");
    if (stryMutAct_9fa48("4807") ? manifest.batches.length === computed.length : stryMutAct_9fa48("4806") ? false : stryMutAct_9fa48("4805") ? true : (stryCov_9fa48("4805", "4806", "4807"), manifest.batches.length !== computed.length)) {
      if (stryMutAct_9fa48("4808")) {
        {}
      } else {
        stryCov_9fa48("4808");
        return stryMutAct_9fa48("4809") ? `` : (stryCov_9fa48("4809"), `the file now makes ${computed.length} batches, the manifest records ${manifest.batches.length}`);
      }
    }
    for (const [i, batch] of computed.entries()) {
      if (stryMutAct_9fa48("4810")) {
        {}
      } else {
        stryCov_9fa48("4810");
        const recorded = manifest.batches[i];
        if (stryMutAct_9fa48("4813") ? (!recorded || recorded.number !== batch.number) && recorded.sha256 !== batch.sha256 : stryMutAct_9fa48("4812") ? false : stryMutAct_9fa48("4811") ? true : (stryCov_9fa48("4811", "4812", "4813"), (stryMutAct_9fa48("4815") ? !recorded && recorded.number !== batch.number : stryMutAct_9fa48("4814") ? false : (stryCov_9fa48("4814", "4815"), (stryMutAct_9fa48("4816") ? recorded : (stryCov_9fa48("4816"), !recorded)) || (stryMutAct_9fa48("4818") ? recorded.number === batch.number : stryMutAct_9fa48("4817") ? false : (stryCov_9fa48("4817", "4818"), recorded.number !== batch.number)))) || (stryMutAct_9fa48("4820") ? recorded.sha256 === batch.sha256 : stryMutAct_9fa48("4819") ? false : (stryCov_9fa48("4819", "4820"), recorded.sha256 !== batch.sha256)))) {
          if (stryMutAct_9fa48("4821")) {
            {}
          } else {
            stryCov_9fa48("4821");
            return stryMutAct_9fa48("4822") ? `` : (stryCov_9fa48("4822"), `batch ${batch.number} differs from the one recorded`);
          }
        }
      }
    }
    return undefined;
  }
}
export type BatchAction = "send" | "resend-ambiguous" | "skip-uploaded" | "skip-rejected";

/** What a run does with each batch of the manifest (a fresh one is all "send"). */
export function batchAction(batch: ManifestBatch): BatchAction {
  if (stryMutAct_9fa48("4823")) {
    {}
  } else {
    stryCov_9fa48("4823");
    switch (batch.state) {
      case stryMutAct_9fa48("4825") ? "" : (stryCov_9fa48("4825"), "pending"):
        if (stryMutAct_9fa48("4824")) {} else {
          stryCov_9fa48("4824");
          return stryMutAct_9fa48("4826") ? "" : (stryCov_9fa48("4826"), "send");
        }
      case stryMutAct_9fa48("4827") ? "" : (stryCov_9fa48("4827"), "uploading"):
      case stryMutAct_9fa48("4829") ? "" : (stryCov_9fa48("4829"), "ambiguous"):
        if (stryMutAct_9fa48("4828")) {} else {
          stryCov_9fa48("4828");
          return stryMutAct_9fa48("4830") ? "" : (stryCov_9fa48("4830"), "resend-ambiguous");
        }
      case stryMutAct_9fa48("4832") ? "" : (stryCov_9fa48("4832"), "uploaded"):
        if (stryMutAct_9fa48("4831")) {} else {
          stryCov_9fa48("4831");
          return stryMutAct_9fa48("4833") ? "" : (stryCov_9fa48("4833"), "skip-uploaded");
        }
      case stryMutAct_9fa48("4835") ? "" : (stryCov_9fa48("4835"), "rejected"):
        if (stryMutAct_9fa48("4834")) {} else {
          stryCov_9fa48("4834");
          return stryMutAct_9fa48("4836") ? "" : (stryCov_9fa48("4836"), "skip-rejected");
        }
    }
  }
}

/** The row range of a batch for people: "rows 2–751". */
export function rowRange(batch: Pick<ManifestBatch, "firstRow" | "lastRow">): string {
  if (stryMutAct_9fa48("4837")) {
    {}
  } else {
    stryCov_9fa48("4837");
    return (stryMutAct_9fa48("4840") ? batch.firstRow !== batch.lastRow : stryMutAct_9fa48("4839") ? false : stryMutAct_9fa48("4838") ? true : (stryCov_9fa48("4838", "4839", "4840"), batch.firstRow === batch.lastRow)) ? stryMutAct_9fa48("4841") ? `` : (stryCov_9fa48("4841"), `row ${batch.firstRow}`) : stryMutAct_9fa48("4842") ? `` : (stryCov_9fa48("4842"), `rows ${batch.firstRow}–${batch.lastRow}`);
  }
}

/** One output record per batch (the command's data after an upload run). */
export function batchRecord(batch: ManifestBatch): Record<string, unknown> {
  if (stryMutAct_9fa48("4843")) {
    {}
  } else {
    stryCov_9fa48("4843");
    return stryMutAct_9fa48("4844") ? {} : (stryCov_9fa48("4844"), {
      batch: batch.number,
      rows: batch.rows,
      firstRow: batch.firstRow,
      lastRow: batch.lastRow,
      state: batch.state,
      taskId: stryMutAct_9fa48("4845") ? batch.taskId && null : (stryCov_9fa48("4845"), batch.taskId ?? null),
      status: stryMutAct_9fa48("4846") ? batch.status && null : (stryCov_9fa48("4846"), batch.status ?? null),
      rejectedRows: (stryMutAct_9fa48("4849") ? batch.state !== "rejected" : stryMutAct_9fa48("4848") ? false : stryMutAct_9fa48("4847") ? true : (stryCov_9fa48("4847", "4848", "4849"), batch.state === (stryMutAct_9fa48("4850") ? "" : (stryCov_9fa48("4850"), "rejected")))) ? batch.rows : stryMutAct_9fa48("4851") ? batch.rowErrors?.length && 0 : (stryCov_9fa48("4851"), (stryMutAct_9fa48("4852") ? batch.rowErrors.length : (stryCov_9fa48("4852"), batch.rowErrors?.length)) ?? 0)
    });
  }
}