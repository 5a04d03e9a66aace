import { prepareOutDir } from "../shared/local-files.js";
import type { CommandContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { PROGRESS_COLUMNS, splitFileNames } from "../../domain/progress.js";
import type { JsonRecord } from "../../domain/records.js";
import type { StreamResult } from "../../printer.js";
import type { SectionsSource } from "../../output/sections.js";

// --split-by <column> --out-dir <dir>: one file per value of a column — the monthly mail to
// each manager (docs/cli-contract.md "Progress"). The records are cut into one section per
// value and handed to the output engine (output/sections.ts), which writes a file per section
// by the output plan, as `reports --out-dir` does: the format is -o's (or the profile's), else
// CSV (command.ts outputDirectoryFormat); --fields and --query apply to each file; each file
// is written atomically and named on stderr (docs/progress.md). Everything that can go wrong
// with the directory or the column is found before a request is sent.

export interface SplitColumn {
  column: string;
}

export async function prepareSplit(
  ctx: CommandContext,
  splitBy: string,
  dir: string,
  fileColumns: readonly string[],
): Promise<SplitColumn> {
  if (ctx.printer.outputPlan.out !== undefined)
    throw new UsageError("give --out <file> or --split-by with --out-dir <dir>, not both");
  const columns = [...PROGRESS_COLUMNS, ...fileColumns];
  const column = columns.find((c) => c.toLowerCase() === splitBy.trim().toLowerCase());
  if (column === undefined) {
    throw new UsageError(`--split-by ${splitBy}: no such column; known columns: ${[...new Set(columns)].join(", ")}`);
  }
  await prepareOutDir(dir);
  return { column };
}

/** The records of one progress table, a section per value of the column, in the order values first appear. */
class SplitSections implements SectionsSource {
  readonly names: readonly string[];
  readonly together = true;
  readonly raw = false;
  readonly complete = true;
  /** A row of the assignments file, as docs/progress.md counts them. */
  readonly unit = "row";
  readonly spoolDir = undefined;
  private readonly groups = new Map<string, { value: string; records: JsonRecord[] }>();

  constructor(
    private readonly ctx: CommandContext,
    private readonly column: string,
    records: readonly JsonRecord[],
    readonly knownFields: readonly string[] | undefined,
  ) {
    const byValue = new Map<string, JsonRecord[]>();
    for (const record of records) {
      const raw = record[column];
      const value = String(raw ?? "");
      const group = byValue.get(value);
      if (group) group.push(record);
      else byValue.set(value, [record]);
    }
    const names = splitFileNames([...byValue.keys()]);
    for (const [value, group] of byValue) this.groups.set(names.get(value)!, { value, records: group });
    this.names = [...this.groups.keys()];
  }

  get signal(): AbortSignal {
    return this.ctx.services.signal;
  }

  async *batches(name: string): AsyncGenerator<readonly JsonRecord[]> {
    // The API key echoed inside an answer never reaches a file (redact.ts), as with --out.
    yield this.ctx.printer.redactor.redactData(this.groups.get(name)!.records);
  }

  /** A file that cannot be written stops the run (exit 11), as --out does. */
  failed(): undefined {
    return undefined;
  }

  title(name: string): string {
    return this.describe(name);
  }

  /** The format names the extension: csv, json, ndjson or xlsx (output-plan.ts DIRECTORY_FORMATS). */
  fileName(name: string): string {
    return `${name}.${this.ctx.printer.outputPlan.format}`;
  }

  emptyNote(name: string): string {
    return `no pairs with ${this.describe(name)}`;
  }

  describe(name: string): string {
    return `${this.column} = ${JSON.stringify(this.groups.get(name)!.value)}`;
  }
}

/** The table's records as one file per value, written by the output engine; the table's note follows. */
export function splitResult(
  ctx: CommandContext,
  split: SplitColumn,
  table: { records: JsonRecord[]; knownFields?: string[]; note: string },
): StreamResult {
  return {
    kind: "stream",
    write: async (target) => {
      await target.writeSections(new SplitSections(ctx, split.column, table.records, table.knownFields));
      ctx.printer.info(table.note);
    },
  };
}
