import type { FlagDeclaration } from "../types.js";

// Flag declarations that several commands share. Plain data, as every declaration (../types.ts).

/** The bulk commands' --encoding (assign, unassign, link): users-CSV reading rules. */
export const ENCODING_FLAG: FlagDeclaration = {
  flags: "--encoding <name>",
  description: "with --from-csv: read a file without BOM in this encoding, e.g. windows-1252 (default UTF-8)",
};

/** --sheet and --header-row of the commands that read a workbook (users import, users sync; the schema: sheet-flags.ts). */
export const SHEET_FLAG_DECLARATIONS: readonly FlagDeclaration[] = [
  {
    flags: "--sheet <name|n>",
    description:
      "an .xlsx workbook's sheet to read: its name, or its number among the visible sheets (default: the first visible)",
  },
  {
    flags: "--header-row <n>",
    description: "an .xlsx workbook's row that holds the header (default: the first row with content)",
  },
];
