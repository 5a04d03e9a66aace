import { createReadStream } from "node:fs";
import { appendFile } from "node:fs/promises";
import { extname, isAbsolute, relative, resolve, sep } from "node:path";
import { streamCsvRecords, type CsvSourceInfo } from "../domain/csv-input/reader.js";
import type { Env } from "../settings/paths.js";
import type { RunEnd } from "../errors.js";
import { writeFileAtomic } from "./atomic-file.js";

// What a run tells a CI system (docs/cli-contract.md "CI and cron"; docs/ci-and-cron.md):
// - under GitHub Actions (GITHUB_ACTIONS=true), each rejected row as an `::error` annotation
//   on its file and physical line — at most ten, since GitHub keeps ten error annotations a
//   step and drops the rest silently — then one `::notice` with the total;
// - a Markdown summary of the run appended to $GITHUB_STEP_SUMMARY;
// - with --junit <file>, a JUnit XML report (one test case per row or batch), for other CI systems.
// Commands record what happened (rows rejected, batches, counts); main.ts calls finish()
// with the exit code once the run is over. Workflow commands go to stderr, which the
// Actions runner reads like stdout, so that stdout keeps only the command's data.

/** Appends to a file, or writes into a FIFO without blocking when nobody reads it (fifo-write.ts). */
async function appendTo(path: string, text: string): Promise<void> {
  const { isFifo, writeToFifo } = await import("./fifo-write.js");
  if (await isFifo(path)) await writeToFifo(path, text);
  else await appendFile(path, text, "utf8");
}

/** GitHub keeps at most ten error annotations a step (docs/ci-and-cron.md). */
export const ANNOTATION_CAP = 10;

export interface RejectedRow {
  /** The input file as the user named it. */
  file: string;
  /** Spreadsheet row number (header = 1). */
  row: number;
  /** The physical line the row starts on; looked up in the file when not given. */
  line?: number | undefined;
  message: string;
  /** Left out of the upload as asked (--skip-invalid): a JUnit `<skipped>` and a warning annotation, not a failure. */
  skipped?: boolean | undefined;
}

export interface CiTestCase {
  name: string;
  /** Set for a case that failed. */
  failure?: string | undefined;
  /** The summary's word for a case that did not fail ("ok" when not given), e.g. "nothing to send: already imported". */
  okText?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
  /** Also an `::error` annotation under GitHub Actions (an import task that ended FAILED). */
  annotate?: boolean | undefined;
}

/**
 * Exit codes of runs that could not do their work (the key, a permission, the network, the
 * service, a local file, a bug, Ctrl-C): a JUnit `<error>`, where 5, 6 and 10 — the data
 * was wrong or the service refused it — are `<failure>`s (docs/ci-and-cron.md).
 */
const ERROR_EXITS = new Set([1, 3, 4, 7, 8, 9, 11, 130]);

/** GitHub's escaping of a workflow command's message (actions/toolkit, core/src/command.ts). */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** …and of a property value, where `:` and `,` separate the properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** Text for XML content and attribute values; characters XML 1.0 cannot hold become U+FFFD. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/**
 * A Markdown table cell shown as the text it is (GFM): one line, and the ASCII punctuation
 * that Markdown could read backslash-escaped (CommonMark renders `\x` as the character):
 * emphasis and code (`* _ ~ \``), links and images (`[ ]`: their `(` and `!` are then
 * plain), HTML and entities (`< > &`), autolinks (`:` of `https:`, `@` of an address, `www.`),
 * the table's pipes.
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/[\\`*_[\]<>|~&:@]/g, (c) => `\\${c}`)
    .replace(/\b(www)\./gi, "$1\\.");
}

/**
 * A file name in a code span: shown verbatim (no entity, no escape but the table's pipe,
 * which GFM reads before the span), fenced by more backticks than it holds.
 */
