import * as endpoints from "../../api/endpoints.js";
import { createReadStream } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import type { CommandContext } from "../../context.js";
import type { ApiClient } from "../../api/client.js";
import type { WaitEvent } from "../../api/rate/scheduler.js";
import {
  CliError,
  InvalidDataError,
  isErrnoError,
  LocalFileError,
  NotFoundError,
  PermissionError,
  UsageError,
} from "../../errors.js";
import {
  BULK_COLUMNS,
  BULK_MANIFEST_VERSION,
  BulkRowChecker,
  bulkErrorsPath,
  bulkManifestPath,
  decideBulkStart,
  parseBulkManifest,
  planBulk,
  type BulkCommand,
  type BulkHeader,
  type BulkManifest,
  type BulkManifestRow,
  type BulkProblem,
  type BulkRow,
} from "../../domain/bulk-rows.js";
import { composeUserLink } from "../../domain/links.js";
import type { JsonRecord } from "../../domain/records.js";
import { describeRequestPlan } from "../shared/request-plan.js";
import { CsvRecordReader } from "../../domain/csv-input/reader.js";
import { mapHeader } from "../../domain/csv-input/header.js";
import { removeStaleTempFiles, writeFileAtomic } from "../../output/atomic-file.js";
import { CsvRowWriter } from "../../output/csv.js";
import type { CommandOutcome } from "../types.js";
import type { BulkFlags } from "./flags.js";
import { acquireFileLock } from "../../output/file-lock.js";
import { timeLeftText } from "./time-left.js";

// `assign | unassign | link --from-csv <file> [--resume] [--dry-run]` (docs/cli-contract.md
// "Bulk operations"; issue 16 item 1).
//
// 1. The whole file is read and checked first (users-CSV reading rules: UTF-8 with or
//    without BOM, UTF-16 with BOM, another encoding with --encoding, `,` `;` or tab, quoted
//    cells; columns userId,simulationId found by name).
//    Empty ids, short or long rows and repeated pairs stop the run with exit 6 and nothing
//    sent; the problems are the output and go to <file>.errors.csv. --dry-run stops after
//    this and prints the plan.
// 2. A manifest <file>.<command>.json beside the CSV records every finished row (after each
//    row, atomically). Without --resume a manifest of this same file with finished rows is
//    refused (exit 2): a cohort is never assigned or linked twice by accident. --resume
//    sends only the rows it does not record.
// 3. Rows go one after the other through the shared scheduler (it alone decides when, within
//    the access budget shared with concurrent runs; assignment, deep-links and token are safe
//    to repeat, so the usual retries apply). A row the service rejects (400, 404) is recorded
//    as failed and the run goes on. Anything that would fail every following row too (no
//    key, 403, 429 or 5xx after the retries, Ctrl-C) stops the run with its exit code; the
//    finished rows stay in the manifest for --resume.
// 4. link asks one user token per distinct user of the run, not one per row (a token is per
//    user), and never stores one: the manifest keeps the deep link (no token) of a finished
//    row, so --resume prints finished rows with a fresh token of their user — one request
//    per user, no deep-link request repeated.
// 5. Output: one record per row (userId, simulationId, status ok/failed, error, deepLink —
//    or for link the complete link and its expiresAt) in every format; exit 0 when all rows
//    succeeded, 6 when some were rejected — those rows, with their original columns plus
//    `row` and `errors`, in <file>.errors.csv.

interface BulkOptions {
  file: string;
  resume: boolean;
  dryRun: boolean;
  assign: boolean;
  /** --encoding, resolved (undefined: a BOM, else UTF-8). */
  encoding: string | undefined;
}

interface RowOutcome {
  status: "ok" | "failed";
  error: string;
  deepLink?: string | undefined;
}

function readOptions(command: BulkCommand, options: BulkFlags): BulkOptions {
  const file = options.fromCsv ?? "";
  if (options.user !== undefined || options.sim !== undefined) {
    throw new UsageError(`\`${command} --from-csv\` takes the ids from the file: drop --user and --sim`);
  }
  if (file.trim() === "") throw new UsageError("--from-csv needs a file name");
  return {
    file,
    resume: options.resume === true,
    dryRun: options.dryRun === true,
    assign: options.assign === true,
    encoding: options.encoding,
  };
}

