import type { ReportKind } from "../../api/schemas.js";
import type { CommandContext } from "../../context.js";
import { createRecordWriter } from "../../output/record-stream.js";
import type { ChunkSink, RecordFormat } from "../../output/record-types.js";
import type { TableColumns } from "../../output/table-columns.js";
import type { SecretScan } from "../../output/secret-scan.js";
import type { XlsxWorkbook } from "../../output/xlsx.js";
import type { StreamTarget } from "../../printer.js";
import type { ReportsPlan } from "./reports-plan.js";
import type { ReportWindows } from "../../engines/reports/windows.js";

// One report kind, window after window, through the output engine (output/record-stream.ts)
// as each window is read: memory holds neither a window nor the output. outputs.ts decides
// where each kind goes.

/** A text collector for what must be whole before it is written (a kind of `all`, a --query). */
export function textCollector(toTerminal: boolean): ChunkSink & { text: string } {
  const collector = {
    toTerminal,
    text: "",
    write: async (chunk: string | Uint8Array) =>
      void (collector.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")),
  };
  return collector;
}

/** What the writer tells people on stderr (outputs.ts: above the spinner, the columns hint once). */
export interface KindNotes {
  note(text: string): void;
  columnsHidden(kind: ReportKind, choice: TableColumns): void;
}

export class KindWriter {
  constructor(
    private readonly ctx: CommandContext,
    private readonly reportsPlan: ReportsPlan,
    private readonly target: StreamTarget,
    private readonly windows: ReportWindows,
    private readonly notes: KindNotes,
    /** Where the CSV writer spools rows (under the settings directory; cache.ts). */
    private readonly spoolDir: string | undefined,
  ) {}

  /** One kind into a record writer; returns the records written. */
  async write(
    kind: ReportKind,
    sink: ChunkSink,
    extra: { jsonTrailer?: string; workbook?: XlsxWorkbook },
    asJson?: "json",
  ): Promise<number> {
    const { reportsPlan, ctx } = this;
    const { options } = this.target;
    // plan.format is "text" only with --query, which always collects JSON (asJson).
    const format = asJson ?? (reportsPlan.format as RecordFormat);
    const fields = reportsPlan.output.fields;
    const writer = createRecordWriter(sink, {
      format,
      // --fields applies after the query, to its answer.
      fields: asJson ? undefined : fields,
      bom: options.bom,
      delimiter: options.delimiter,
      color: options.color,
      width: options.width,
      jsonTrailer: extra.jsonTrailer,
      sheetName: kind,
      workbook: extra.workbook,
      // Raw responses can be tens of megabytes: written member by member, never as one string.
      jsonSplitDepth: reportsPlan.raw ? 4 : 0,
      spoolDir: fields ? undefined : this.spoolDir,
      signal: ctx.services.signal,
      // A table shows the columns that fit, chosen from the records (output/table-columns.ts).
      onColumnsHidden: (choice) => this.notes.columnsHidden(kind, choice),
    });
    try {
      // The API key echoed inside report data never reaches an export, whatever the format (redact.ts).
      // Where the window's text proves the key absent, the records need no walk (secret-scan.ts).
      const { redactor } = ctx.printer;
      const scan = (): SecretScan | undefined => redactor.dataScan();
      for await (const { records, secretsAbsent } of this.windows.batches(kind, { raw: reportsPlan.raw, scan })) {
        await writer.writeBatch(secretsAbsent ? records : redactor.redactData(records));
      }
      await writer.end();
      // An empty report must not look like a broken file: say so. With
      // --fields a CSV still has its header.
      if (writer.count === 0 && !reportsPlan.raw) {
        const empty = format === "csv" && !fields ? "; the CSV is empty (--fields <columns> gives it a header)" : "";
        this.notes.note(`no records in ${kind} for ${reportsPlan.range.startDate}..${reportsPlan.range.endDate}${empty}`);
      }
      return writer.count;
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }
}
