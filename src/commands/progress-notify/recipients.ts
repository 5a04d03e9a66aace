import { InvalidDataError, UsageError } from "../../errors.js";
import type { ProgressProblem, ProgressRow } from "../../domain/progress.js";
import { isValidEmailAddress } from "../../domain/users-csv/rows.js";
import type { ProgressFile } from "../../engines/progress/input.js";

// Who gets the mails of `progress notify` (docs/reminders.md "The file"): the trainee's
// address from the `email` column (case, spaces, _ and - ignored, like the other known
// columns), the manager's from the --digest column. Every address is checked before anything
// is asked or sent: a typo would otherwise be found by the relay, 2,000 messages in.

const normalised = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, "");

export interface Recipients {
  emailOf(row: ProgressRow): string;
  managerOf: ((row: ProgressRow) => string | undefined) | undefined;
  problems: ProgressProblem[];
}

export function readRecipients(path: string, file: ProgressFile, digest: string | undefined): Recipients {
  const names = file.header.names;
  const email = names.find((n) => normalised(n) === "email");
  if (email === undefined) {
    throw new InvalidDataError(`${path} has no email column: reminders need the trainee's address`, {
      hint: "add a column named email with each trainee's address",
    });
  }
  let manager: string | undefined;
  if (digest !== undefined) {
    manager = names.find((n) => n === digest) ?? names.find((n) => normalised(n) === normalised(digest));
    if (manager === undefined) {
      throw new UsageError(`--digest ${digest}: ${path} has no such column`, { hint: `its columns: ${names.join(", ")}` });
    }
  }
  const problems: ProgressProblem[] = [];
  for (const row of file.rows) {
    const address = (row.extra[email] ?? "").trim();
    if (address === "") problems.push({ row: row.row, field: email, message: "required but empty" });
    else if (!isValidEmailAddress(address)) problems.push({ row: row.row, field: email, message: "not a valid email address" });
    if (manager !== undefined) {
      const value = (row.extra[manager] ?? "").trim();
      if (value !== "" && !isValidEmailAddress(value)) {
        problems.push({ row: row.row, field: manager, message: "not a valid email address (--digest)" });
      }
    }
  }
  return {
    // The spaces around it are the grouping's to drop (domain/reminders/grouping.ts); a blank cell was refused above.
    emailOf: (row) => row.extra[email] ?? "",
    managerOf:
      manager === undefined
        ? undefined
        : (row) => {
            const value = (row.extra[manager] ?? "").trim();
            return value === "" ? undefined : value;
          },
    problems,
  };
}
