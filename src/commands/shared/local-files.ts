import { access, constants, stat } from "node:fs/promises";
import { LocalFileError } from "../../errors.js";
import { makeDirectory } from "../../output/atomic-file.js";

// The checks every command makes of the files it is given, before anything is sent: a file
// that cannot be read, or a directory that cannot take the files, is a local file error
// (exit 11 naming the path and the cause; docs/cli-contract.md, "Bad input").

/** An input file (users CSV, roster, assignments) that must be a readable regular file. */
export async function checkReadableFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
    await access(path, constants.R_OK);
  } catch (error) {
    throw LocalFileError.fromSystem(error, path, "read");
  }
  if (!isFile) throw new LocalFileError(`cannot read ${path}: not a regular file`, { path });
}

/**
 * An --out-dir: created when missing (cron jobs write into dated directories); must be a
 * writable directory.
 */
export async function prepareOutDir(dir: string): Promise<void> {
  // makeDirectory names EROFS/EACCES where a recursive mkdir says ENOENT.
  makeDirectory(dir, 0o777, "create the --out-dir directory");
  try {
    if (!(await stat(dir)).isDirectory()) {
      throw new LocalFileError(`cannot write into --out-dir ${dir}: not a directory (ENOTDIR)`, { path: dir, code: "ENOTDIR" });
    }
    await access(dir, constants.W_OK);
  } catch (error) {
    throw LocalFileError.fromSystem(error, dir, "write into --out-dir");
  }
}
