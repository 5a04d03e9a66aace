import type { Cell } from "../domain/records.js";
import { throwIfAborted } from "../errors.js";
import type { ChunkSink, RecordStreamOptions } from "./record-types.js";
import type { RowOutput } from "./tabular-writer.js";
import type { XlsxSheet, XlsxWorkbook } from "./xlsx.js";

// xlsx rows once the columns are known (tabular-writer.ts), into a sheet of its own workbook
// or of a shared one (reports all: a sheet per kind); exceljs loads only here.

export class XlsxRows implements RowOutput {
  private sheet: XlsxSheet | undefined;
  private own: XlsxWorkbook | undefined;

  constructor(
    private readonly sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {}

  async begin(columns: string[]): Promise<void> {
    let workbook = this.options.workbook;
    if (!workbook) {
      const { openXlsxWorkbook } = await import("./xlsx.js");
      workbook = this.own = await openXlsxWorkbook(this.sink);
    }
    this.sheet = workbook.addSheet(this.options.sheetName ?? "Sheet1");
    await this.sheet.header(columns);
  }

  async rows(rows: readonly (readonly (Cell | undefined)[])[]): Promise<void> {
    for (const cells of rows) await this.sheet!.row(cells);
  }

  async end(): Promise<void> {
    throwIfAborted(this.options.signal);
    await this.sheet!.end();
    await this.own?.commit();
  }

  abort(): void {
    this.own?.abort();
  }
}