export function markdownCode(text: string): string {
  const line = text.replace(/[\r\n]+/g, " ").replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(line) ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

const cell = markdownText;

export class CiReport {
  private readonly rejected: RejectedRow[] = [];
  private readonly cases: CiTestCase[] = [];
  private readonly facts: [string, string][] = [];
  private readonly outputs = new Map<string, string>();
  private errorsFile: string | undefined;
  /** A --dry-run: the summary says nothing was sent. */
  dryRun = false;
  /** Whether a command recorded anything (the summary is written for those that do). */
  private used = false;
  private readonly encodings = new Map<string, string | undefined>();
  private readonly started: number;

  constructor(
    private readonly env: Env,
    private readonly write: (line: string) => void,
    private readonly junitPath: string | undefined,
    private readonly now: () => number,
    /** What the run is: `users import staff.csv`. */
    private readonly title = "simadmin",
  ) {
    this.started = now();
  }

  /** The encoding a file was read with (--encoding), for finding its rows' lines again. */
  source(file: string, encoding?: string): void {
    this.encodings.set(file, encoding);
  }

  /** A row the command or the service rejected: an annotation, a failed test case, a summary line. */
  reject(row: RejectedRow): void {
    this.used = true;
    this.rejected.push(row);
  }

  /** A test case that is not a rejected row (a batch, a row that went through). */
  testCase(testCase: CiTestCase): void {
    this.used = true;
    this.cases.push(testCase);
  }

  /** A line of the summary: "Rows" → "120 (117 valid, 3 invalid)". Replaces one of the same label. */
  fact(label: string, value: string): void {
    this.used = true;
    const at = this.facts.findIndex(([l]) => l === label);
    if (at >= 0) this.facts[at] = [label, value];
    else this.facts.push([label, value]);
  }

  /** A step output for the next steps of the workflow ($GITHUB_OUTPUT): `rows`, `task-ids`… */
  output(name: string, value: string | number): void {
    this.used = true;
    this.outputs.set(name, String(value));
  }

  setErrorsFile(path: string | undefined): void {
    this.errorsFile = path;
  }

  private get onGitHub(): boolean {
    return this.env.GITHUB_ACTIONS === "true";
  }

  /**
   * Writes what the run owes its CI system, once it is over. Problems writing the summary or
   * the JUnit file are returned as warnings: the run's own outcome stands.
   */
  async finish(end: RunEnd): Promise<string[]> {
    const warnings: string[] = [];
    const summaryPath = this.env.GITHUB_STEP_SUMMARY;
    const wantLines = (this.onGitHub || this.junitPath !== undefined) && this.rejected.length > 0;
    if (wantLines) await this.findLines();
    if (this.onGitHub) this.annotate();
    if (summaryPath && this.used) {
      try {
        await appendTo(summaryPath, this.summary(end));
      } catch (error) {
        warnings.push(
          `could not append the run summary to $GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        );
      }
    }
    const outputPath = this.env.GITHUB_OUTPUT;
    if (outputPath && this.onGitHub && this.used) {
      try {
        await appendTo(outputPath, this.stepOutputs(end.exitCode));
      } catch (error) {
        warnings.push(
          `could not write the step outputs to $GITHUB_OUTPUT (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        );
      }
    }
    if (this.junitPath !== undefined) {
      // A local file the user asked for: its failure is the run's (exit 11), thrown as it is.
      await writeFileAtomic(this.junitPath, this.junit(end));
    }
    return warnings;
  }

  /** The path GitHub resolves against the workspace (the checkout), with forward slashes. */
  private annotationPath(file: string): string {
    const workspace = this.env.GITHUB_WORKSPACE;
    if (!workspace) return file.split(sep).join("/");
    const absolute = isAbsolute(file) ? file : resolve(file);
    const inside = relative(workspace, absolute);
    return (inside.startsWith("..") || isAbsolute(inside) ? absolute : inside).split(sep).join("/");
  }

  /** `name=value` lines; a value with a line break in GitHub's `name<<delimiter` form. */
  private stepOutputs(exitCode: number): string {
    const lines: string[] = [];
    for (const [name, value] of [
      ...this.outputs,
      ["exit-code", String(exitCode)] as const,
      ["dry-run", String(this.dryRun)] as const,
    ]) {
      if (!/[\r\n]/.test(value)) lines.push(`${name}=${value}`);
      else {
        let delimiter = "SIMADMIN_EOF";
        while (value.includes(delimiter)) delimiter += "_";
        lines.push(`${name}<<${delimiter}`, value, delimiter);
      }
    }
    return `${lines.join("\n")}\n`;
  }

  private annotate(): void {
    let annotated = 0;
    for (const c of this.cases.filter((c) => c.annotate && c.failure !== undefined)) {
      if (annotated++ >= ANNOTATION_CAP) break;
      this.write(`::error title=${escapeProperty(c.name)}::${escapeData(c.failure ?? "")}`);
    }
    for (const row of this.rejected.slice(0, Math.max(0, ANNOTATION_CAP - annotated))) {
      const properties = [
        `file=${escapeProperty(this.annotationPath(row.file))}`,
        `line=${row.line ?? row.row}`,
        `title=${escapeProperty(`row ${row.row} ${row.skipped ? "skipped" : "rejected"}`)}`,
      ];
      this.write(
        `::${row.skipped ? "warning" : "error"} ${properties.join(",")}::${escapeData(`row ${row.row}: ${row.message}`)}`,
      );
    }
    const total = this.rejected.length;
    if (total > ANNOTATION_CAP) {
      const where = this.errorsFile ? `; all are in ${this.errorsFile}` : "";
      this.write(
        `::notice title=${escapeProperty("simadmin")}::${escapeData(`${total} rows were rejected; the first ${ANNOTATION_CAP} are annotated${where}`)}`,
      );
    }
  }

  /** Physical lines of the rejected rows that came without one: the file read again (only in CI, only when rows were rejected). */
  private async findLines(): Promise<void> {
    const byFile = new Map<string, RejectedRow[]>();
    for (const row of this.rejected) {
      if (row.line !== undefined) continue;
      const list = byFile.get(row.file) ?? [];
      list.push(row);
      byFile.set(row.file, list);
    }
    for (const [file, rows] of byFile) {
      // A workbook has no lines: its rows are what an annotation can point at.
      if (extname(file).toLowerCase() === ".xlsx") continue;
      const wanted = new Map<number, RejectedRow[]>();
      for (const row of rows) wanted.set(row.row, [...(wanted.get(row.row) ?? []), row]);
      const control = { failure: (): Error | undefined => undefined, info: {} as Partial<CsvSourceInfo> };
      const sink = (_cells: string[], row: number, line: number): void => {
        for (const r of wanted.get(row) ?? []) r.line = line;
      };
      try {
        for await (const _ of streamCsvRecords(createReadStream(file), sink, control, { encoding: this.encodings.get(file) })) {
          // The sink sets the lines.
        }
      } catch {
        // The file changed or cannot be read again: the rows keep their row numbers.
      }
    }
  }

  private summary(end: RunEnd): string {
    const command = markdownCode(`simadmin ${this.title}`);
    const lines: string[] = [this.dryRun ? `### Dry run: ${command} (nothing was sent)` : `### ${command}`, ""];
    const said = end.message ? `: ${cell(end.message)}` : "";
    // Whether the exit code is a failure is the error class's to say (errors.ts `failed`):
    // exit 12 (changes pending) is an answer.
    const result =
      end.exitCode === 0
        ? this.dryRun
          ? "✅ dry run: nothing was sent"
          : "✅ succeeded"
        : end.failed
          ? `❌ failed (exit ${end.exitCode})${said}`
          : `✅ exit ${end.exitCode}${said}`;
    lines.push("| | |", "|---|---|", `| Result | ${result} |`);
    for (const [label, value] of this.facts) lines.push(`| ${cell(label)} | ${cell(value)} |`);
    if (this.errorsFile) lines.push(`| Errors file | ${markdownCode(this.errorsFile)} |`);
    lines.push("");
    const batches = this.cases.filter((c) => c.name.startsWith("batch "));
    if (batches.length > 0) {
      lines.push("| Batch | Outcome |", "|---|---|");
      for (const batch of batches.slice(0, 50))
        lines.push(`| ${cell(batch.name)} | ${cell(batch.failure ?? batch.okText ?? "ok")} |`);
      if (batches.length > 50) lines.push(`| … | ${batches.length - 50} more |`);
      lines.push("");
    }
    if (this.rejected.length > 0) {
      const shown = this.rejected.slice(0, 20);
      lines.push(
        `**${this.rejected.every((r) => r.skipped) ? "Skipped" : "Rejected"} rows: ${this.rejected.length}**${this.rejected.length > shown.length ? ` (the first ${shown.length})` : ""}`,
        "",
      );
      lines.push("| File | Row | Line | Problem |", "|---|---|---|---|");
      for (const r of shown) lines.push(`| ${markdownCode(r.file)} | ${r.row} | ${r.line ?? ""} | ${cell(r.message)} |`);
      lines.push("");
    }
    return `${lines.join("\n")}\n`;
  }

  private junit(end: RunEnd): string {
    const { exitCode } = end;
    type Case = CiTestCase & { outcome?: "failure" | "error" | "skipped" };
    const cases: Case[] = [
      ...this.cases.map((c): Case => (c.failure === undefined ? c : { ...c, outcome: "failure" })),
      ...this.rejected.map((r): Case => ({
        name: `${r.file} row ${r.row}`,
        failure: r.message,
        outcome: r.skipped ? "skipped" : "failure",
        file: r.file,
        line: r.line ?? r.row,
      })),
    ];
    // A run that recorded nothing (or failed before its rows) is one case: the run itself —
    // an <error> when it could not do its work (a 401, the network), else a <failure>.
    if (cases.length === 0 || (end.failed && cases.every((c) => c.outcome === undefined || c.outcome === "skipped"))) {
      cases.push({
        name: this.title,
        ...(end.failed
          ? { failure: end.message ?? `exit ${exitCode}`, outcome: ERROR_EXITS.has(exitCode) ? "error" : "failure" }
          : {}),
      });
    }
    const count = (outcome: Case["outcome"]): number => cases.filter((c) => c.outcome === outcome).length;
    const [failures, errors, skipped] = [count("failure"), count("error"), count("skipped")];
    const seconds = ((this.now() - this.started) / 1000).toFixed(3);
    const timestamp = new Date(this.started).toISOString().replace(/\.\d+Z$/, "");
    const suite = escapeXml(`simadmin ${this.title}`);
    const out = [
      `<?xml version="1.0" encoding="UTF-8"?>`,
      `<testsuites name="simadmin" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}">`,
      `  <testsuite name="${suite}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds}" timestamp="${timestamp}">`,
    ];
    for (const c of cases) {
      const where = c.file === undefined ? "" : ` file="${escapeXml(c.file)}"${c.line === undefined ? "" : ` line="${c.line}"`}`;
      const open = `    <testcase classname="${suite}" name="${escapeXml(c.name)}"${where} time="0"`;
      const text = escapeXml(c.failure ?? "");
      if (c.outcome === undefined) out.push(`${open}/>`);
      else if (c.outcome === "skipped") out.push(`${open}>`, `      <skipped message="${text}"/>`, `    </testcase>`);
      else {
        const type = c.outcome === "error" ? `exit ${exitCode}` : "rejected";
        out.push(
          `${open}>`,
          `      <${c.outcome} message="${text}" type="${escapeXml(type)}">${text}</${c.outcome}>`,
          `    </testcase>`,
        );
      }
    }
    out.push("  </testsuite>", "</testsuites>", "");
    return out.join("\n");
  }
}
