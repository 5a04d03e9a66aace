import { USER_COLUMNS } from "../../src/domain/users-csv/validate.js";

// Users CSV text for the validation tests: the header, whole files, and a valid line per user
// with some columns replaced.

export const HEADER = USER_COLUMNS.join(",");

export function csv(...lines: string[]): string {
  return lines.join("\n") + "\n";
}

/** A valid data line for user i, with some columns replaced. */
export function userLine(i: number, changes: Partial<Record<(typeof USER_COLUMNS)[number], string>> = {}): string {
  const email = `user${i}@example.com`;
  const user: Record<string, string> = {
    firstName: `First${i}`,
    lastName: `Last${i}`,
    username: email,
    email,
    role: "trainee",
    teamName: "Sales",
    status: "ACTIVE",
    action: "Add",
    ...changes,
  };
  return USER_COLUMNS.map((c) => user[c]).join(",");
}
