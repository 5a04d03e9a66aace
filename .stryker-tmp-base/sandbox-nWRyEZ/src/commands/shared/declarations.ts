// @ts-nocheck
import type { FlagDeclaration } from "../types.js";

// Flag declarations that several commands share. Plain data, as every declaration (../types.ts).

/** The bulk commands' --encoding (assign, unassign, link): users-CSV reading rules. */
export const ENCODING_FLAG: FlagDeclaration = {
  flags: "--encoding <name>",
  description: "with --from-csv: read a file without BOM in this encoding, e.g. windows-1252 (default UTF-8)",
};
