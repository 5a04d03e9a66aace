import { readFile, rm } from "node:fs/promises";
import { LocalFileError, UsageError } from "../../errors.js";
import {
  joinManifest,
  parseManifest,
  serializeManifest,
  updateBatch,
  type ImportManifest,
  type ImportSection,
  type ManifestBatch,
} from "../../domain/users-csv/import-manifest.js";
import { USER_COLUMNS, type InvalidRow, type RowProblem, type UserRow } from "../../domain/users-csv/validate.js";
import { openAtomicFile, writeFileAtomic, type AtomicFile } from "../../output/atomic-file.js";
import { finished } from "node:stream/promises";
import type { Stringifier } from "csv-stringify";
import { csvStringifier } from "../../output/csv.js";

// The side files of `users import` beside the CSV: the manifest (which batches went where)
// and `<file>.errors.csv` (every rejected row, ready to fix and import again). Both hold
// personal data: mode 0600, written atomically.

export function problemText(problems: readonly RowProblem[]): string {
  return problems.map((p) => `${p.field}: ${p.message}`).join("; ");
}

/**
 * `<file>.errors.csv`, written while the rows come (pass 1 calls back synchronously, so the
 * stream is open before it starts); committed at the end, or removed when no row was rejected.
 */
export class RejectedRowsFile {
  private columns: string[] | undefined;
  rows = 0;
  /** Told of every rejected row as it is written (the CI report: annotations, JUnit). */
  onRejected: ((row: number, message: string) => void) | undefined;
  /** csv-stringify with the formula guard (output/csv.ts), row by row into the temp file. */
  private readonly csv: Stringifier;

  private constructor(
    private readonly file: AtomicFile,
    readonly path: string,
  ) {
    this.csv = csvStringifier();
    // The file is ended by commit() or abort(), not when the CSV ends.
    this.csv.pipe(file.stream, { end: false });
  }

  static async open(path: string): Promise<RejectedRowsFile> {
    return new RejectedRowsFile(await openAtomicFile(path, 0o600), path);
  }

  private header(columns: string[]): void {
    if (this.columns) return;
    this.columns = columns;
    this.csv.write([...columns, "row", "errors"]);
  }

  addLocal(invalid: InvalidRow): void {
    this.header(Object.keys(invalid.cells));
    const extra = invalid.extraCells?.length
      ? `; cells beyond the header: ${invalid.extraCells.map((c) => JSON.stringify(c)).join(", ")}`
      : "";
    this.csv.write([...this.columns!.map((c) => invalid.cells[c] ?? ""), invalid.row, problemText(invalid.problems) + extra]);
    this.rows++;
    this.onRejected?.(invalid.row, problemText(invalid.problems) + extra);
  }

  addService(user: UserRow, columns: string[], messages: string[]): void {
    this.header(columns);
    const values = user as unknown as Record<string, string>;
    const known = new Set<string>(USER_COLUMNS);
    this.csv.write([...this.columns!.map((c) => (known.has(c) ? (values[c] ?? "") : "")), user.row, messages.join("; ")]);
    this.rows++;
    this.onRejected?.(user.row, `rejected by the service: ${messages.join("; ")}`);
  }

  /** Keeps the file when it has rows; otherwise removes it and any stale one. Returns whether a stale file was removed. */
  async finish(options: { removeStale: boolean }): Promise<boolean> {
    if (this.rows > 0) {
      this.csv.end();
      // Every row has reached the file stream once the stringifier has ended.
      await finished(this.csv);
      await this.file.commit();
      return false;
    }
    this.csv.destroy();
    await this.file.abort();
    if (!options.removeStale) return false;
    try {
      await rm(this.path);
      return true;
    } catch {
      return false;
    }
  }

  abort(): Promise<void> {
    this.csv.destroy();
    return this.file.abort();
  }
}

export class ManifestStore {
  constructor(
    readonly path: string,
    /** This run's section (one service, one organization). */
    public manifest: ImportManifest,
    private readonly now: () => string,
    /** Imports of the same file into other services or organizations: written back untouched. */
    private readonly others: readonly ImportSection[] = [],
  ) {}

  batch(number: number): ManifestBatch {
    const batch = this.manifest.batches.find((b) => b.number === number);
    if (!batch) throw new RangeError(`the manifest has no batch ${number}`);
    return batch;
  }

  async update(number: number, patch: Partial<ManifestBatch>): Promise<ManifestBatch> {
    this.manifest = updateBatch(this.manifest, number, patch, this.now());
    await this.save();
    return this.batch(number);
  }

  save(): Promise<void> {
    return writeFileAtomic(this.path, serializeManifest(joinManifest(this.manifest, this.others)), 0o600);
  }
}

export async function loadManifest(path: string): Promise<ImportManifest | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw LocalFileError.fromSystem(error, path, "read the manifest");
  }
  const parsed = parseManifest(text);
  if (!parsed.ok) {
    throw new UsageError(`the manifest ${path} is not one simadmin can read (${parsed.problem}); nothing was sent`, {
      hint: "it records which batches were uploaded: restore it, or remove it only if you know what was imported",
    });
  }
  return parsed.manifest;
}
