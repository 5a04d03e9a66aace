import { createHash } from "node:crypto";

// Column names of `reports sync` tables (docs/cli-contract.md, Warehouse rules): the flattened
// field names in the form a warehouse uses without quoting — lower-case snake case
// (`stats.avgScore` → `stats_avg_score`). The name a field gets is decided once and stored
// (the meta table simadmin_sync_columns), so a field keeps its column for ever, whatever the
// order or case in which fields arrive later. Pure: the store reads and writes the mapping.

/** Columns every table has besides the record's own; a field never takes one of these. */
export const SYSTEM_COLUMNS = ["window_start", "window_end", "fetched_at", "row_number", "raw"] as const;

/**
 * Words PostgreSQL or DuckDB reserve: as bare column names they would need quoting, so a
 * field named `order` is the column `order_`.
 */
const RESERVED = new Set(
  (
    "all analyse analyze and any array as asc asymmetric between binary both case cast check collate column constraint " +
    "create cross current_catalog current_date current_role current_schema current_time current_timestamp current_user " +
    "default deferrable desc distinct do else end except false fetch for foreign freeze from full grant group having ilike " +
    "in initially inner intersect into is isnull join lateral leading left like limit localtime localtimestamp natural not " +
    "notnull null offset on only or order outer overlaps placing primary qualify references returning right select " +
    "session_user similar some symmetric table tablesample then to trailing true union unique user using variadic verbose " +
    "when where window with pivot unpivot"
  ).split(" "),
);

/** PostgreSQL cuts identifiers at 63 bytes. */
const MAX_IDENTIFIER_BYTES = 63;

/** `stats.avgScore` → `stats_avg_score`; `HTTPStatus` → `http_status`; anything else to [a-z0-9_]. */
export function snakeCase(path: readonly string[]): string {
  const words = path
    .map((segment) =>
      segment
        .normalize("NFKD")
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "_")
        .replace(/^_+|_+$/g, ""),
    )
    .filter((word) => word !== "");
  let name = words.join("_");
  if (name === "") name = "field";
  if (/^[0-9]/.test(name)) name = `f_${name}`;
  if (RESERVED.has(name)) name = `${name}_`;
  if ((SYSTEM_COLUMNS as readonly string[]).includes(name)) name = `record_${name}`;
  return shortened(name);
}

function shortened(name: string): string {
  if (name.length <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_BYTES - 9)}_${hash}`;
}

/**
 * Gives each new field a column no other field has: its snake-case name, or that name with
 * `_2`, `_3`… when taken (names are compared without case: DuckDB does). `taken` is every
 * column the table has, whatever made it.
 */
export class ColumnAllocator {
  private readonly taken = new Set<string>();

  constructor(taken: Iterable<string>) {
    for (const column of taken) this.taken.add(column.toLowerCase());
    for (const column of SYSTEM_COLUMNS) this.taken.add(column);
  }

  allocate(path: readonly string[], preferred?: string): string {
    const base = preferred ?? snakeCase(path);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : shortened(`${base}_${n}`);
      if (!this.taken.has(candidate.toLowerCase())) {
        this.taken.add(candidate.toLowerCase());
        return candidate;
      }
    }
  }

  /** A column made for an existing name (a database made by the earlier version keeps its names). */
  claim(column: string): void {
    this.taken.add(column.toLowerCase());
  }
}

/** How a field is stored in the meta table: its path as JSON, so `a.b` nested and a literal `"a.b"` differ. */
export function fieldKey(path: readonly string[]): string {
  return JSON.stringify(path);
}

/** The earlier version's column for a path: dotted, `record.` before a system name (a database it made keeps them). */
export function legacyColumnName(path: readonly string[]): string {
  const dotted = path.join(".");
  return ["window_start", "window_end", "fetched_at", "raw"].includes(dotted) ? `record.${dotted}` : dotted;
}
