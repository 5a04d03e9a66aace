import { DATA_FORMATS } from "../output-formats.js";
import { ENCODING_FLAG } from "../shared/declarations.js";
import type { CommandDeclaration } from "../types.js";

// progress notify: reminders to trainees and digests to managers, each sent once
// (docs/cli-contract.md "Reminders", docs/reminders.md). Plain data: see ../types.ts.

export const progressNotify: CommandDeclaration = {
  kind: "command",
  name: "progress notify",
  description: "reminder mails to trainees and digests to managers, each step sent once",
  flags: [
    {
      flags: "--from-csv <file>",
      description: "the progress file (userId,simulationId,dueDate) with an email column (.csv or .xlsx)",
      required: true,
      values: { kind: "files" },
    },
    { flags: "--smtp <url>", description: "smtp://user:pass@host:587 or smtps://host:465 (default: SIMADMIN_SMTP_URL)" },
    { flags: "--from <address>", description: "the sender, e.g. 'Training <training@example.com>'" },
    { flags: "--outbox <dir>", description: "write one .eml file per message instead of sending", values: { kind: "dirs" } },
    { flags: "--schedule <days>", description: "days before the due date a reminder goes, negative after (default 7,1,0,-3,-7)" },
    { flags: "--digest <column>", description: "also send one summary a day to the address in this column (e.g. managerEmail)" },
    {
      flags: "--plan",
      description: "print who would get what (exit 12 when anything is due, 0 when not); send and record nothing",
    },
    { flags: "--max <n>", description: "send at most this many messages in this run" },
    { flags: "--rate <n>", description: "messages a minute handed to the relay (default 300; 0: as fast as it takes them)" },
    { flags: "--connections <n>", description: "SMTP connections used at once, 1 to 10 (default 3)" },
    {
      flags: "--template <dir>",
      description: "subject.txt, body.txt, body.html with {{placeholders}}",
      values: { kind: "dirs" },
    },
    { flags: "--resend-ambiguous", description: "send again the steps a killed or cut-off run left unsure" },
    { flags: "--refresh", description: "ask again about pairs cached as completed" },
    ENCODING_FLAG,
  ],
  help: `For each pair not completed, the step of --schedule due today (UTC) goes to the
pair's email address: one message per address and step, listing its pairs. Completion is
asked exactly as \`progress\` asks it (the cache, the budget, the order). Each (pair, step)
and each digest (manager, day) is recorded in the state store's reminder ledger before the
SMTP transaction and marked sent after the server's 250: a re-run, a killed run or a run on
another machine never sends it again. A step a run left unsure (killed mid-transaction) is
named and not re-sent without --resend-ambiguous. With a links URL each open pair carries a
durable link; without one, no link. Credentials in the SMTP URL are never shown.`,
  examples: [
    "simadmin progress notify --from-csv cohort.csv --plan",
    "simadmin progress notify --from-csv cohort.csv --from 'Training <training@example.com>' --digest managerEmail",
    "simadmin progress notify --from-csv cohort.csv --outbox ./outbox --from training@example.com",
  ],
  api: [1, 2],
  outputs: DATA_FORMATS,
  writesSettings: false,
  needsOrg: true,
  fields: true,
  outerFlagsHint: "progress notify reads --from-csv and mails; progress's --wait, --links and --split-by do not apply",
  load: async () => (await import("./notify.js")).run,
};
