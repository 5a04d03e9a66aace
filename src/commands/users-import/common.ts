import { createReadStream } from "node:fs";
import type { Context } from "../../context.js";

// Small pieces shared by users-import.ts (validation, plan) and upload.ts.

/** Row problems shown on stderr before "… and N more" (all of them are in the errors file). */
export const MAX_ROW_LINES = 20;

export interface ImportFlags {
  file: string;
  dryRun: boolean;
  skipInvalid: boolean;
  wait: boolean;
  resume: boolean;
  /** Also send again batches whose task ended FAILED (and ambiguous ones), keeping their history. */
  retryFailed: boolean;
  yes: boolean;
  timeoutMs: number;
  /** --encoding, resolved to its WHATWG name; undefined: BOM or UTF-8 (docs/cli-contract.md "Users CSV"). */
  encoding: string | undefined;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : many}`;
}

export function openSource(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 256 * 1024 });
}

export function problemLine(row: number | null | undefined, field: string | null | undefined, message: string): string {
  return `row ${row ?? "?"}${field ? `, ${field}` : ""}: ${message}`;
}

export function showRowLines(ctx: Context, lines: string[], more: string | undefined): void {
  for (const line of lines.slice(0, MAX_ROW_LINES)) ctx.info(`  ${line}`);
  const hidden = lines.length - Math.min(lines.length, MAX_ROW_LINES);
  if (hidden > 0 || more)
    ctx.info(`  …${hidden > 0 ? ` and ${plural(hidden, "more problem")}` : " more"}${more ? `: ${more}` : ""}`);
}
