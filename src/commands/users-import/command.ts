import { SHEET_FLAG_DECLARATIONS } from "../shared/declarations.js";
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// users import <file> (docs/cli-contract.md "Users CSV"; docs/service-spec.md §4.8). Plain data: see ../types.ts.

export const usersImport: CommandDeclaration = {
  kind: "command",
  name: "users import",
  args: [
    {
      name: "file",
      description: "users CSV with the columns firstName, lastName, username, email, role, teamName, status, action",
      values: { kind: "files" },
    },
  ],
  description: "validate a users CSV locally, then upload it in batches of at most 750 rows",
  flags: [
    { flags: "--dry-run", description: "validate and show the plan; send nothing" },
    { flags: "--skip-invalid", description: "upload the valid rows only (default: any invalid row stops the import)" },
    { flags: "--wait", description: "poll each task until COMPLETED or FAILED" },
    { flags: "--wait-timeout <duration>", description: "give up waiting after this long (default 30m)" },
    { flags: "--resume", description: "continue from <file>.import.json without uploading a batch twice" },
    {
      flags: "--resend-ambiguous",
      description: "with --resume: also send again batches whose upload may have been received (may import them twice)",
    },
    {
      flags: "--mark-imported <batches>",
      description:
        "with --resume: record held batches (e.g. 2 or 2,3) as imported without sending them, once checked at the service",
      values: { kind: "none" },
    },
    {
      flags: "--accepted-task <batch=taskId>",
      description: "with --resume: record the task an accepted batch got when the manifest could not (disk full)",
      values: { kind: "none" },
    },
    {
      flags: "--encoding <name>",
      description: "read a file without BOM in this encoding, e.g. windows-1252 (default UTF-8)",
    },
    ...SHEET_FLAG_DECLARATIONS,
    {
      flags: "--retry-failed",
      description: "like --resume, and also send again batches whose task ended FAILED (history kept)",
    },
    { flags: "-y, --yes", description: "do not ask for confirmation on a terminal" },
  ],
  examples: [
    "simadmin users import staff.csv --dry-run",
    "simadmin users import staff.csv --yes --wait",
    "simadmin users import staff.csv --resume",
    "simadmin users import staff-excel.csv --encoding windows-1252",
    "simadmin users import staff.csv --retry-failed --wait",
  ],
  help: `One run at a time per file: a second run of the same file stops with exit 2 naming the
first one's pid (staff.import.lock). A corrected staff.errors.csv can be imported as it is.
A batch whose upload may have been received (killed or cut off mid-upload) is never sent
again by a plain --resume: it is named with how to check it, and the run ends with exit 8;
\`--resume --resend-ambiguous\` sends it again; \`--resume --mark-imported <batch>\` records it as
imported (no task id) once you checked that its users exist.`,
  api: [2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  // A dry run sends nothing, so it needs no organization (with one it also checks the manifest).
  needsOrg: "unless-dry-run",
  fields: true,
  load: async () => (await import("./users-import.js")).run,
};
