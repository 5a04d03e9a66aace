import { prepareOutDir } from "../shared/local-files.js";
import { REPORT_KINDS, ReportKind } from "../../api/schemas.js";
import type { Clock } from "../../clock.js";
import { resolveRangeSpec, splitIntoWindows, utcDay, type DateRange, type ResolvedRange } from "../../domain/date-windows.js";
import { UsageError } from "../../errors.js";
import type { OutputPlan } from "../../output-plan.js";
import type { RecordFormat } from "../../output/record-types.js";
import type { ReportsOptions } from "./options.js";

// What `reports` will do, decided before anything is sent: the kinds, the range and its
// windows, and the checks only reports needs on top of the output plan the runner resolved
// (output-plan.ts: format, --out, --out-dir's default, --fields, --query, once).

export interface ReportsPlan {
  kinds: ReportKind[];
  all: boolean;
  range: ResolvedRange;
  windows: DateRange[];
  /** The plan's format; "text" only with --query (the runner refuses it otherwise). */
  format: RecordFormat | "text";
  raw: boolean;
  outputPlan: OutputPlan;
}

export async function planReports(
  options: ReportsOptions,
  args: readonly string[],
  outputPlan: OutputPlan,
  clock: Clock,
): Promise<ReportsPlan> {
  const kindArg = args[0] ?? "";
  const all = kindArg === "all";
  const kind = ReportKind.safeParse(kindArg);
  if (!all && !kind.success) {
    throw new UsageError(`unknown report kind ${JSON.stringify(kindArg)}; known kinds: ${REPORT_KINDS.join(", ")}, all`);
  }
  const range = resolveRangeSpec(options.range, utcDay(clock.now()));
  const { format, formatOrigin: origin, out, outDir, query, fields } = outputPlan;

  if (out !== undefined && outDir !== undefined) throw new UsageError("give --out <file> or --out-dir <dir>, not both");
  // One workbook holds a sheet per kind (docs/cli-contract.md, report kinds); other files hold one kind.
  if (out !== undefined && all && format !== "xlsx") {
    throw new UsageError("`reports all` writes one file per kind: use --out-dir <dir> instead of --out", {
      hint: "or --out <file>.xlsx for one workbook with a sheet per kind",
    });
  }
  // --out-dir's formats are the output plan's rule (output-plan.ts).
  if (all && outDir === undefined && !query && (format === "csv" || format === "ndjson")) {
    throw new UsageError(`\`reports all\` as ${format} (${origin}) writes one file per kind: add --out-dir <dir>`, {
      hint: "or use -o json for one JSON object keyed by kind on stdout",
    });
  }
  const raw = options.raw === true;
  if (raw && format !== "json" && format !== "ndjson") {
    throw new UsageError(`--raw prints each window's response untouched: use -o json or -o ndjson, not ${format} (${origin})`);
  }
  if (raw && fields) throw new UsageError("--raw prints responses untouched: it cannot be combined with --fields");
  // --fields is checked against the columns the service sends, on the first records
  // (report-sections.ts): no list of a kind's columns exists here (docs/cli-contract.md, "Records of
  // unknown shape").

  if (outDir !== undefined) await prepareOutDir(outDir);
  return {
    kinds: all ? [...REPORT_KINDS] : [kind.data as ReportKind],
    all,
    range,
    windows: splitIntoWindows(range),
    format: format,
    raw,
    outputPlan,
  };
}

