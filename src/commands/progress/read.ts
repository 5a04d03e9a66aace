import { extname } from "node:path";
import { InvalidDataError } from "../../errors.js";
import { readProgressCsv, type ProgressFile } from "./input.js";

/** The assignment file: a CSV (users-CSV reading rules) or the first sheet of an .xlsx workbook. */
export async function readProgressFile(path: string, encoding: string | undefined): Promise<ProgressFile> {
  if (extname(path).toLowerCase() === ".xlsx") {
    throw new InvalidDataError(`${path}: .xlsx input is not supported yet`, { hint: "save the sheet as CSV" });
  }
  return readProgressCsv(path, encoding);
}
