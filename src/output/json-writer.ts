import { BufferedChunkWriter } from "./chunk-writer.js";
import { FieldsGate, pickFields } from "./fields-check.js";
import { exactJsonText } from "../domain/exact-json.js";
import { escapeC1, jsonChunks, jsonText } from "./json-text.js";
import type { JsonRecord } from "../domain/records.js";
import type { ChunkSink, RecordStreamOptions, RecordWriter } from "./record-types.js";

// json and ndjson (record-stream.ts): records leave as they arrive, nothing is collected.
// What jsonText escapes beyond JSON.stringify (escapeC1) is escaped once per buffered write,
// and a record is added to the buffer without an await unless the buffer is full: per record
// both cost a tenth of an ndjson export (docs/architecture.md, Exports).

export class JsonRecordWriter implements RecordWriter {
  count = 0;
  private readonly out: BufferedChunkWriter;
  private readonly gate: FieldsGate;
  private readonly ndjson: boolean;
  private ended = false;

  constructor(
    sink: ChunkSink,
    private readonly options: RecordStreamOptions,
  ) {
    this.out = new BufferedChunkWriter(sink, options.signal, escapeC1);
    this.gate = new FieldsGate(options.fields, options.knownFields, true);
    this.ndjson = options.format === "ndjson";
  }

  async writeBatch(records: readonly JsonRecord[]): Promise<void> {
    this.gate.check(records);
    const { fields, jsonIndent, single } = this.options;
    // Stryker disable next-line LogicalOperator: splitting bounds memory only; jsonChunks joins to the same text (json-text.ts).
    const depth = fields ? 0 : (this.options.jsonSplitDepth ?? 0);
    const pretty = jsonIndent === true && !this.ndjson;
    const bare = single === true && !this.ndjson;
    if (!pretty && !bare && depth === 0) {
      // An export's records, one a line, without a promise per record.
      for (const record of records) {
        const text = exactJsonText(fields ? pickFields(record, fields) : record);
        const line = this.ndjson ? `${text}\n` : `${this.count === 0 ? "[\n" : ",\n"}${text}`;
        if (this.out.add(line)) await this.out.flush();
        this.count++;
      }
      return;
    }
    for (const record of records) {
      if (!this.ndjson && !bare) await this.out.write(this.count === 0 ? "[\n" : ",\n");
      const value = fields ? pickFields(record, fields) : record;
      if (pretty) {
        // As JSON.stringify(list, null, 2) would indent it: the record one level in.
        const text = jsonText(value, 2);
        await this.out.write(bare ? text : `  ${text.replace(/\n/g, "\n  ")}`);
        // Stryker disable next-line ConditionalExpression: as above, the split text is the same text.
      } else if (depth > 0) {
        for (const chunk of jsonChunks(record, depth)) await this.out.write(chunk);
      } else {
        await this.out.write(jsonText(value));
      }
      if (this.ndjson) await this.out.write("\n");
      this.count++;
    }
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.gate.finish();
    const trailer = this.options.jsonTrailer ?? "\n";
    if (this.options.single === true && !this.ndjson) {
      await this.out.write(this.count === 0 ? `null${trailer}` : trailer);
    } else if (!this.ndjson) {
      await this.out.write(`${this.count === 0 ? "[]" : "\n]"}${trailer}`);
    }
    await this.out.flush();
  }

  async abort(): Promise<void> {
    this.ended = true;
  }
}
