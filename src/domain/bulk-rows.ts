import * as z from "zod";

// Bulk operations (`assign|unassign|link --from-csv`, docs/cli-contract.md "Bulk operations"):
// the pure rules — the file's columns, each row's checks, duplicate pairs,
// the plan, and the manifest that records each finished row. No network, clock or files here.

export const BULK_COMMANDS = ["assign", "unassign", "link"] as const;
export type BulkCommand = (typeof BULK_COMMANDS)[number];

export const BULK_COLUMNS = ["userId", "simulationId"] as const;

export interface BulkRow {
  /** Spreadsheet row number (header = 1). */
  row: number;
  userId: string;
  simulationId: string;
  /** Every cell as read, for the errors file (original columns kept). */
  cells: string[];
}

export interface BulkProblem {
  row: number;
  field: string;
  message: string;
}

export interface BulkHeader {
  /** Column index of userId and simulationId. */
  userId: number;
  simulationId: number;
  /** Header names (canonical for the two columns), for the errors file. */
  names: string[];
}

/**
 * Checks the rows of a file in order: both ids present (trimmed), the row as wide as the
 * header, each (userId, simulationId) pair once — the later row is the error and names the
 * first. Blank rows are skipped.
 */
export class BulkRowChecker {
  readonly rows: BulkRow[] = [];
  readonly problems: BulkProblem[] = [];
  /** The cells of invalid rows, for the errors file. */
  readonly invalidCells = new Map<number, string[]>();
  private readonly seen = new Map<string, number>();

  constructor(private readonly header: BulkHeader) {}

  add(cells: readonly string[], row: number): void {
    if (cells.every((c) => c.trim() === "")) return;
    const before = this.problems.length;
    if (cells.length !== this.header.names.length) {
      this.problems.push({
        row,
        field: "(row)",
        message: `has ${cells.length} cells, the header has ${this.header.names.length}`,
      });
    }
    const userId = (cells[this.header.userId] ?? "").trim();
    const simulationId = (cells[this.header.simulationId] ?? "").trim();
    if (userId === "") this.problems.push({ row, field: "userId", message: "is empty" });
    if (simulationId === "") this.problems.push({ row, field: "simulationId", message: "is empty" });
    if (userId !== "" && simulationId !== "") {
      const key = JSON.stringify([userId, simulationId]);
      const first = this.seen.get(key);
      if (first !== undefined) {
        this.problems.push({ row, field: "(row)", message: `repeats the pair ${userId} / ${simulationId} of row ${first}` });
      } else {
        this.seen.set(key, row);
      }
    }
    if (this.problems.length === before) this.rows.push({ row, userId, simulationId, cells: cells.slice() });
    else this.invalidCells.set(row, cells.slice());
  }
}

export interface BulkPlan {
  command: BulkCommand;
  rows: number;
  users: number;
  simulations: number;
  /** Rows a manifest records as finished (skipped by --resume). */
  finished: number;
  /** Requests this run will send: one per unfinished row, plus (link) one token per distinct user. */
  requests: number;
}

export function planBulk(command: BulkCommand, rows: readonly BulkRow[], finishedRows: ReadonlySet<number>): BulkPlan {
  const pending = rows.filter((r) => !finishedRows.has(r.row));
  // link: a token for every user of the output, finished rows included (their links need a
  // fresh one: tokens are never stored).
  const tokenUsers = command === "link" ? new Set(rows.map((r) => r.userId)).size : 0;
  return {
    command,
    rows: rows.length,
    users: new Set(rows.map((r) => r.userId)).size,
    simulations: new Set(rows.map((r) => r.simulationId)).size,
    finished: rows.length - pending.length,
    requests: pending.length + tokenUsers,
  };
}

// --- the manifest ------------------------------------------------------------------------

export const BULK_MANIFEST_VERSION = 1;

