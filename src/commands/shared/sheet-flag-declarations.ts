import type { FlagDeclaration } from "../types.js";

// --sheet and --header-row as declared (help, completion, man pages): plain data, so that
// `--help` loads nothing more (the schema is sheet-flags.ts).

/** The flags as declared (help, completion, man pages). */
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
