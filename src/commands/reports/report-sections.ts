import type { ReportKind } from "../../api/schemas.js";
import type { CommandContext } from "../../context.js";
import type { CliError } from "../../errors.js";
import type { JsonRecord } from "../../domain/records.js";
import type { SectionsSource } from "../../output/sections.js";
import type { SecretScan } from "../../output/secret-scan.js";
import type { ReportWindows } from "../../engines/reports/windows.js";
import { checkFields } from "./fields-check.js";
import { kindFailureLine, kindOnlyFailure, neverReached } from "./kind-failures.js";
import type { ReportProgress } from "./progress.js";
import type { ReportsPlan } from "./reports-plan.js";

// `reports` as a result in sections, one per kind (docs/cli-contract.md, "Output files",
// report kinds), which the printer's engine writes (output/sections.ts): one kind to stdout
// or --out; `all` as one JSON object keyed by kind, a table per kind, or one workbook with a
// sheet per kind; --out-dir as a file per kind. Here only what is the report's: each kind's
// records as its windows are read (memory holds neither a window nor the output), the API key
// kept out of them, which failures `all` goes on after (kind-failures.ts), --fields checked
// against what the service sent first (fields-check.ts), and the names of files and tables.

export class ReportSections implements SectionsSource {
  /** `reports all`: kinds that failed, each already named on stderr; the run goes on without them. */
  readonly failures: { kind: ReportKind; error: CliError }[] = [];
  readonly names: readonly ReportKind[];
  readonly together: boolean;
  readonly raw: boolean;

  constructor(
    private readonly ctx: CommandContext,
    private readonly reportsPlan: ReportsPlan,
    private readonly windows: ReportWindows,
    private readonly progress: ReportProgress,
    /** Where the CSV writer spools rows (under the settings directory; engines/reports/cache.ts). */
    readonly spoolDir: string | undefined,
  ) {
    this.names = reportsPlan.kinds;
    this.together = reportsPlan.all;
    this.raw = reportsPlan.raw;
  }

  get signal(): AbortSignal {
    return this.ctx.services.signal;
  }

  async *batches(name: string): AsyncGenerator<readonly JsonRecord[]> {
    // The API key echoed inside report data never reaches an export, whatever the format (redact.ts).
    // Where the window's text proves the key absent, the records need no walk (secret-scan.ts).
    const { redactor } = this.ctx.printer;
    const scan = (): SecretScan | undefined => redactor.dataScan();
    for await (const { records, secretsAbsent } of this.windows.batches(name as ReportKind, { raw: this.raw, scan })) {
      yield secretsAbsent ? records : redactor.redactData(records);
    }
  }

  checkFields(name: string): Promise<void> {
    return checkFields(this.reportsPlan, this.windows, name as ReportKind);
  }

  /**
   * `reports all`: one kind that fails does not stop the others (docs/cli-contract.md,
   * Report kinds). Its error is named on stderr at once and the run goes on; a key the
   * service refuses, a usage error, Ctrl-C and bugs still stop everything, and a service
   * that cannot be reached at all leaves the kinds not yet asked for unasked.
   */
  failed(name: string, error: unknown): "skip" | "skip-rest" | undefined {
    const kind = name as ReportKind;
    const failure = kindOnlyFailure(error, this.reportsPlan.all, this.ctx.services.signal.aborted);
    if (!failure) return undefined;
    this.failures.push({ kind, error: failure });
    this.progress.pause();
    this.ctx.printer.say(kindFailureLine(kind, failure));
    return neverReached(failure) ? "skip-rest" : "skip";
  }

  title(name: string): string {
    const { range } = this.reportsPlan;
    return `${name} ${range.startDate}..${range.endDate}`;
  }

  fileName(name: string): string {
    const { range, format } = this.reportsPlan;
    return `${name}_${range.startDate}_${range.endDate}.${format}`;
  }

  emptyNote(name: string): string {
    const { range } = this.reportsPlan;
    return `no records in ${name} for ${range.startDate}..${range.endDate}`;
  }

  /** Notes go above the spinner rather than through it. */
  beforeNote(): void {
    this.progress.pause();
  }
}