interface ReadFile {
  header: BulkHeader;
  rows: BulkRow[];
  problems: BulkProblem[];
  invalidCells: Map<number, string[]>;
  sha256: string;
  /** Each row's physical line (a quoted line break shifts them), for CI annotations. */
  lines: Map<number, number>;
}

async function readBulkFile(path: string, encoding: string | undefined): Promise<ReadFile & { warnings: string[] }> {
  let header: BulkHeader | undefined;
  let checker: BulkRowChecker | undefined;
  const warnings: string[] = [];
  const source = createReadStream(path);
  const reader = new CsvRecordReader(source, { encoding });
  const lines = new Map<number, number>();
  try {
    for await (const { row, line, cells } of reader) {
      lines.set(row, line);
      if (!header) {
        if (cells.every((c) => c.trim() === "")) continue;
        const layout = mapHeader(cells, row, BULK_COLUMNS);
        warnings.push(...layout.warnings);
        header = { userId: layout.positions[0]!, simulationId: layout.positions[1]!, names: layout.columns };
        checker = new BulkRowChecker(header);
        continue;
      }
      checker!.add(cells, row);
    }
  } catch (error) {
    // CsvFileError has a string `code` too: only a system error is a local file error.
    if (!(error instanceof CliError) && isErrnoError(error)) throw LocalFileError.fromSystem(error, path, "read");
    throw error;
  } finally {
    source.destroy();
  }
  warnings.push(...(reader.info.notes ?? []));
  if (!header || !checker) {
    throw new InvalidDataError(`${path} is empty; it needs a header row userId,simulationId and one row per pair`);
  }
  if (checker.rows.length === 0 && checker.problems.length === 0) {
    throw new InvalidDataError(`${path} has a header but no rows; nothing to do`);
  }
  return {
    header,
    rows: checker.rows,
    problems: checker.problems,
    invalidCells: checker.invalidCells,
    sha256: reader.info.sha256 ?? "",
    lines,
    warnings,
  };
}

/** The rejected rows with their original columns plus `row` and `errors` (0600: ids are personal data). */
async function writeErrorsFile(
  path: string,
  header: BulkHeader,
  rejected: { row: number; cells: string[]; errors: string }[],
): Promise<void> {
  // csv-stringify with the formula guard, as every CSV written (output/csv.ts).
  let text = "";
  const csv = new CsvRowWriter(async (chunk) => {
    text += chunk;
  });
  await csv.row([...header.names, "row", "errors"]);
  for (const r of rejected) await csv.row([...header.names.map((_, i) => r.cells[i] ?? ""), r.row, r.errors]);
  await csv.end();
  try {
    await writeFileAtomic(path, text, 0o600);
  } catch (error) {
    throw LocalFileError.fromSystem(error, path, "write");
  }
}

/** One line for a row's error: the service's sentence, without our "label: " prefix. */
function rowError(error: CliError): string {
  return error.message.replace(/^[a-z -]+: /i, "");
}

