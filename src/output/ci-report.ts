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
}

export interface CiTestCase {
  name: string;
  /** Set for a case that failed. */
  failure?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
}

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

/** A Markdown table cell: one line, no pipes breaking the table, no HTML. */
function cell(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/`/g, "\\`");
}

export class CiReport {
  private readonly rejected: RejectedRow[] = [];
  private readonly cases: CiTestCase[] = [];
  private readonly facts: [string, string][] = [];
  private errorsFile: string | undefined;
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
        await appendFile(summaryPath, this.summary(end), "utf8");
      } catch (error) {
        warnings.push(
          `could not append the run summary to $GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
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

  private annotate(): void {
    for (const row of this.rejected.slice(0, ANNOTATION_CAP)) {
      const properties = [
        `file=${escapeProperty(this.annotationPath(row.file))}`,
        `line=${row.line ?? row.row}`,
        `title=${escapeProperty(`row ${row.row} rejected`)}`,
      ];
      this.write(`::error ${properties.join(",")}::${escapeData(`row ${row.row}: ${row.message}`)}`);
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
    const lines: string[] = [`### \`simadmin ${cell(this.title)}\``, ""];
    const said = end.message ? `: ${cell(end.message)}` : "";
    // Whether the exit code is a failure is the error class's to say (errors.ts `failed`):
    // exit 12 (changes pending) is an answer.
    const result =
      end.exitCode === 0
        ? "✅ succeeded"
        : end.failed
          ? `❌ failed (exit ${end.exitCode})${said}`
          : `✅ exit ${end.exitCode}${said}`;
    lines.push("| | |", "|---|---|", `| Result | ${result} |`);
    for (const [label, value] of this.facts) lines.push(`| ${cell(label)} | ${cell(value)} |`);
    if (this.errorsFile) lines.push(`| Errors file | \`${cell(this.errorsFile)}\` |`);
    lines.push("");
    const batches = this.cases.filter((c) => c.name.startsWith("batch "));
    if (batches.length > 0) {
      lines.push("| Batch | Outcome |", "|---|---|");
      for (const batch of batches.slice(0, 50)) lines.push(`| ${cell(batch.name)} | ${cell(batch.failure ?? "ok")} |`);
      if (batches.length > 50) lines.push(`| … | ${batches.length - 50} more |`);
      lines.push("");
    }
    if (this.rejected.length > 0) {
      const shown = this.rejected.slice(0, 20);
      lines.push(
        `**Rejected rows: ${this.rejected.length}**${this.rejected.length > shown.length ? ` (the first ${shown.length})` : ""}`,
        "",
      );
      lines.push("| File | Row | Line | Problem |", "|---|---|---|---|");
      for (const r of shown) lines.push(`| ${cell(r.file)} | ${r.row} | ${r.line ?? ""} | ${cell(r.message)} |`);
      lines.push("");
    }
    return `${lines.join("\n")}\n`;
  }

  private junit(end: RunEnd): string {
    const cases: CiTestCase[] = [
      ...this.cases,
      ...this.rejected.map((r) => ({ name: `${r.file} row ${r.row}`, failure: r.message, file: r.file, line: r.line ?? r.row })),
    ];
    // A run that recorded nothing (or failed before its rows) is one case: the run itself.
    if (cases.length === 0 || (end.failed && cases.every((c) => c.failure === undefined))) {
      cases.push({ name: this.title, ...(end.failed ? { failure: end.message ?? `exit ${end.exitCode}` } : {}) });
    }
    const failures = cases.filter((c) => c.failure !== undefined).length;
    const seconds = ((this.now() - this.started) / 1000).toFixed(3);
    const timestamp = new Date(this.started).toISOString().replace(/\.\d+Z$/, "");
    const suite = escapeXml(`simadmin ${this.title}`);
    const out = [
      `<?xml version="1.0" encoding="UTF-8"?>`,
      `<testsuites name="simadmin" tests="${cases.length}" failures="${failures}" errors="0" time="${seconds}">`,
      `  <testsuite name="${suite}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${seconds}" timestamp="${timestamp}">`,
    ];
    for (const c of cases) {
      const where = c.file === undefined ? "" : ` file="${escapeXml(c.file)}"${c.line === undefined ? "" : ` line="${c.line}"`}`;
      const open = `    <testcase classname="${suite}" name="${escapeXml(c.name)}"${where} time="0"`;
      if (c.failure === undefined) out.push(`${open}/>`);
      else {
        out.push(
          `${open}>`,
          `      <failure message="${escapeXml(c.failure)}" type="rejected">${escapeXml(c.failure)}</failure>`,
          `    </testcase>`,
        );
      }
    }
    out.push("  </testsuite>", "</testsuites>", "");
    return out.join("\n");
  }
}
