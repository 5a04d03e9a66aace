import { flattenRecord, type Cell, type JsonRecord } from "../domain/records.js";
import { FieldsGate } from "./fields-check.js";
import type { ChunkSink, RecordStreamOptions, RecordWriter } from "./record-types.js";
import { renderTable } from "./table.js";
import { cellText, chooseTableColumns, naturalWidth } from "./table-columns.js";
import { keyValueText, valuesBelow } from "./table-text.js";

// table (record-stream.ts): collected — a table is for a terminal, where a few thousand
// rows is already a lot — then drawn once, with the columns chosen from the records when
// the command names none (table-columns.ts).

export class TableRecordWriter implements RecordWriter {
  count = 0;
  private readonly rows: Record<string, Cell>[] = [];
  private readonly columns: string[] = [];
  private readonly seen = new Set<string>();
  private readonly gate: FieldsGate;
  private ended = false;

  constructor(
    private readonly sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {
    this.gate = new FieldsGate(options.fields, options.knownFields, false);
  }

  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    this.gate.check(records);
    for (const record of records) {
      // Tables show a list of values as `a, b` (CSV: `a;b`).
      const flat = flattenRecord(record, "", {}, ", ");
      for (const key of Object.keys(flat)) {
        if (!this.seen.has(key)) {
          this.seen.add(key);
          this.columns.push(key);
        }
      }
      this.rows.push(flat);
      this.count++;
    }
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.gate.finish();
    const { fields, tableColumns, single } = this.options;
    let text: string;
    if (single === true && !fields) {
      // One object prints as `key: value` lines at full length (as gh prints one item): what
      // `link` and `token` exist to give must survive a copy from the terminal.
      const row = this.rows[0] ?? {};
      text = keyValueText(
        this.columns.map((c) => [c, cellText(row[c])] as const),
        this.options.color,
      );
    } else {
      // With no record the table is "(no results)" whatever the columns.
      let chosen = fields ?? tableColumns?.filter((c) => this.seen.has(c)) ?? this.columns;
      if (chosen.length === 0) chosen = this.columns;
      const { onColumnsHidden } = this.options;
      // Records of unknown shape (reports): the columns that fit, chosen from the records.
      // (With no record nothing is hidden and the table is "(no results)".)
      if (!fields && !tableColumns && onColumnsHidden) {
        const choice = chooseTableColumns(this.columns, this.rows, this.options.width ?? 120);
        chosen = choice.shown;
        if (choice.hidden.length > 0) onColumnsHidden(choice);
      }
      text = await this.drawn(chosen);
    }
    this.rows.length = 0;
    // renderTable escapes every cell itself (and may add colour codes of our own), so the
    // text goes to the sink as it is.
    await this.sink.write(text);
  }

  /**
   * The table of `chosen`; a whole column (a link) that cannot keep its longest value on one
   * line goes under the table instead, beside the row's first two columns: a link wrapped
   * over a dozen lines of a narrow column cannot be copied, nor read (docs/table-width.md).
   */
  private async drawn(chosen: string[]): Promise<string> {
    const { wholeColumn, width = 120 } = this.options;
    const inTable = chosen.filter((column) => column !== wholeColumn);
    if (wholeColumn === undefined || inTable.length === chosen.length || inTable.length === 0)
      return renderTable(chosen, this.rows, this.options);
    const fits = chosen.reduce((sum, column) => sum + naturalWidth(column, this.rows) + 3, 1) <= width;
    if (fits) return renderTable(chosen, this.rows, this.options);
    const flexColumn = this.options.flexColumn === wholeColumn ? undefined : this.options.flexColumn;
    const table = await renderTable(inTable, this.rows, { ...this.options, flexColumn });
    return table + valuesBelow(inTable.slice(0, 2), wholeColumn, this.rows, this.options.color);
  }

  async abort(): Promise<void> {
    this.ended = true;
    this.rows.length = 0;
  }
}
