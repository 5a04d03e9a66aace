#!/usr/bin/env node
// The baseline of bench/users-validate.mjs's whole-command part: a bare Node process that
// streams the file through csv-parse with the options the validator uses (the module of
// dist/, usersCsvParseOptions) and counts the records — reading a CSV with that library, and
// nothing more. Started by bench/users-validate.mjs (not by bench/run.mjs: it takes a file).
//
//   node bench/baselines/users-csv-parse.mjs <file.csv>
import { createReadStream } from "node:fs";
import { parse } from "csv-parse";

const { usersCsvParseOptions } = await import(new URL("../../dist/domain/users-csv/source.js", import.meta.url).href);
let records = 0;
const parser = createReadStream(process.argv[2]).pipe(parse(usersCsvParseOptions(",")));
parser.on("data", () => records++);
parser.on("end", () => process.stdout.write(`${records}\n`));
