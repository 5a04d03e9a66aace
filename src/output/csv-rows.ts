import type { Cell } from "../domain/records.js";
import { BufferedChunkWriter } from "./chunk-writer.js";
import type { CsvRowWriter } from "./csv.js";
import type { ChunkSink, RecordStreamOptions } from "./record-types.js";
import type { RowOutput } from "./tabular-writer.js";

// csv rows once the columns are known (tabular-writer.ts decides when), through csv-stringify.

export class CsvRows implements RowOutput {
  private readonly out: BufferedChunkWriter;
  private csv: CsvRowWriter | undefined;

  constructor(
    sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {
    this.out = new BufferedChunkWriter(sink, options.signal);
  }

  async begin(columns: string[]): Promise<void> {
    // Imported here: `token` and `--help` load no CSV code (start-up, README "Development").
    const { CsvRowWriter } = await import("./csv.js");
    this.csv = new CsvRowWriter((text) => this.out.write(text), { bom: this.options.bom, delimiter: this.options.delimiter });
    // No record and no --fields: no columns to name, so the document stays empty.
    if (columns.length > 0) await this.csv.row(columns);
  }

  row(cells: readonly (Cell | undefined)[]): Promise<void> {
    return this.csv!.row(cells);
  }

  async end(): Promise<void> {
    await this.csv!.end();
    await this.out.flush();
  }

  abort(): void {
    this.csv?.abort();
  }
}
