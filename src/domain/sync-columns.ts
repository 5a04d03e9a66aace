import { createHash } from "node:crypto";
import type { Cell } from "./records.js";

// The columns of a `reports sync` table (docs/cli-contract.md, Sync): named from the records
// the service sent — report fields are "not shown" (docs/service-spec.md §4.1) — and typed
// from their values. Pure: the stores (src/commands/reports-sync/) turn this into SQL.

/** The types a record column can have, narrowest first: a column only ever widens. */
export type ColumnType = "boolean" | "bigint" | "double" | "text";

/** The columns every table has besides the record's own. */
export const SYSTEM_COLUMNS = ["window_start", "window_end", "fetched_at", "raw"] as const;

/** The type a value needs, or undefined for null (a null fits any column). */
export function cellType(cell: Cell): ColumnType | undefined {
  if (cell === null) return undefined;
  if (typeof cell === "boolean") return "boolean";
  if (typeof cell === "number") return Number.isSafeInteger(cell) ? "bigint" : "double";
  return "text";
}

/**
 * The narrowest type that holds both: whole numbers widen to double, anything else mixed to
 * text — a load never fails because the service changed a field's type.
 */
export function widen(a: ColumnType | undefined, b: ColumnType | undefined): ColumnType | undefined {
  if (a === undefined) return b;
  if (b === undefined || a === b) return a;
  if ((a === "bigint" && b === "double") || (a === "double" && b === "bigint")) return "double";
  return "text";
}

/**
 * PostgreSQL cuts identifiers at 63 bytes; a longer dotted name keeps its start and gets a
 * hash of the whole, so two long names never meet.
 */
const MAX_IDENTIFIER_BYTES = 63;

function shortened(name: string): string {
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  let head = name;
  while (Buffer.byteLength(head) > MAX_IDENTIFIER_BYTES - 9) head = head.slice(0, -1);
  return `${head}_${hash}`;
}

/**
 * Maps a record's flattened field names (`user.team.name`) to table columns. The same field
 * always gets the same column, run after run, given the columns the table already has:
 * - a field named like a system column (`raw`) is stored as `record.raw`;
 * - DuckDB compares identifiers without case, so `userId` and `userid` cannot both be
 *   columns: the later one becomes `userid_2` (and stays so, as the table remembers it).
 */
export class ColumnNames {
  private readonly byField = new Map<string, string>();
  private readonly taken = new Map<string, string>();
  /** Columns given to a field in this run: never a second field's, whatever the table has. */
  private readonly given = new Set<string>();

  /** `existing`: the table's columns as it has them. */
  constructor(existing: Iterable<string>) {
    for (const column of existing) this.taken.set(column.toLowerCase(), column);
    for (const system of SYSTEM_COLUMNS) this.taken.set(system, system);
  }

  columnFor(field: string): string {
    const known = this.byField.get(field);
    if (known !== undefined) return known;
    const base = shortened((SYSTEM_COLUMNS as readonly string[]).includes(field) ? `record.${field}` : field);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : shortened(`${base}_${n}`);
      const holder = this.taken.get(candidate.toLowerCase());
      // Free, or the table already has exactly this column (an earlier run made it for this
      // field) and no other field of this run has it: fields `A`, `a` then `a_2` make `A`,
      // `a_2` and `a_2_2`. A system column is never a candidate (`raw` is `record.raw`).
      if (holder === undefined || (holder === candidate && !this.given.has(candidate))) {
        this.taken.set(candidate.toLowerCase(), candidate);
        this.given.add(candidate);
        this.byField.set(field, candidate);
        return candidate;
      }
    }
  }
}

/** A SQL identifier, quoted: any name the service sends is safe in DuckDB and PostgreSQL. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The table of a report kind: `syms-result` → `syms_result`. */
export function kindTable(kind: string): string {
  return kind.replaceAll("-", "_");
}
