import * as z from "zod";
import { UsageError } from "../../errors.js";
import { parsedFlag } from "./flags.js";

// --sheet and --header-row of the commands that read a workbook (users import, users sync;
// docs/users-csv.md "Workbooks"): which sheet holds the table and where its header is. Their
// declarations: declarations.ts (plain data, loaded for help).

/** Their options schema, spread into a command's. */
export const sheetFlags = {
  sheet: z
    .string()
    .refine((text) => text.trim() !== "", "--sheet needs a sheet's name or number")
    .optional(),
  headerRow: parsedFlag((text) => {
    if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
      throw new UsageError(`--header-row: ${JSON.stringify(text)} is not a row number (1 is the first row)`);
    return Number(text);
  }).optional(),
};
