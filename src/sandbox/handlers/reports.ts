import { reportResponseChunks } from "../reports.js";
import type { HandlerContext, HandlerResult, ReportKind } from "../types.js";
import { readReportRange } from "../validate.js";

/** The seven report endpoints (docs/service-spec.md §4.1): v1 `{data}`, v2 the same records plus fields, and metadata beside `data`. */
export function reportHandler(kind: ReportKind) {
  return (ctx: HandlerContext): HandlerResult => {
    const { startDate, endDate } = readReportRange(ctx.body);
    const generatedAt = new Date(ctx.now()).toISOString();
    return {
      status: 200,
      chunks: reportResponseChunks(kind, startDate, endDate, ctx.version, ctx.reportRecordsPerDay, generatedAt, ctx.dialect),
    };
  };
}
