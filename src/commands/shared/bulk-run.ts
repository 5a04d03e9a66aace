import * as endpoints from "../../api/endpoints.js";
import type { ApiClient } from "../../api/client.js";
import type { WaitEvent } from "../../api/rate/scheduler.js";
import type { CommandContext } from "../../context.js";
import { isItemRejection, rejectionText } from "../../api/rejections.js";
import { CliError, LocalFileError, UsageError } from "../../errors.js";
import type { BulkCommand, BulkManifest, BulkManifestRow, BulkRow } from "../../domain/bulk-rows.js";
import type { JsonRecord } from "../../domain/records.js";
import { removeStaleTempFiles, writeFileAtomic } from "../../output/atomic-file.js";
import type { CommandOutcome } from "../types.js";
import type { BulkFile } from "./bulk-file.js";
import { rowResults, type UserToken } from "./bulk-results.js";
import type { BudgetTimes } from "../../api/rate/least-time.js";
import { showPath } from "../../messages.js";

// Steps 3 and 4 of a bulk run (bulk.ts): the rows sent one after the other through the
// shared scheduler, each recorded in the manifest as it finishes; link's user tokens from
// the one user-token policy (services.userTokens(): one per distinct user, never stored).

export interface BulkOptions {
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

export class BulkRun {
  private client!: ApiClient;
  private readonly tokens = new Map<string, UserToken>();
  private sent = 0;
  private done = 0;
  private failures = 0;
  private readonly startedAt: number;
  private waitUntil: number | undefined;
  private budget!: BudgetTimes;

  constructor(
    private readonly ctx: CommandContext,
    private readonly command: BulkCommand,
    private readonly options: BulkOptions,
    private readonly file: BulkFile,
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
    this.budget = await ctx.services.budget();
    const progress = await ctx.printer.progress();
    const live = (): void => progress.update(this.progressText());
    const stopListening = ctx.services.onWait((event: WaitEvent) => {
      this.waitUntil = ctx.services.clock.now() + event.waitMs;
      live();
    });
    const already = file.rows.filter((r) => manifest.rows[String(r.row)] !== undefined).length;
    if (already > 0)
      ctx.printer.info(`resuming: ${already} of ${file.rows.length} rows already done (${showPath(this.manifestPath)})`);
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
          `stopped after ${this.done} of ${file.rows.length} rows (${left} left, recorded in ${showPath(this.manifestPath)}); run the same command with --resume to continue`,
        );
      }
      throw error;
    } finally {
      stopListening();
    }
    progress.done(`${this.command}: ${file.rows.length} rows, ${file.rows.length - this.failures} ok, ${this.failures} failed`);
    return rowResults(ctx, {
      command: this.command,
      csvPath: this.options.file,
      file,
      manifest,
      errorsPath: this.errorsPath,
      tokens: this.tokens,
    });
  }

  private progressText(): string {
    const total = this.file.rows.length;
    const parts = [`${this.command} ${this.done}/${total} rows`, `${this.failures} failed`];
    const now = this.ctx.services.clock.now();
    if (this.waitUntil !== undefined && this.waitUntil > now) {
      parts.push(`next request in ${this.budget.countdown(this.waitUntil - now)}`);
    }
    const left = this.budget.timeLeftMs("access", {
      sent: this.sent,
      startedAt: this.startedAt,
      now,
      left: this.requests - this.sent,
    });
    const timeLeft = this.budget.timeLeftText(left);
    if (timeLeft) parts.push(timeLeft);
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
      if (isItemRejection(error)) return { status: "failed", error: rejectionText(error) };
      throw error;
    }
  }

  /** One token per distinct user per run; a user the service rejects fails that user's rows. */
  private async tokenFor(userId: string): Promise<UserToken> {
    const known = this.tokens.get(userId);
    if (known) return known;
    let entry: UserToken;
    try {
      this.sent++;
      const { token, expiresAt } = await this.ctx.services
        .userTokens()
        .get({ organizationId: this.manifest.organizationId, userId });
      entry = { token, expiresAt };
    } catch (error) {
      if (!isItemRejection(error)) throw error;
      entry = { error: rejectionText(error) };
    }
    this.tokens.set(userId, entry);
    return entry;
  }

  private swept = false;

  private async saveManifest(): Promise<void> {
    this.manifest.updatedAt = new Date(this.ctx.services.clock.now()).toISOString();
    // Temp manifests of runs killed mid-write, once their pid is gone; we
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
}
