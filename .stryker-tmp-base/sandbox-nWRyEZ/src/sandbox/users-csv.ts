// @ts-nocheck
import { parse } from "csv-parse/sync";
import { badRequest } from "./http-error.js";

// Server-side validation of a bulk-import file (docs/service-spec.md §4.8). The sandbox keeps its own copy
// of these rules instead of importing the client's (src/domain): an emulator that shares
// the client's code cannot catch the client's mistakes.

export const MAX_IMPORT_ROWS = 750;
export const USER_COLUMNS = ["firstName", "lastName", "username", "email", "role", "teamName", "status", "action"] as const;
const REQUIRED_COLUMNS = USER_COLUMNS.filter((c) => c !== "teamName");

export interface ImportRow {
  /** Spreadsheet row number: the header is row 1, the first user row 2. */
  row: number;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  role: string;
  teamName: string;
  status: "ACTIVE" | "INACTIVE";
  action: "Add" | "Update";
}

export interface RowErrors {
  row: number;
  errors: string[];
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(text: string): boolean {
  return EMAIL_RE.test(text);
}

function detectDelimiter(text: string): "," | ";" {
  const header = text.split(/\r?\n/, 1)[0] ?? "";
  const count = (ch: string): number => header.split(ch).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/** Records keyed by header name, with their spreadsheet row numbers. Throws 400 for a file that is not a usable users CSV. */
export function parseUsersCsv(text: string): ParsedRow[] {
  let records: string[][];
  try {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- csv-parse's sync typing is loose
    records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text.replace(/^\uFEFF/, "")),
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][];
  } catch (error) {
    throw badRequest(`file is not valid CSV: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw badRequest("file is empty: expected a header row and at least one user row");
  // Header names are matched ignoring case and surrounding spaces, like the client does;
  // unknown columns are ignored.
  const canonical = new Map(USER_COLUMNS.map((c) => [c.toLowerCase(), c as string]));
  const names = header.map((h) => canonical.get(h.trim().toLowerCase()) ?? h.trim());
  const duplicates = names.filter((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i);
  if (duplicates.length > 0) {
    throw badRequest(`file header repeats the column(s) ${[...new Set(duplicates)].join(", ")}`, {
      duplicateColumns: duplicates,
    });
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    throw badRequest(`file header lacks the column(s) ${missing.join(", ")}`, { missingColumns: missing, header: names });
  }
  if (rows.length === 0) throw badRequest("file has no user rows below the header");
  if (rows.length > MAX_IMPORT_ROWS) {
    throw badRequest(`file has ${rows.length} user rows; at most ${MAX_IMPORT_ROWS} are allowed per file`, {
      rows: rows.length,
      maxRows: MAX_IMPORT_ROWS,
    });
  }
  return rows.map((cells, index) => {
    const values: Record<string, string | undefined> = {};
    names.forEach((name, i) => {
      values[name] = cells[i]?.trim();
    });
    return { row: index + 2, values, cellCount: cells.length, expectedCells: names.length };
  });
}

export interface ParsedRow {
  row: number;
  values: Record<string, string | undefined>;
  cellCount?: number;
  expectedCells?: number;
}

/**
 * Splits rows into valid ones and per-row errors. `userExists` answers for the
 * organization as it is now; it drives the rules a client cannot check locally.
 */
export function validateImportRows(
  rows: ParsedRow[],
  userExists: (email: string) => boolean,
): { valid: ImportRow[]; errors: RowErrors[] } {
  const valid: ImportRow[] = [];
  const errors: RowErrors[] = [];
  const firstRowOfEmail = new Map<string, number>();
  for (const { row, values, cellCount, expectedCells } of rows) {
    const problems: string[] = [];
    if (cellCount !== undefined && expectedCells !== undefined && cellCount !== expectedCells) {
      // A shifted row would otherwise produce misleading field errors.
      errors.push({ row, errors: [`Row has ${cellCount} cells; the header has ${expectedCells}`] });
      continue;
    }
    const get = (name: string): string => values[name] ?? "";
    for (const column of REQUIRED_COLUMNS) {
      if (get(column) === "") problems.push(`${column} is required`);
    }
    const { role, status, action, email, username } = {
      role: get("role"),
      status: get("status"),
      action: get("action"),
      email: get("email"),
      username: get("username"),
    };
    if (role !== "" && role !== "trainee") problems.push("Role must be trainee");
    if (status !== "" && status !== "ACTIVE" && status !== "INACTIVE") problems.push("Status must be ACTIVE or INACTIVE");
    if (action !== "" && action !== "Add" && action !== "Update") problems.push("Action must be Add or Update");
    if (email !== "" && !isValidEmail(email)) problems.push("Email is not a valid email address");
    if (email !== "" && username !== "" && email !== username) problems.push("Email must match username");
    if (email !== "") {
      const key = email.toLowerCase();
      const first = firstRowOfEmail.get(key);
      if (first !== undefined) problems.push(`Email appears more than once in the file (first on row ${first})`);
      else firstRowOfEmail.set(key, row);
    }
    if (problems.length === 0) {
      // Server-only rules: they need the organization's users.
      const exists = userExists(email);
      if (action === "Update" && !exists) problems.push("User does not exist");
      if (action === "Add" && exists) problems.push("User already exists");
    }
    if (problems.length > 0) {
      errors.push({ row, errors: problems });
      continue;
    }
    valid.push({
      row,
      firstName: get("firstName"),
      lastName: get("lastName"),
      username,
      email,
      role,
      teamName: get("teamName"),
      status: status as ImportRow["status"],
      action: action as ImportRow["action"],
    });
  }
  return { valid, errors };
}