/** One finished row. `deepLink` never carries a token; a link's token is never stored. */
export const BulkManifestRow = z.object({
  status: z.enum(["ok", "failed"]),
  error: z.string().optional(),
  deepLink: z.string().optional(),
  at: z.string(),
});
export type BulkManifestRow = z.infer<typeof BulkManifestRow>;

export const BulkManifest = z.object({
  version: z.literal(BULK_MANIFEST_VERSION),
  command: z.enum(BULK_COMMANDS),
  /** SHA-256 of the CSV's bytes: a changed file is never resumed. */
  sha256: z.string(),
  organizationId: z.string(),
  baseUrl: z.string(),
  /** link --assign takes its deep links from the assignment. */
  assign: z.boolean().optional(),
  startedAt: z.string(),
  updatedAt: z.string(),
  /** Keyed by spreadsheet row number. */
  rows: z.record(z.string(), BulkManifestRow),
});
export type BulkManifest = z.infer<typeof BulkManifest>;

/** `cohort.csv` → `cohort.link.json` (beside it, like users import's `cohort.import.json`). */
export function bulkManifestPath(csvPath: string, command: BulkCommand): string {
  return `${csvPath.replace(/\.csv$/i, "")}.${command}.json`;
}

export function bulkErrorsPath(csvPath: string): string {
  return `${csvPath.replace(/\.csv$/i, "")}.errors.csv`;
}

export function parseBulkManifest(text: string): BulkManifest | undefined {
  try {
    const parsed = BulkManifest.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export type BulkStart =
  { kind: "fresh" } | { kind: "resume"; manifest: BulkManifest } | { kind: "refuse"; message: string; hint: string };

/**
 * What a run does with an existing manifest (the users-import rules, docs/cli-contract.md
 * "Concurrency", README): without --resume, a manifest of the same file with finished rows
 * is refused so that nothing is sent twice by accident; a manifest of another version of
 * the file is replaced. --resume needs a manifest of this very file, command, organization
 * and service.
 */
export function decideBulkStart(
  existing: BulkManifest | undefined | "unreadable",
  current: { command: BulkCommand; sha256: string; organizationId: string; baseUrl: string; assign: boolean },
  resume: boolean,
  manifestPath: string,
): BulkStart {
  if (existing === undefined || existing === "unreadable") {
    if (!resume) return { kind: "fresh" };
    return {
      kind: "refuse",
      message: `--resume: ${existing === "unreadable" ? `${manifestPath} is not a manifest simadmin can read` : `there is no ${manifestPath} to resume from`}`,
      hint: "run the command without --resume to start",
    };
  }
  const sameFile = existing.sha256 === current.sha256;
  const finished = Object.keys(existing.rows).length;
  if (!resume) {
    if (!sameFile || finished === 0) return { kind: "fresh" };
    return {
      kind: "refuse",
      message: `${manifestPath} shows ${finished} row${finished === 1 ? "" : "s"} of this file already done by an earlier run; nothing was sent`,
      hint: "add --resume to continue without repeating them, or remove the manifest to start over",
    };
  }
  if (!sameFile) {
    return {
      kind: "refuse",
      message: `--resume: the file changed since ${manifestPath} was written; nothing was sent`,
      hint: "resume with the file as it was, or remove the manifest to start over",
    };
  }
  if (existing.organizationId !== current.organizationId || existing.baseUrl !== current.baseUrl) {
    return {
      kind: "refuse",
      message: `--resume: ${manifestPath} was written for organization ${existing.organizationId} at ${existing.baseUrl}; nothing was sent`,
      hint: "use the same --org and base URL, or remove the manifest to start over",
    };
  }
  if ((existing.assign ?? false) !== current.assign) {
    return {
      kind: "refuse",
      message: `--resume: ${manifestPath} was written ${existing.assign ? "with" : "without"} --assign; nothing was sent`,
      hint: `run it ${existing.assign ? "with" : "without"} --assign, as before`,
    };
  }
  return { kind: "resume", manifest: existing };
}
