import { join } from "node:path";
import type { JsonRecord } from "../domain/records.js";
import { jsonText } from "./json-text.js";
import type { CompiledQuery } from "./query.js";
import { createRecordWriter } from "./record-stream.js";
import type { ChunkSink, RecordFormat } from "./record-types.js";
import type { RenderOptions } from "./render.js";
import { tableHint, type TableColumns } from "./table-columns.js";
import type { XlsxWorkbook } from "./xlsx.js";

// The output engine's writer of results in named sections, streamed (docs/report-output.md):
// a result too large to hold — `reports`, a section per kind, each read window by window —
// goes where the output plan says, as its batches arrive: one section to stdout or --out;
// several as one JSON object keyed by name, a titled table each, or one workbook with a
// sheet each; with --out-dir a file per section; with --query the JSON -o json would print,
// collected and queried. Every record goes through the record writers (record-stream.ts),
// as complete results do (render.ts): the printer is the only caller (printer.ts).
//
// A section that fails may not stop the others (`reports all`): the source says which
// failures the run goes on after (SectionsSource.failed); --fields is checked against the
// data first, where the source can (checkFields).

/** Where the output goes: a file written atomically, or stdout. */
export interface OutputSink extends ChunkSink {
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** What the engine is given by the printer: the decided output plan's parts, and the way out. */
export interface SectionsTarget {
  /** The plan's format; "text" only with --query. */
  format: RecordFormat | "text";
  fields: string[] | undefined;
  query: CompiledQuery | undefined;
  out: string | undefined;
  outDir: string | undefined;
  options: RenderOptions;
  /** stdout, or the path (the plan's --out when not given) written atomically. */
  openOutput(path?: string): Promise<OutputSink>;
  /** A line for people on stderr. */
  note(text: string): void;
  /** A path as messages show it. */
  showPath(path: string): string;
}

/** A result in named sections, read when the engine asks. */
export interface SectionsSource {
  readonly names: readonly string[];
  /** Several sections written together (`reports all`); false: the one section is the output. */
  readonly together: boolean;
  /** Each record is a whole document (a raw answer): written member by member, counted as "window". */
  readonly raw: boolean;
  /**
   * The sections are held whole (a complete result cut in parts: `progress --split-by`), not
   * read as they arrive: JSON is pretty-printed as a complete result is (render.ts), so a file
   * of the split equals what `--out` would hold for the same records.
   */
  readonly complete?: boolean;
  /** What the "wrote" line counts: "record" unless given ("window" for raw answers). */
  readonly unit?: string;
  /** Fields valid even where a section's records lack them (--fields prints them empty; a CSV's header when no record came). */
  readonly knownFields?: readonly string[];
  /** Ctrl-C: long loops (a spool of a million rows) stop at the next chunk. */
  readonly signal: AbortSignal;
  /** Where the CSV writer spools rows (a private directory), when not the OS temp dir. */
  readonly spoolDir: string | undefined;
  /** A section's records, batch by batch. */
  batches(name: string): AsyncIterable<readonly JsonRecord[]>;
  /** --fields against the section's data, before any output is written. */
  checkFields?(name: string): Promise<void>;
  /**
   * A section's failure: "skip" — go on without it; "skip-rest" — go on without it and the
   * sections not written yet; undefined — the whole result fails (the error is thrown).
   */
  failed(name: string, error: unknown): "skip" | "skip-rest" | undefined;
  /** The heading of a section's table among several. */
  title(name: string): string;
  /** A section's file name in --out-dir. */
  fileName(name: string): string;
  /** The line saying a section had no record (before a CSV's own remark). */
  emptyNote(name: string): string;
  /** What a section holds, for its "wrote" line, when its name does not say it (a value made safe for a file name). */
  describe?(name: string): string;
  /** Called before each note, so that a spinner steps aside. */
  beforeNote?(): void;
}

/** A text collector for what must be whole before it is written (a section among several, a --query). */
function textCollector(toTerminal: boolean): ChunkSink & { text: string } {
  const collector = {
    toTerminal,
    text: "",
    write: async (chunk: string | Uint8Array) =>
      void (collector.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")),
  };
  return collector;
}

/** Writes a sectioned result by the plan; returns the sections left unwritten by a "skip-rest" failure. */
export async function writeSections(target: SectionsTarget, source: SectionsSource): Promise<string[]> {
  const writer = new SectionsWriter(target, source);
  await writer.write();
  return writer.notAttempted;
}

class SectionsWriter {
  readonly notAttempted: string[] = [];
  private readonly failed = new Set<string>();
  private hintGiven = false;

  constructor(
    private readonly target: SectionsTarget,
    private readonly source: SectionsSource,
  ) {}

  async write(): Promise<void> {
    const { query, fields, outDir } = this.target;
    const { source } = this;
    // --fields against what the service sent, before any output is written. With --query it
    // names the columns of the query's answer, checked when that is rendered.
    if (fields && !query && source.checkFields) await this.each(async (name) => source.checkFields?.(name));
    if (query) await this.writeQueried(query);
    else if (outDir !== undefined) await this.writeFilePerSection(outDir);
    else await this.writeToOutput();
  }

  /** Each section still wanted, in order; a failure the source allows is passed over. */
  private async each(work: (name: string) => Promise<void>): Promise<void> {
    const finished = new Set<string>();
    for (const name of this.source.names) {
      if (this.failed.has(name) || this.notAttempted.includes(name)) continue;
      try {
        await work(name);
      } catch (error) {
        const verdict = this.source.failed(name, error);
        if (verdict === undefined) throw error;
        this.failed.add(name);
        if (verdict === "skip-rest") {
          const left = this.source.names.filter((n) => !finished.has(n) && !this.failed.has(n));
          this.notAttempted.push(...left.filter((n) => !this.notAttempted.includes(n)));
          return;
        }
        continue;
      }
      finished.add(name);
    }
  }

  /** One section into a record writer; returns the records written. */
  private async writeSection(
    name: string,
    sink: ChunkSink,
    extra: { jsonTrailer?: string; workbook?: XlsxWorkbook },
    asJson?: "json",
  ): Promise<number> {
    const { target, source } = this;
    const { options } = target;
    // The format is "text" only with --query, which always collects JSON (asJson).
    const format = asJson ?? (target.format as RecordFormat);
    const fields = target.fields;
    const writer = createRecordWriter(sink, {
      format,
      // --fields applies after the query, to its answer.
      fields: asJson ? undefined : fields,
      knownFields: source.knownFields ? [...source.knownFields] : undefined,
      bom: options.bom,
      delimiter: options.delimiter,
      color: options.color,
      width: options.width,
      jsonTrailer: extra.jsonTrailer,
      jsonIndent: source.complete === true,
      sheetName: name,
      workbook: extra.workbook,
      // Raw responses can be tens of megabytes: written member by member, never as one string.
      jsonSplitDepth: source.raw ? 4 : 0,
      spoolDir: fields ? undefined : source.spoolDir,
      signal: source.signal,
      // A table shows the columns that fit, chosen from the records (table-columns.ts).
      onColumnsHidden: (choice) => this.columnsHint(name, choice),
    });
    try {
      for await (const records of source.batches(name)) await writer.writeBatch(records);
      await writer.end();
      // An empty section must not look like a broken file: say so. With --fields a CSV still has its header.
      if (writer.count === 0 && !source.raw) {
        const empty = format === "csv" && !fields ? "; the CSV is empty (--fields <columns> gives it a header)" : "";
        this.note(`${source.emptyNote(name)}${empty}`);
      }
      return writer.count;
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }

  private fileFor(dir: string, name: string): string {
    return join(dir, this.source.fileName(name));
  }

  /**
   * --query: the expression sees what `-o json` would print — one section's records, or for
   * sections together (without --out-dir) the object keyed by name; with --out-dir it is
   * applied to each section, file by file. The JSON is collected in memory first (a query
   * needs the whole document); docs/report-output.md says so.
   */
  private async writeQueried(query: CompiledQuery): Promise<void> {
    const { target, source } = this;
    const { renderQueried } = await import("./query.js");
    const options = { ...target.options, format: target.format };
    const emit = async (path: string | undefined, value: unknown, name?: string): Promise<void> => {
      const queried = query.apply(value);
      // A workbook is binary: the answer goes through the record writers (render.ts).
      const text = target.format === "xlsx" ? undefined : await renderQueried(queried, options);
      const sink = await target.openOutput(path);
      try {
        if (text === undefined) {
          const { writeResult, resultOfJson } = await import("./render.js");
          await writeResult(resultOfJson(queried), sink, { ...options, sheetName: "query" });
        } else await sink.write(text);
        await sink.commit();
      } catch (error) {
        await sink.abort();
        throw error;
      }
      const what = name === undefined ? undefined : source.describe?.(name);
      if (path) this.note(`wrote ${target.showPath(path)}${what ? ` (${what})` : ""}`);
    };
    const { outDir, out } = target;
    if (outDir !== undefined) {
      await this.each(async (name) => emit(this.fileFor(outDir, name), await this.collect(name), name));
      return;
    }
    if (!source.together) {
      const [name] = source.names;
      if (name !== undefined) await emit(out, await this.collect(name));
      return;
    }
    const whole: Record<string, unknown> = {};
    await this.each(async (name) => {
      whole[name] = await this.collect(name);
    });
    await emit(out, whole);
  }

  /** One section as the JSON value `-o json` prints, in memory. */
  private async collect(name: string): Promise<unknown> {
    const collector = textCollector(false);
    await this.writeSection(name, collector, {}, "json");
    return JSON.parse(collector.text) as unknown;
  }

  private wrote(path: string, count: number, name?: string): void {
    const unit = this.source.raw ? "window" : (this.source.unit ?? "record");
    const what = name === undefined ? undefined : this.source.describe?.(name);
    this.note(`wrote ${this.target.showPath(path)} (${count} ${unit}${count === 1 ? "" : "s"}${what ? `, ${what}` : ""})`);
  }

  /** --out-dir: a file each, committed as soon as its section is complete. */
  private async writeFilePerSection(dir: string): Promise<void> {
    await this.each(async (name) => {
      const path = this.fileFor(dir, name);
      const sink = await this.target.openOutput(path);
      try {
        const count = await this.writeSection(name, sink, {});
        await sink.commit();
        this.wrote(path, count, name);
      } catch (error) {
        await sink.abort();
        throw error;
      }
    });
  }

  /** stdout or --out: the one section, or sections together as one JSON object (or a table each, or a workbook). */
  private async writeToOutput(): Promise<void> {
    const { target, source } = this;
    const { out } = target;
    const sink = await target.openOutput();
    try {
      if (!source.together) {
        const [name] = source.names;
        if (name === undefined) return;
        const count = await this.writeSection(name, sink, {});
        await sink.commit();
        if (out) this.wrote(out, count);
        return;
      }
      if (target.format === "xlsx") await this.writeWorkbook(sink);
      else await this.writeEachSection(sink);
      await sink.commit();
    } catch (error) {
      await sink.abort();
      throw error;
    }
  }

  /**
   * Sections together into one workbook, a sheet each. A section that fails is named by the
   * source; the sheets of the others are kept.
   */
  private async writeWorkbook(sink: OutputSink): Promise<void> {
    const { openXlsxWorkbook } = await import("./xlsx.js");
    const workbook = await openXlsxWorkbook(sink);
    try {
      await this.each((name) => this.writeSection(name, sink, { workbook }).then(() => {}));
      await workbook.commit();
    } catch (error) {
      workbook.abort();
      throw error;
    }
    const { out } = this.target;
    const sheets = this.source.names.length - this.failed.size;
    if (out) this.note(`wrote ${this.target.showPath(out)} (${sheets} sheets)`);
  }

  /**
   * Sections together as one JSON object keyed by name, or a titled table each. Each section
   * is rendered whole before it is written, so that one failing half-way leaves the JSON
   * document valid (without it) and no half table behind.
   */
  private async writeEachSection(sink: OutputSink): Promise<void> {
    const json = this.target.format === "json";
    let first = true;
    if (json) await sink.write("{\n");
    await this.each(async (name) => {
      const buffer = textCollector(sink.toTerminal);
      await this.writeSection(name, buffer, json ? { jsonTrailer: "" } : {});
      await sink.write(
        json
          ? `${first ? "" : ",\n"}${jsonText(name)}: ${buffer.text}`
          : // table: a titled table per section, for people at a terminal.
            `${first ? "" : "\n"}${this.source.title(name)}\n${buffer.text}`,
      );
      first = false;
    });
    if (json) await sink.write("\n}\n");
  }

  /** Once a result: the table left columns out, and how to get them (one hint line that works). */
  private columnsHint(name: string, choice: TableColumns): void {
    if (this.hintGiven) return;
    this.hintGiven = true;
    this.note(tableHint(name, choice, this.target.options.width));
  }

  private note(text: string): void {
    this.source.beforeNote?.();
    this.target.note(text);
  }
}
