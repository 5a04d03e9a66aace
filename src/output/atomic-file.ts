import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";

// Files are written to a temp file in the same directory and renamed into place, so a reader
// (or the next cron run) never sees half a file, and a failed or interrupted run leaves the
// previous file untouched and no temp file behind (docs/cli-contract.md: --out, exit 130).

/** Temp files not yet committed; removed synchronously if the process must exit at once. */
const pendingTempFiles = new Set<string>();

export function removePendingTempFilesSync(): void {
  for (const path of pendingTempFiles) rmSync(path, { force: true });
  pendingTempFiles.clear();
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/** Finishes writing the temp file, then renames it over `path`; on any failure it is removed. */
async function moveIntoPlace(tempPath: string, path: string, finishWriting: () => Promise<void>): Promise<void> {
  try {
    await finishWriting();
    await rename(tempPath, path);
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  } finally {
    pendingTempFiles.delete(tempPath);
  }
}

export interface AtomicFile {
  readonly path: string;
  readonly stream: WriteStream;
  /** Flushes, closes and renames into place. */
  commit(): Promise<void>;
  /** Closes and removes the temp file; the target is left as it was. Safe to call twice. */
  abort(): Promise<void>;
}

export async function openAtomicFile(path: string, mode = 0o644): Promise<AtomicFile> {
  const tempPath = tempPathFor(path);
  const stream = createWriteStream(tempPath, { mode, flags: "wx" });
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  pendingTempFiles.add(tempPath);
  let done = false;
  const close = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (stream.closed) return resolve();
      stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
    });
  return {
    path,
    stream,
    async commit() {
      if (done) return;
      done = true;
      await moveIntoPlace(tempPath, path, close);
    },
    async abort() {
      if (done) return;
      done = true;
      stream.destroy();
      await rm(tempPath, { force: true });
      pendingTempFiles.delete(tempPath);
    },
  };
}

/** Whole-content variant for small files (manifests, settings side files). */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const tempPath = tempPathFor(path);
  pendingTempFiles.add(tempPath);
  await moveIntoPlace(tempPath, path, () => writeFile(tempPath, data, { mode, flag: "wx" }));
}
