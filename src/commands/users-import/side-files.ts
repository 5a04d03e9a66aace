import { chmod, open, readFile, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
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
import {
  checkOutputPath,
  openAtomicFile,
  removeStaleTempFiles,
  writeFileAtomic,
  type AtomicFile,
} from "../../output/atomic-file.js";
import { finished } from "node:stream/promises";
import type { Stringifier } from "csv-stringify";
import { csvStringifier, sideFileForm, type CsvInputForm } from "../../output/csv.js";
import type { BatchJournal } from "../../engines/users-import/journal.js";

// The side files of `users import` beside the CSV: the manifest (which batches went where)
// and `<file>.errors.csv` (every rejected row, ready to fix and import again). Both hold
// personal data: mode 0600, written atomically.

export function problemText(problems: readonly RowProblem[]): string {
  return problems.map((p) => `${p.field}: ${p.message}`).join("; ");
}

/** --delimiter and --bom as given (printer.sideFileFlags()). */
type SideFileFlags = { delimiter?: "," | ";" | "\t" | undefined; bom: boolean };

/** A directory that refuses new files: read-only mount, no permission, full. */
const UNWRITABLE_DIR_CODES = new Set(["EROFS", "EACCES", "EPERM", "ENOSPC", "EDQUOT"]);

/**
 * `<file>.errors.csv`, written while the rows come (pass 1 calls back synchronously, so the
 * stream is open before it starts); committed at the end, or removed when no row was rejected.
 */
export class RejectedRowsFile {
  private columns: string[] | undefined;
  rows = 0;
  /** Told of every rejected row as it is written (the CI report: annotations, JUnit). */
  /** `local`: found invalid here (skipped with --skip-invalid); else rejected by the service. */
  onRejected: ((row: number, message: string, local: boolean) => void) | undefined;
  /**
   * csv-stringify with the formula guard (output/csv.ts), row by row into the temp file;
   * made with the first row, once the input's form is known.
   */
  private stringifier: Stringifier | undefined;
  /** How the input was written (useInputForm), for the file's delimiter, BOM and line ends. */
  private input: CsvInputForm = {};

  private constructor(
    private readonly file: AtomicFile | undefined,
    readonly path: string,
    /** --delimiter and --bom when given: they win over the input's form. */
    private readonly flags: SideFileFlags,
    /** Why the file cannot be written (a dry run beside a read-only file): rows are counted, not kept. */
    readonly unwritable?: LocalFileError,
  ) {}

  static async open(path: string, flags: SideFileFlags): Promise<RejectedRowsFile> {
    return new RejectedRowsFile(await openAtomicFile(path, 0o600), path, flags);
  }

  /**
   * The input's delimiter, BOM, line ends and encoding as the reader found them: the file is
   * written the same way (output/csv.ts sideFileForm). Called before the first row is
   * written; later calls change nothing.
   */
  useInputForm(input: CsvInputForm): void {
    if (!this.stringifier) this.input = input;
  }

  private get csv(): Stringifier {
    if (this.stringifier) return this.stringifier;
    const csv = csvStringifier(sideFileForm(this.input, this.flags));
    // The file is ended by commit() or abort(), not when the CSV ends.
    if (this.file) csv.pipe(this.file.stream, { end: false });
    else csv.resume();
    this.stringifier = csv;
    return csv;
  }

  /**
   * For --dry-run: the errors file is a by-product there, so a directory that cannot take it
   * (read-only, full) does not fail a dry run of a valid file; the rows
   * still appear on stderr, and finish() returns the reason when there were some.
   */
  static async openOrSkip(path: string, flags: SideFileFlags): Promise<RejectedRowsFile> {
    try {
      return await RejectedRowsFile.open(path, flags);
    } catch (error) {
      // Only a directory that refuses writing; a path that is wrong itself (a directory, a
      // missing folder) is still exit 11: the real run would meet the same.
      if (!(error instanceof LocalFileError) || !UNWRITABLE_DIR_CODES.has(error.code ?? "")) throw error;
      return new RejectedRowsFile(undefined, path, flags, error);
    }
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
    this.onRejected?.(invalid.row, problemText(invalid.problems) + extra, true);
  }

  addService(user: UserRow, columns: string[], messages: string[]): void {
    this.header(columns);
    const values = user as unknown as Record<string, string>;
    const known = new Set<string>(USER_COLUMNS);
    this.csv.write([...this.columns!.map((c) => (known.has(c) ? (values[c] ?? "") : "")), user.row, messages.join("; ")]);
    this.rows++;
    this.onRejected?.(user.row, `rejected by the service: ${messages.join("; ")}`, false);
  }

  /** Keeps the file when it has rows; otherwise removes it and any stale one. Returns whether a stale file was removed. */
  async finish(options: { removeStale: boolean }): Promise<boolean> {
    if (!this.file) {
      this.stringifier?.destroy();
      return false;
    }
    if (this.rows > 0) {
      this.csv.end();
      // Every row has reached the file stream once the stringifier has ended.
      await finished(this.csv);
      await this.file.commit();
      return false;
    }
    this.stringifier?.destroy();
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
    this.stringifier?.destroy();
    return this.file ? this.file.abort() : Promise.resolve();
  }
}

/**
 * Room kept beyond the manifest's current size for the record of an upload's answer: a
 * taskId, status, timestamps, counts (a few hundred bytes) with a wide margin. Row errors
 * the service reports go beyond it only when it rejected many rows; see reserve().
 */
const RESERVE_SLACK = 8192;

/** The manifest beside the CSV as the import engine's journal (engines/users-import/journal.ts). */
export class ManifestStore implements BatchJournal {
  /** A temp file of the manifest, already holding enough bytes for the next write (reserve()). */
  private reservation: { tempPath: string; target: string; mode: number | undefined; bytes: number } | undefined;
  private swept = false;

  constructor(
    readonly path: string,
    /** This run's section (one service, one organization). */
    public manifest: ImportManifest,
    private readonly now: () => string,
    /** Imports of the same file into other services or organizations: written back untouched. */
    private readonly others: readonly ImportSection[] = [],
  ) {}

  get batches(): readonly ManifestBatch[] {
    return this.manifest.batches;
  }

  batch(number: number): ManifestBatch {
    const batch = this.manifest.batches.find((b) => b.number === number);
    if (!batch) throw new RangeError(`the manifest has no batch ${number}`);
    return batch;
  }

  /**
   * `spare`: write without using the reservation (the "uploading" record written after
   * reserve() and before the upload; the reservation is for the answer's record).
   */
  async update(number: number, patch: Partial<ManifestBatch>, options: { spare?: boolean } = {}): Promise<ManifestBatch> {
    this.manifest = updateBatch(this.manifest, number, patch, this.now());
    await this.save(options);
    return this.batch(number);
  }

  private text(): string {
    return serializeManifest(joinManifest(this.manifest, this.others));
  }

  async save(options: { spare?: boolean } = {}): Promise<void> {
    if (!this.swept) {
      // Temp manifests of runs killed mid-write (`.x.import.json.<pid>.<hex>.tmp`):
      // removed once their pid is gone. We hold the import's lock, so no live run
      // of this file can own one with a dead pid.
      this.swept = true;
      await removeStaleTempFiles(this.path);
    }
    if (this.reservation && !options.spare) return this.writeReserved(this.reservation);
    return writeFileAtomic(this.path, this.text(), 0o600);
  }

  /**
   * Before an upload: the temp file of the manifest's next version, written now at full size
   * (current size + RESERVE_SLACK, filled with spaces) so that recording the service's answer
   * overwrites bytes the file system has already given us instead of asking for new ones. A
   * disk that fills up during the upload then cannot stop us recording an accepted batch —
   * the failure this prevents (750 users imported twice). Reserving costs one small
   * write per batch; if it fails (disk already full), nothing has been sent yet, so the run
   * stops with exit 11 and the batch stays pending. (A copy-on-write file system — btrfs,
   * ZFS — may still need new blocks to overwrite; then the accepted taskId is on stderr and
   * the batch stays "uploading", which --resume holds back rather than sending again.)
   */
  async reserve(): Promise<void> {
    await this.dropReservation();
    const target = await checkOutputPath(this.path);
    if (target.kind === "special") return;
    const bytes = Buffer.byteLength(this.text()) + RESERVE_SLACK;
    const tempPath = join(
      dirname(target.target),
      `.${basename(target.target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
    );
    try {
      const handle = await open(tempPath, "wx", 0o600);
      try {
        await handle.write(Buffer.alloc(bytes, 0x20), 0, bytes, 0);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      await rm(tempPath, { force: true });
      throw LocalFileError.fromSystem(
        error,
        this.path,
        "reserve space for the manifest",
        "free some space, then run the same command again: nothing was sent",
      );
    }
    this.reservation = { tempPath, target: target.target, mode: target.kind === "regular" ? target.mode : undefined, bytes };
  }

  /** The reserved temp file overwritten in place, cut to size and renamed over the manifest. */
  private async writeReserved(reservation: NonNullable<ManifestStore["reservation"]>): Promise<void> {
    this.reservation = undefined;
    const data = Buffer.from(this.text());
    try {
      const handle = await open(reservation.tempPath, "r+");
      try {
        await handle.write(data, 0, data.length, 0);
        await handle.truncate(data.length);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (reservation.mode !== undefined) await chmod(reservation.tempPath, reservation.mode);
      await rename(reservation.tempPath, reservation.target);
    } catch (error) {
      await rm(reservation.tempPath, { force: true });
      throw LocalFileError.fromSystem(error, this.path, "write");
    }
  }

  /** Removes an unused reservation (the run ends, or a new one is made). */
  async dropReservation(): Promise<void> {
    const reservation = this.reservation;
    this.reservation = undefined;
    if (reservation) await rm(reservation.tempPath, { force: true });
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
