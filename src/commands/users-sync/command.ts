import { SHEET_FLAG_DECLARATIONS } from "../shared/declarations.js";
import { DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// users sync <roster> (docs/cli-contract.md "Sync", exit 12). Plain data: see ../types.ts.

export const usersSync: CommandDeclaration = {
  kind: "command",
  name: "users sync",
  args: [
    {
      name: "roster",
      description: "the HR roster: a users CSV or an .xlsx workbook (first sheet); action and status columns optional",
      values: { kind: "files" },
    },
  ],
  description: "make the organization's trainees equal to an HR roster: Add new, Update changed, INACTIVE for leavers",
  flags: [
    {
      flags: "--plan",
      description: "print the plan and send nothing; exit 0 when there is nothing to do, 12 when changes are pending",
    },
    { flags: "--dry-run", description: "the same as --plan" },
    {
      flags: "--max-deactivate <n|p%>",
      description: "stop before sending when more users would become INACTIVE (default 10% of the last sync's active users)",
      values: { kind: "none" },
    },
    {
      flags: "--max-changes <n|p%>",
      description: "stop before sending when more users would be updated (default 10% of the baseline's users)",
      values: { kind: "none" },
    },
    {
      flags: "--map <column=Header>",
      description: 'read a column under another header name, e.g. --map firstName="First Name" (repeatable)',
      repeatable: true,
      values: { kind: "words", words: ["firstName=", "lastName=", "email=", "teamName=", "status=", "username=", "role="] },
    },
    {
      flags: "--assume-existing",
      description: "first run only: the roster's users exist already, so send Update instead of Add",
    },
    { flags: "--skip-invalid", description: "send the valid rows; users of invalid rows are left as they are" },
    { flags: "--wait", description: "poll each import task until COMPLETED or FAILED; only COMPLETED rows enter the baseline" },
    { flags: "--wait-timeout <duration>", description: "give up waiting after this long (default 30m)" },
    {
      flags: "--resume",
      description: "finish the last run's plan (batches never sent) instead of planning the roster again",
    },
    {
      flags: "--resend-ambiguous",
      description:
        "send again the users of held batches (uploads that may have been received); an Add refused as existing counts as done",
    },
    {
      flags: "--mark-imported <batches>",
      description:
        "record held batches (e.g. 2 or 2,3) as imported without sending, once checked at the service; their rows enter the baseline",
      values: { kind: "none" },
    },
    {
      flags: "--encoding <name>",
      description: "read a CSV roster without BOM in this encoding, e.g. windows-1252 (default UTF-8)",
    },
    ...SHEET_FLAG_DECLARATIONS,
    { flags: "-y, --yes", description: "do not ask for confirmation on a terminal" },
  ],
  examples: [
    "simadmin users sync hr-export.xlsx --plan",
    "simadmin users sync hr-export.csv --yes --wait",
    'simadmin users sync hr.xlsx --map firstName="First Name" --map lastName="Last Name" --map email="Work Email"',
    "simadmin users sync hr.csv --max-deactivate 25 --yes",
    "simadmin users sync hr.csv --mark-imported 2",
    "simadmin users sync hr.csv --yes --state postgres://sync@db.example.org/hr",
  ],
  help: `The baseline is what simadmin last synced for this base URL and organization, kept in the
state store (--state, SIMADMIN_STATE: a directory, or a shared PostgreSQL every machine sees);
the first run establishes it. Rows the service did not accept are planned again by the next
run; a batch whose upload may have been received is held (exit 8) until --mark-imported or
--resend-ambiguous; a task whose end is not known is asked about by the next run.`,
  api: [2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  load: async () => (await import("./users-sync.js")).run,
};
