import type { ReportFieldStyle } from "./dialects.js";
import type { ReportRecord } from "./types.js";

// A dialect's field style (dialects.ts): the default nested record as built, or the same
// record reshaped as the public or the terse dialect names its fields.

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The public dialect's records, e.g. for users: `date, groupId, name, stats.{total, active,
 * …, avgScore}, …, note` — flat ids and names, every number under `stats`, a free-text
 * `note` last. Derived from the default record so that every kind has one.
 */
function publicRecord(record: ReportRecord): ReportRecord {
  const out: ReportRecord = { date: record["date"] };
  const stats: Record<string, unknown> = {};
  const rest: ReportRecord = {};
  let named = false;
  const place = (target: Record<string, unknown>, key: string, parent: string, value: unknown): void => {
    target[key in target || key in out ? `${parent}${capitalized(key)}` : key] = value;
  };
  for (const [key, value] of Object.entries(record)) {
    if (key === "recordId" || key === "date") continue;
    if (isObject(value)) {
      const label = value["name"] ?? value["title"];
      if (typeof value["id"] === "string") out[`${key}Id`] = value["id"];
      if (typeof label === "string") {
        if (named) out[`${key}Name`] = label;
        else out["name"] = label;
        named = true;
      }
      for (const [inner, leaf] of Object.entries(value)) {
        if (inner === "id" || inner === "name" || inner === "title") continue;
        place(typeof leaf === "number" ? stats : rest, inner, key, leaf);
      }
    } else if (typeof value === "number") place(stats, key, "", value);
    else place(rest, key, "", value);
  }
  const note = `${String(out["name"] ?? "")} on ${String(record["date"])}: ${Object.keys(stats).length} figures, see the dashboard for details`;
  return { ...out, stats, ...rest, note };
}

function snakeCase(text: string): string {
  return text.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The terse dialect's records: flat snake_case (`day`, `id`, `group_name`, `metrics_avg_score`). */
function terseRecord(record: ReportRecord, prefix = "", out: ReportRecord = {}): ReportRecord {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix === "" ? ({ date: "day", recordId: "id" }[key] ?? snakeCase(key)) : `${prefix}_${snakeCase(key)}`;
    if (isObject(value)) terseRecord(value, name, out);
    else out[name] = value;
  }
  return out;
}

/** A default record in a dialect's field style. */
export function styled(style: ReportFieldStyle, record: ReportRecord): ReportRecord {
  if (style === "public") return publicRecord(record);
  if (style === "terse") return terseRecord(record);
  return record;
}
