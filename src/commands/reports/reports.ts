import { join } from "node:path";
import type { ReportKind } from "../../api/schemas.js";
import type { CommandContext } from "../../context.js";
import { CliError } from "../../errors.js";
import type { StreamTarget } from "../../printer.js";
import { defineRun, type CommandOutcome } from "../types.js";
import type { RateLimits } from "../../api/rate/limits.js";
import { noteInterrupt } from "../shared/interrupt.js";
import { describeRequestPlan } from "../shared/request-plan.js";
import { keyFingerprint, openSpoolDir, ReportCache, type CacheIdentity } from "../../engines/reports/cache.js";
import { ReportsOptions } from "./options.js";
import { ReportSections } from "./report-sections.js";
import { planReports, type ReportsPlan } from "./reports-plan.js";
import { ReportProgress } from "./progress.js";
import { ReportWindows } from "../../engines/reports/windows.js";
import { showPath } from "../../messages.js";
import { boundYoungGeneration } from "../shared/young-generation.js";

// `simadmin reports <kind>|all` (docs/cli-contract.md "Dates", "Records of unknown shape").
//
// reports-plan.ts decides (kinds, range, windows, checks) before anything is sent; windows.ts
// fetches a range of any length as windows of at most 30 days, each streamed to a window
// file and read back batch by batch; report-sections.ts hands each kind's records to the
// printer's output engine (output/sections.ts), which writes them by the output plan;
// progress.ts draws the spinner. The run returns a streamed result the runner prints like
// any other (printer.ts).
//
// Unattended runs (cron): the output file is written atomically, one per kind with
// --out-dir; the window files stay until the whole run succeeds, so a run that fails at
// window 9 of 13 is finished by running the same command again — it says "resuming" and
// fetches only what is missing.

/**
 * Which failure decides `reports all`'s exit code when several kinds fail:
 * the one most likely to need a person first — a bug, the key, the permission, a local file,
 * the service down, the rate limit — then the ones that concern a single kind.
 */
const SEVERITY = [1, 3, 4, 11, 8, 7, 9, 10, 5, 6];

function severity(code: number): number {
  const rank = SEVERITY.indexOf(code);
  return rank < 0 ? SEVERITY.length : rank;
}

/** `reports all` with kinds missing: the most severe exit code met, said at the end. */
class MissingKindsError extends CliError {
  constructor(
    readonly exitCode: number,
    message: string,
    hint: string,
  ) {
    super(message, { hint });
  }
}

export const run = defineRun(ReportsOptions, async ({ options, args, ...ctx }) => {
  const reportsPlan = await planReports(options, args, ctx.printer.outputPlan, ctx.services.clock);
  if (options.dryRun) return dryRun(reportsPlan, await ctx.services.rateLimits());
  return { kind: "stream", write: (target) => runReports(ctx, reportsPlan, target) };
});

/** --dry-run: what the run would ask for — one request per kind and window (windows left in the cache by a failed run are not counted). */
function dryRun(reportsPlan: ReportsPlan, limits: RateLimits): CommandOutcome {
  const requests = describeRequestPlan({ requests: { reports: reportsPlan.kinds.length * reportsPlan.windows.length } }, limits);
  const { startDate, endDate } = reportsPlan.range;
  return {
    kind: "object",
    value: {
      kinds: reportsPlan.kinds,
      from: startDate,
      to: endDate,
      windows: reportsPlan.windows.length,
      requests: reportsPlan.kinds.length * reportsPlan.windows.length,
      budget: requests.value.requests.reports?.budget ?? null,
      leastSeconds: requests.value.leastSeconds,
    },
    note:
      `dry run: nothing was sent; ${reportsPlan.kinds.length === 1 ? reportsPlan.kinds[0] : `${reportsPlan.kinds.length} kinds`} ` +
      `from ${startDate} to ${endDate} in ${reportsPlan.windows.length} window${reportsPlan.windows.length === 1 ? "" : "s"} ${requests.text}`,
  };
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOTDIR" || code === "EEXIST") return "not a directory";
  return error instanceof Error ? error.message : String(error);
}

/** A cache dir that cannot be created is no reason to fail the export: warn, use a temp dir. */
async function openCache(ctx: CommandContext, configDir: string, identity: CacheIdentity): Promise<ReportCache> {
  const now = (): number => ctx.services.clock.now();
  try {
    return await ReportCache.open(join(configDir, "report-cache"), identity, now);
  } catch (error) {
    ctx.printer.warn(`resume cache unavailable in ${showPath(configDir)} (${describeFsError(error)}): a failed run will start over`);
    return ReportCache.temporary(identity, now);
  }
}