export async function runBulk(ctx: CommandContext, command: BulkCommand, flags: BulkFlags): Promise<CommandOutcome> {
  const options = readOptions(command, flags);
  const file = await readBulkFile(options.file, options.encoding);
  const errorsPath = bulkErrorsPath(options.file);
  const manifestPath = bulkManifestPath(options.file, command);
  for (const warning of file.warnings) ctx.printer.warn(`${options.file}: ${warning}`);

  const ci = await ctx.printer.ci();
  if (file.problems.length > 0) {
    const byRow = new Map<number, string[]>();
    for (const p of file.problems) byRow.set(p.row, [...(byRow.get(p.row) ?? []), `${p.field}: ${p.message}`]);
    for (const [row, errors] of byRow)
      ci.reject({ file: options.file, row, line: file.lines.get(row), message: errors.join("; ") });
    ci.fact("Rows", `${file.rows.length + byRow.size} (${byRow.size} invalid; nothing was sent)`);
    ci.setErrorsFile(errorsPath);
    await writeErrorsFile(
      errorsPath,
      file.header,
      [...byRow].map(([row, errors]) => ({ row, cells: file.invalidCells.get(row) ?? [], errors: errors.join("; ") })),
    );
    // The invalid rows are the output; then exit 6 (the runner prints, then fails).
    return {
      kind: "records",
      records: file.problems.map((p) => ({ row: p.row, field: p.field, message: p.message })),
      tableColumns: ["row", "field", "message"],
      failure: new InvalidDataError(
        `${options.file}: ${byRow.size} invalid row${byRow.size === 1 ? "" : "s"}; nothing was sent`,
        {
          hint: `fix them (listed above and in ${errorsPath}) and run the command again`,
        },
      ),
    };
  }

  // link rows carry user tokens: a new --out file is created 0600 ("Output files").
  if (command === "link") ctx.printer.secretOutput = true;
  const settings = await ctx.services.settings();
  const organizationId = await ctx.services.org();
  // --sandbox gets a new port each run but keeps its state: it is one service for --resume.
  const baseUrl = ctx.services.globals.sandbox ? "sandbox" : (settings.baseUrl ?? "");
  let existing: BulkManifest | undefined | "unreadable";
  try {
    const text = await readFile(manifestPath, "utf8");
    existing = parseBulkManifest(text) ?? "unreadable";
  } catch (error) {
    if (!(isErrnoError(error) && error.code === "ENOENT")) throw LocalFileError.fromSystem(error, manifestPath, "read");
  }
  const start = decideBulkStart(
    existing,
    { command, sha256: file.sha256, organizationId, baseUrl, assign: options.assign },
    options.resume,
    manifestPath,
  );
  if (start.kind === "refuse") throw new UsageError(start.message, { hint: start.hint });
  const now = (): string => new Date(ctx.services.clock.now()).toISOString();
  const manifest: BulkManifest =
    start.kind === "resume"
      ? start.manifest
      : {
          version: BULK_MANIFEST_VERSION,
          command,
          sha256: file.sha256,
          organizationId,
          baseUrl,
          ...(command === "link" ? { assign: options.assign } : {}),
          startedAt: now(),
          updatedAt: now(),
          rows: {},
        };
  const finished = new Set(file.rows.filter((r) => manifest.rows[String(r.row)] !== undefined).map((r) => r.row));
  const plan = planBulk(command, file.rows, finished);

  if (options.dryRun) {
    const requests = describeRequestPlan({ requests: { access: plan.requests } }, await ctx.services.rateLimits());
    return {
      kind: "object",
      value: {
        command: options.assign && command === "link" ? "link --assign" : command,
        file: options.file,
        rows: plan.rows,
        users: plan.users,
        simulations: plan.simulations,
        alreadyDone: plan.finished,
        requests: plan.requests,
        leastSeconds: requests.value.leastSeconds,
        manifest: manifestPath,
      },
      note: `dry run: nothing was sent; the run ${requests.text}`,
    };
  }

  // The users-import lock (docs/cli-contract.md "Concurrency"): one run per file and command.
  const lock = await acquireFileLock(`${manifestPath}.lock`, {
    what: `\`${command} --from-csv ${options.file}\``,
    command,
    now: () => ctx.services.clock.now(),
  });
  try {
    return await new BulkRun(ctx, command, options, file, manifest, manifestPath, errorsPath, plan.requests).execute();
  } finally {
    await lock.release();
  }
}

