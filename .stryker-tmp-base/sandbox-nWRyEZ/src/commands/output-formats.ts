// @ts-nocheck
import type { OutputFormat } from "../output/render.js";

// The -o formats, as plain data for the declarations and --help (output/render.ts, which
// renders them, loads only when something is printed). test/unit/declarations.test.ts
// checks that the two lists agree.

export const OUTPUT_FORMAT_NAMES: readonly OutputFormat[] = ["table", "json", "csv", "ndjson", "xlsx", "text"];

/** Every format but text: what a command printing records or an object offers (xlsx only into a file). */
export const DATA_FORMATS: readonly OutputFormat[] = ["table", "json", "csv", "ndjson", "xlsx"];

/** Every format, text (one bare value) first. */
export const TEXT_AND_DATA_FORMATS: readonly OutputFormat[] = ["text", ...DATA_FORMATS];
