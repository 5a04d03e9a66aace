import { openTableSource } from "../../output/table-file.js";
import type { ImportTarget } from "../../domain/users-csv/import-manifest.js";
import type { UsersImportOptions } from "./options.js";
import type { RejectedRowsFile } from "./side-files.js";

// Small pieces shared by the parts of `users import` (users-import.ts and the passes it runs);
// how rows are reported is commands/shared/row-report.ts, which `users sync` shares.

/** The parsed options (options.ts) and the file argument. */
export type ImportFlags = UsersImportOptions & { file: string };

/** What one run decided before reading the file: where the batches go and the side files. */
export interface ImportSetup {
  organizationId: string | undefined;
  /** Service and organization the batches go to: the manifest section of this run. */
  target: ImportTarget | undefined;
  fileName: string;
  manifestPath: string;
  errors: RejectedRowsFile;
  /** The injected clock as an ISO time, for the manifest. */
  now: () => string;
}

/** The file's bytes; a workbook's sheet (--sheet, --header-row) as CSV (output/table-file.ts), read by the same rules. */
export function openSource(flags: ImportFlags): AsyncIterable<Uint8Array> {
  return openTableSource(flags.file, { sheet: flags.sheet, headerRow: flags.headerRow });
}
