import * as z from "zod";
import { REPORT_KINDS, type ReportKind } from "../../api/schemas.js";
import { parseIsoDate } from "../../domain/date-windows.js";
import { UsageError } from "../../errors.js";
import { parsedFlag, switchFlag, wholeNumberFlag } from "../shared/flags.js";

// reports sync: the target, which kinds, where history starts, how long a window stays open.

function parseKinds(text: string): ReportKind[] {
  const kinds = text
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  if (kinds.length === 0)
    throw new UsageError("--kinds needs at least one report kind", { hint: `known: ${REPORT_KINDS.join(", ")}` });
  for (const kind of kinds) {
    if (!(REPORT_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`--kinds: unknown report kind ${JSON.stringify(kind)}`, { hint: `known: ${REPORT_KINDS.join(", ")}` });
    }
  }
  return [...new Set(kinds)] as ReportKind[];
}

function parseSince(text: string): number {
  const day = parseIsoDate(text.trim());
  if (day === undefined)
    throw new UsageError(`--since ${JSON.stringify(text)}: expected a real date YYYY-MM-DD, e.g. 2026-01-01`);
  return day;
}

function parseTarget(text: string): { kind: "duckdb"; path: string } | { kind: "postgres"; url: string } {
  const value = text.trim();
  if (value === "") throw new UsageError("--db needs a DuckDB file or a postgres:// URL");
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: "postgres", url: value };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new UsageError(`--db: unsupported target ${JSON.stringify(value.split("://")[0] + "://…")}`, {
      hint: "give a DuckDB file (reports.duckdb) or a postgres:// URL",
    });
  }
  return { kind: "duckdb", path: value };
}

export const ReportsSyncOptions = z.object({
  db: parsedFlag(parseTarget),
  kinds: parsedFlag(parseKinds).optional(),
  since: parsedFlag(parseSince).optional(),
  openDays: wholeNumberFlag("--open-days", 0, 366).optional(),
  dryRun: switchFlag,
  force: switchFlag,
  dbtSources: z.string().min(1).optional(),
});

export type ReportsSyncOptions = z.output<typeof ReportsSyncOptions>;