const MISSING_HINT = "run the same command again to fetch the missing kinds (finished windows come from the cache)";

/**
 * `reports all: 1 of 7 kinds failed (syms-result) and 6 were not attempted (…): the service
 * could not be reached; nothing was written` — each kind named once, counts that add up.
 */
export function missingKindsMessage(kinds: number, failed: readonly { kind: string }[], notAttempted: readonly string[]): string {
  const written = kinds - failed.length - notAttempted.length;
  const names = (list: readonly string[]): string => list.join(", ");
  const parts = [`${failed.length} of ${kinds} kinds failed (${names(failed.map((f) => f.kind))})`];
  if (notAttempted.length > 0) {
    parts.push(
      `${notAttempted.length} ${notAttempted.length === 1 ? "was" : "were"} not attempted because the service could not be reached (${names(notAttempted)})`,
    );
  }
  const tail = written === 0 ? "nothing was written" : `${written} ${written === 1 ? "kind was" : "kinds were"} written`;
  return `reports all: ${parts.join(" and ")}; ${tail}`;
}

async function runReports(ctx: CommandContext, reportsPlan: ReportsPlan, target: StreamTarget): Promise<void> {
  const { services, printer } = ctx;
  const client = await services.api();
  const settings = await services.settings();
  if (reportsPlan.range.note) printer.info(reportsPlan.range.note);

  const cache = await openCache(ctx, settings.configDir, {
    baseUrl: settings.baseUrl ?? "",
    apiVersion: settings.apiVersion,
    keyFingerprint: keyFingerprint(settings.apiKey ?? ""),
  });
  let spoolDir: string | undefined;
  if (cache.persistent && reportsPlan.format === "csv" && !reportsPlan.outputPlan.fields) {
    try {
      const spool = await openSpoolDir(settings.configDir, () => services.clock.now());
      spoolDir = spool.dir;
      services.addCleanup(() => spool.remove());
    } catch {
      // The cache directory was just created there; should this fail, the OS temp dir serves.
    }
  }
  const interruptNote = cache.persistent
    ? "the windows fetched so far are kept (24 h): run the same command again to resume from them"
    : "nothing was kept (no resume cache): the same command starts over";
  const windows = new ReportWindows(client, cache, reportsPlan.windows, services.signal);
  const total = reportsPlan.kinds.length * reportsPlan.windows.length;
  const cached = await windows.findCached(reportsPlan.kinds);
  if (cached > 0) printer.info(`resuming: ${cached} of ${total} windows from cache`);

  const progress = new ReportProgress(
    await printer.progress(),
    services.clock,
    total - cached,
    total,
    !printer.quiet && printer.io.stderrIsTTY,
    await services.budget(),
  );
  windows.report(progress);
  const stopListening = services.onWait((event) => {
    if (event.group === "reports") progress.waiting(event);
  });
  const sections = new ReportSections(ctx, reportsPlan, windows, progress, spoolDir);
  let notAttempted: string[];
  const unbound = boundYoungGeneration();
  const clear = async (kinds: readonly ReportKind[]): Promise<void> => {
    for (const kind of kinds) for (const window of reportsPlan.windows) await cache.remove(kind, window);
    await cache.dispose();
  };
  try {
    notAttempted = await target.writeSections(sections);
  } catch (error) {
    progress.stop();
    // A throw-away directory cannot serve a resume: it goes. The real cache stays.
    if (!cache.persistent) await cache.dispose();
    throw noteInterrupt(error, services.signal, interruptNote);
  } finally {
    unbound();
    stopListening();
  }
  const failed = sections.failures;
  if (failed.length > 0) {
    progress.stop();
    // Every kind keeps its windows, the written ones too: the rerun MISSING_HINT promises
    // writes all the kinds again (one workbook, or --out-dir's set of files) and must take
    // the written ones from the cache, fetching only the missing kinds (docs/report-exports.md
    // "Resume"). They age out after 24 h like any window.
    await cache.dispose();
    const worst = failed.reduce((a, b) => (severity(b.error.exitCode) < severity(a.error.exitCode) ? b : a));
    const hint = notAttempted.length > 0 ? `check --base-url and your network, then ${MISSING_HINT}` : MISSING_HINT;
    throw new MissingKindsError(worst.error.exitCode, missingKindsMessage(reportsPlan.kinds.length, failed, notAttempted), hint);
  }
  progress.stop(total > 1 ? `${total} report windows done` : undefined);
  await clear(reportsPlan.kinds);
}
