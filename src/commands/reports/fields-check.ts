import type { ReportKind } from "../../api/schemas.js";
import { flattenRecord } from "../../domain/records.js";
import { UsageError } from "../../errors.js";
import type { ReportsPlan } from "./reports-plan.js";
import type { ReportWindows } from "../../engines/reports/windows.js";

/**
 * --fields checked against the columns of the first window that holds records, before any
 * output is written: at most one report request when the first window has
 * records; the window is kept on disk and read again for the output. With no record at all
 * nothing can be checked: an empty report's CSV header is --fields as given.
 */
export async function checkFields(reportsPlan: ReportsPlan, windows: ReportWindows, kind: ReportKind): Promise<void> {
  const fields = reportsPlan.outputPlan.fields;
  if (!fields) return;
  // json can pick a whole nested object by its top-level key; the others name flat columns.
  const topLevel = reportsPlan.format === "json" || reportsPlan.format === "ndjson";
  const seen = new Set<string>();
  const accepted = new Set<string>();
  for await (const { records } of windows.batches(kind)) {
    if (records.length === 0) continue;
    for (const record of records) {
      if (topLevel) for (const key of Object.keys(record)) accepted.add(key);
      for (const key of Object.keys(flattenRecord(record))) seen.add(key);
    }
    break;
  }
  if (seen.size === 0) return;
  const unknown = fields.filter((field) => !seen.has(field) && !accepted.has(field));
  if (unknown.length === 0) return;
  const first = unknown[0] ?? "";
  const nested = [...seen].filter((column) => column.startsWith(`${first}.`));
  throw new UsageError(
    `unknown field${unknown.length > 1 ? "s" : ""} for --fields of \`${kind}\`: ${unknown.join(", ")}; the service sent these columns: ${[...seen].join(", ")}`,
    {
      hint: nested.length
        ? `'${first}' is a group of columns: name them, e.g. --fields ${nested.join(",")}`
        : "see every column with -o csv (the header) or -o json",
    },
  );
}
