import { prepareOutDir } from "../shared/local-files.js";
import { join } from "node:path";
import type { CommandContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { PROGRESS_COLUMNS, splitFileNames } from "../../domain/progress.js";
import type { JsonRecord } from "../../domain/records.js";
import type { OutputFormat } from "../../output/render.js";
import { showPath } from "../../messages.js";

// --split-by <column> --out-dir <dir>: one file per value of a column — the monthly mail to
// each manager (docs/cli-contract.md "Progress"). The format is -o's (or the profile's), else
// CSV, never the terminal's table; each file is written atomically through the printer, like
// --out. Everything that can go wrong with the directory or the column is found before a
// request is sent.

const EXTENSIONS: Partial<Record<OutputFormat, string>> = { csv: "csv", json: "json", ndjson: "ndjson", xlsx: "xlsx" };

export interface SplitPlan {
  column: string;
  dir: string;
  format: OutputFormat;
}

export async function prepareSplit(
  ctx: CommandContext,
  splitBy: string,
  dir: string,
  fileColumns: readonly string[],
): Promise<SplitPlan> {
  const { printer } = ctx;
  if (printer.outputPlan.out !== undefined)
    throw new UsageError("give --out <file> or --split-by with --out-dir <dir>, not both");
  const columns = [...PROGRESS_COLUMNS, ...fileColumns];
  const column = columns.find((c) => c.toLowerCase() === splitBy.trim().toLowerCase());
  if (column === undefined) {
    throw new UsageError(`--split-by ${splitBy}: no such column; known columns: ${[...new Set(columns)].join(", ")}`);
  }
  // -o, the profile's output setting, else CSV (command.ts outputDirectoryFormat), and only a
  // format a file holds: decided and checked in the output plan (output-plan.ts).
  const { format } = printer.outputPlan;
  await prepareOutDir(dir);
  return { column, dir, format };
}

/** One file per value, in the order values first appear; each named on stderr with its row count. */
export async function writeSplitFiles(
  ctx: CommandContext,
  splitPlan: SplitPlan,
  result: { kind: "records"; records: JsonRecord[]; tableColumns?: string[]; knownFields?: string[] },
): Promise<void> {
  const { printer } = ctx;
  const groups = new Map<string, JsonRecord[]>();
  for (const record of result.records) {
    const raw = record[splitPlan.column];
    const value = raw === null || raw === undefined ? "" : String(raw);
    groups.set(value, [...(groups.get(value) ?? []), record]);
  }
  const names = splitFileNames([...groups.keys()]);
  const { writeResult } = await import("../../output/render.js");
  const render = { ...printer.renderOptions(), format: splitPlan.format, color: false };
  for (const [value, records] of groups) {
    const name = names.get(value)!;
    const path = join(splitPlan.dir, `${name}.${EXTENSIONS[splitPlan.format]}`);
    const sink = await printer.openOutput(path);
    try {
      await writeResult({ ...result, records }, sink, { ...render, sheetName: name.slice(0, 31) });
      await sink.commit();
    } catch (error) {
      await sink.abort();
      throw error;
    }
    printer.info(
      `wrote ${showPath(path)} (${records.length} row${records.length === 1 ? "" : "s"}, ${splitPlan.column} = ${JSON.stringify(value)})`,
    );
  }
}