class BulkRun {
  private client!: ApiClient;
  private readonly tokens = new Map<string, { token: string; expiresAt: string } | { error: string }>();
  private sent = 0;
  private done = 0;
  private failures = 0;
  private readonly startedAt: number;
  private waitUntil: number | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly command: BulkCommand,
    private readonly options: BulkOptions,
    private readonly file: ReadFile,
    private readonly manifest: BulkManifest,
    private readonly manifestPath: string,
    private readonly errorsPath: string,
    private readonly requests: number,
  ) {
    this.startedAt = ctx.services.clock.now();
  }

  async execute(): Promise<CommandOutcome> {
    const { ctx, file, manifest } = this;
    this.client = await ctx.services.api();
    const progress = await ctx.printer.progress();
    const live = (): void => progress.update(this.progressText());
    const stopListening = ctx.services.onWait((event: WaitEvent) => {
      this.waitUntil = ctx.services.clock.now() + event.waitMs;
      live();
    });
    const already = file.rows.filter((r) => manifest.rows[String(r.row)] !== undefined).length;
    if (already > 0) ctx.printer.info(`resuming: ${already} of ${file.rows.length} rows already done (${this.manifestPath})`);
    this.done = already;
    this.failures = file.rows.filter((r) => manifest.rows[String(r.row)]?.status === "failed").length;
    try {
      await this.saveManifest();
      for (const row of file.rows) {
        if (manifest.rows[String(row.row)] !== undefined) continue;
        live();
        const outcome = await this.sendRow(row);
        manifest.rows[String(row.row)] = {
          status: outcome.status,
          ...(outcome.error ? { error: outcome.error } : {}),
          ...(outcome.deepLink !== undefined ? { deepLink: outcome.deepLink } : {}),
          at: new Date(ctx.services.clock.now()).toISOString(),
        } satisfies BulkManifestRow;
        this.done++;
        if (outcome.status === "failed") this.failures++;
        await this.saveManifest();
      }
      // link: finished rows of an earlier run need their user's token too (never stored).
      if (this.command === "link") {
        for (const row of file.rows) {
          if (manifest.rows[String(row.row)]?.status === "ok") await this.tokenFor(row.userId);
        }
      }
    } catch (error) {
      progress.done();
      if (error instanceof CliError && !(error instanceof UsageError)) {
        const left = file.rows.length - this.done;
        ctx.printer.info(
          `stopped after ${this.done} of ${file.rows.length} rows (${left} left, recorded in ${this.manifestPath}); run the same command with --resume to continue`,
        );
      }
      throw error;
    } finally {
      stopListening();
    }
    progress.done(`${this.command}: ${file.rows.length} rows, ${file.rows.length - this.failures} ok, ${this.failures} failed`);
    return this.finish();
  }

  private progressText(): string {
    const total = this.file.rows.length;
    const parts = [`${this.command} ${this.done}/${total} rows`, `${this.failures} failed`];
    const now = this.ctx.services.clock.now();
    if (this.waitUntil !== undefined && this.waitUntil > now) {
      parts.push(`next request in ${Math.ceil((this.waitUntil - now) / 1000)} s`);
    }
    const left = this.requests - this.sent;
    if (this.sent > 0 && left > 0) {
      const eta = ((now - this.startedAt) / this.sent) * left;
      const timeLeft = timeLeftText(eta);
      if (timeLeft) parts.push(timeLeft);
    }
    return parts.join(" · ");
  }

  /** One row's request; a rejection (400, 404) is the row's outcome, anything else stops the run. */
  private async sendRow(row: BulkRow): Promise<RowOutcome> {
    const ref = { organizationId: this.manifest.organizationId, userId: row.userId, simulationId: row.simulationId };
    try {
      this.sent++;
      switch (this.command) {
        case "assign": {
          const answer = await endpoints.assignSimulation(this.client, ref);
          if (!answer.success) return { status: "failed", error: "the service answered success=false" };
          return { status: "ok", error: "", deepLink: answer.deepLink };
        }
        case "unassign": {
          const answer = await endpoints.unassignSimulation(this.client, ref);
          if (answer === false || (answer && typeof answer === "object" && (answer as JsonRecord).success === false)) {
            return { status: "failed", error: "the service did not confirm (success=false)" };
          }
          return { status: "ok", error: "" };
        }
        case "link": {
          const deepLink = this.options.assign
            ? (await endpoints.assignSimulation(this.client, ref)).deepLink
            : await endpoints.getDeepLink(this.client, ref);
          const token = await this.tokenFor(row.userId);
          if ("error" in token) return { status: "failed", error: `user token: ${token.error}`, deepLink };
          return { status: "ok", error: "", deepLink };
        }
      }
    } catch (error) {
      if (isRowRejection(error)) return { status: "failed", error: rowError(error) };
      throw error;
    }
  }

  /** One token per distinct user per run; a user the service rejects fails that user's rows. */
  private async tokenFor(userId: string): Promise<{ token: string; expiresAt: string } | { error: string }> {
    const known = this.tokens.get(userId);
    if (known) return known;
    let entry: { token: string; expiresAt: string } | { error: string };
    try {
      this.sent++;
      const issuedAt = this.ctx.services.clock.now();
      const { token, expiresIn } = await endpoints.getUserToken(this.client, {
        organizationId: this.manifest.organizationId,
        userId,
      });
      this.ctx.printer.redactor.add(token);
      entry = { token, expiresAt: new Date(issuedAt + expiresIn * 1000).toISOString() };
    } catch (error) {
      if (!isRowRejection(error)) throw error;
      entry = { error: rowError(error) };
    }
    this.tokens.set(userId, entry);
    return entry;
  }

  private swept = false;

  private async saveManifest(): Promise<void> {
    this.manifest.updatedAt = new Date(this.ctx.services.clock.now()).toISOString();
    // Temp manifests of runs killed mid-write (issue 22 item 3), once their pid is gone; we
    // hold the file's lock. A row in flight when a run died is not in the manifest and is
    // sent again by --resume: assign, unassign and link are safe to repeat (docs/import-safety.md).
    if (!this.swept) {
      this.swept = true;
      await removeStaleTempFiles(this.manifestPath);
    }
    try {
      await writeFileAtomic(this.manifestPath, `${JSON.stringify(this.manifest, null, 2)}\n`, 0o600);
    } catch (error) {
      throw LocalFileError.fromSystem(error, this.manifestPath, "write the manifest");
    }
  }

  private async finish(): Promise<CommandOutcome> {
    const { file, manifest, command } = this;
    const ci = await this.ctx.printer.ci();
    const records: JsonRecord[] = [];
    const rejected: { row: number; cells: string[]; errors: string }[] = [];
    for (const row of file.rows) {
      const done = manifest.rows[String(row.row)];
      let status = done?.status ?? "failed";
      let error = done?.error ?? "";
      const record: JsonRecord = { userId: row.userId, simulationId: row.simulationId, status, error };
      if (command === "assign") record.deepLink = done?.deepLink ?? "";
      if (command === "link") {
        const token = this.tokens.get(row.userId);
        if (status === "ok" && token && "token" in token && done?.deepLink) {
          record.link = composeUserLink(done.deepLink, token.token);
          record.expiresAt = token.expiresAt;
        } else {
          if (status === "ok" && token && "error" in token) {
            status = "failed";
            error = `user token: ${token.error}`;
            record.status = status;
            record.error = error;
          }
          record.link = "";
          record.expiresAt = "";
        }
      }
      records.push(record);
      if (status === "failed") rejected.push({ row: row.row, cells: row.cells, errors: error });
      const line = file.lines.get(row.row);
      if (status === "failed") ci.reject({ file: this.options.file, row: row.row, line, message: error });
      else
        ci.testCase({
          name: `${this.options.file} row ${row.row} (${row.userId}, ${row.simulationId})`,
          file: this.options.file,
          line,
        });
    }
    ci.fact("Rows", `${file.rows.length} (${file.rows.length - rejected.length} ok, ${rejected.length} rejected by the service)`);
    if (rejected.length > 0) ci.setErrorsFile(this.errorsPath);
    if (rejected.length > 0) {
      await writeErrorsFile(this.errorsPath, file.header, rejected);
    } else {
      await rm(this.errorsPath, { force: true }).catch(() => undefined);
    }
    const columns = [
      "userId",
      "simulationId",
      "status",
      "error",
      ...(command === "assign" ? ["deepLink"] : command === "link" ? ["link", "expiresAt"] : []),
    ];
    const result = { kind: "records" as const, records, tableColumns: columns, knownFields: columns };
    if (rejected.length > 0) {
      const failure = new InvalidDataError(
        `${rejected.length} of ${file.rows.length} rows were rejected by the service; the others succeeded`,
        { hint: `the rejected rows are in ${this.errorsPath}: fix them and run that file with --from-csv` },
      );
      return { ...result, failure };
    }
    return result;
  }
}

/** What the service says about one row (unknown user or simulation, invalid ids). */
function isRowRejection(error: unknown): error is CliError {
  return error instanceof NotFoundError || (error instanceof InvalidDataError && !(error instanceof PermissionError));
}
