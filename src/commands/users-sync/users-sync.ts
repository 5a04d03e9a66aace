import { checkReadableFile } from "../shared/local-files.js";
import { basename, join } from "node:path";
import type { CommandContext } from "../../context.js";
import { ChangesPendingError, CliError, InterruptedError, InvalidDataError, LocalFileError, UsageError } from "../../errors.js";
import { normalizeBaseUrl } from "../../domain/users-csv/import-manifest.js";
import {
  type Baseline,
  DEFAULT_MAX_DEACTIVATE,
  guardProblem,
  keyOf,
  planSync,
  type SyncedUser,
  type SyncPlan,
} from "../../domain/users-sync/plan.js";
import { readRoster, type Roster, RosterMapError } from "../../domain/users-sync/roster.js";
import type { Cell, JsonRecord } from "../../domain/records.js";
import type { CommandResult } from "../../output/render.js";
import { escapeControlChars } from "../../text/sanitize.js";
import { fitColumns, shellWord, tableHint } from "../../output/table-columns.js";
import { readTableFile } from "../../output/table-file.js";
import { sandboxStateDir } from "../../sandbox/persist.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { UsersImportOptions } from "../users-import/options.js";
import { importUsersFile } from "../users-import/users-import.js";
import { isHeldBatchesError } from "../users-import/held-batches.js";
import { plural, problemLine, showRowLines } from "../users-import/common.js";
import { foldAccepted, loadPlanManifest, planCsv } from "./apply.js";
import { UsersSyncOptions } from "./options.js";
import { planRows, type PlanRecord, SyncState } from "./state.js";

// users sync <roster> (docs/cli-contract.md "Sync"; issue 23; docs/users-sync.md).
//
// A run: settle the last run (its accepted batches enter the baseline; the rest is planned
// again) → read the roster → plan against the baseline → guards → --plan stops (0/12) →
// confirmation on a terminal → the plan as a users CSV through `users import`'s machinery →
// the accepted rows enter the baseline. The sync lock is held from the settling to the end,
// so two runs never interleave; --plan takes none and writes nothing.

const PLAN_FIELDS = ["change", "action", "email", "firstName", "lastName", "teamName", "status", "row", "changed"];
/**
 * The plan table's columns, most wanted first: as many as fit the terminal at their full
 * width (output/table-columns.ts fitColumns), so that an email is never split; the rest are
 * named in one hint line (QA bug 3). Shown in PLAN_FIELDS order.
 */
const PLAN_TABLE_ORDER = ["email", "change", "status", "changed", "teamName", "firstName", "lastName", "action", "row"];
const PROBLEM_COLUMNS = ["row", "field", "message"];

type Options = UsersSyncOptions;

export const run = defineRun(UsersSyncOptions, async ({ options, args, ...ctx }) => {
  const rosterPath = args[0];
  if (rosterPath === undefined || rosterPath.trim() === "")
    throw new UsageError("users sync: the roster file is missing, e.g. `simadmin users sync hr-export.xlsx --plan`");
  const settings = await ctx.services.settings();
  const organizationId = await ctx.services.org();
  if (!options.plan) await ctx.services.api(); // a missing base URL or key stops here, before the lock
  // Under --sandbox the address changes from run to run and the settings directory is a
  // temporary one: the baseline lives beside the sandbox's own kept state instead.
  const sandbox = settings.sources.baseUrl === "sandbox";
  const root = sandbox ? sandboxStateDir(ctx.services.env) : settings.configDir;
  const serviceKey = sandbox ? "sandbox" : normalizeBaseUrl(settings.baseUrl ?? "");
  const state = SyncState.for(root, serviceKey, organizationId);
  await state.ensureDir();
  const lock = options.plan
    ? undefined
    : await (
        await import("../../output/file-lock.js")
      ).acquireFileLock(state.lockPath, {
        what: `a users sync of organization ${organizationId}`,
        command: `simadmin users sync ${rosterPath}`,
        now: () => ctx.services.clock.now(),
      });
  try {
    return await sync(ctx, options, { rosterPath, organizationId, serviceKey, state });
  } finally {
    await lock?.release();
  }
});

interface SyncSetup {
  rosterPath: string;
  organizationId: string;
  serviceKey: string;
  state: SyncState;
}

async function sync(ctx: CommandContext, options: Options, setup: SyncSetup): Promise<CommandOutcome> {
  const { state, organizationId } = setup;
  const nowIso = (): string => new Date(ctx.services.clock.now()).toISOString();
  let baseline = await state.loadBaseline();

  // 1. The last run: what the service accepted of it enters the baseline (a killed run
  //    never got that far); the rest is planned again below.
  const last = await state.loadPlan();
  if (last && options.resume) return resumeLastPlan(ctx, options, setup, baseline, last);
  if (options.resume) {
    throw new UsageError(`--resume: there is no unfinished sync of organization ${organizationId} to resume`, {
      hint: `run \`${followUp(ctx, options, setup.rosterPath)}\` without --resume`,
    });
  }
  let uncertain: SyncedUser[] = [];
  if (last) {
    const manifest = await loadPlanManifest(state);
    const fold = await foldAccepted(ctx, baseline ?? emptyBaseline(setup, nowIso()), last, manifest, {
      ask: !options.plan,
      requireCompleted: false,
      organizationId,
    });
    if (fold.accepted > 0) {
      baseline = fold.baseline;
      ctx.printer.info(`the last run's ${plural(fold.accepted, "accepted row")} entered the baseline`);
    }
    uncertain = fold.uncertain;
    if (uncertain.length > 0)
      ctx.printer.warn(
        `${plural(uncertain.length, "row")} of the last run may have reached the service without a task id (the run was killed or cut off mid-upload): they are planned again; an Add the service then refuses as existing is taken as done`,
      );
    if (fold.left > 0)
      ctx.printer.info(
        `${plural(fold.left, "row")} of the last run did not reach the service or were not accepted (never sent, FAILED, ambiguous or rejected): planned again`,
      );
    if (!options.plan) {
      if (fold.accepted > 0 && baseline) await state.saveBaseline(baseline);
      await state.removePlan();
    }
  }

  // 2. The roster.
  const roster = await loadRoster(ctx, options, setup.rosterPath);
  const name = basename(setup.rosterPath);
  // CI (output/ci-report.ts): invalid roster rows annotated on the roster; rows the service
  // rejects are annotated by the import, on plan.csv (the file it sends).
  const ci = await ctx.printer.ci();
  ci.source(setup.rosterPath, options.encoding);
  for (const invalid of roster.invalid) {
    ci.reject({
      file: setup.rosterPath,
      row: invalid.row,
      message: invalid.problems.map((p) => `${p.field}: ${p.message}`).join("; "),
    });
  }
  ci.fact("Roster", `${plural(roster.users.length, "user")}, ${plural(roster.invalid.length, "invalid row")}`);
  if (roster.invalid.length > 0 && !options.skipInvalid) {
    const failure = new InvalidDataError(
      `${plural(roster.invalid.length, "invalid row")} in ${name}; nothing was sent; fix ${roster.invalid.length === 1 ? "it" : "them"} or pass --skip-invalid to leave those users as they are`,
    );
    const records: JsonRecord[] = roster.invalid.flatMap((r) =>
      r.problems.map((p) => ({ row: p.row, field: p.field, message: p.message })),
    );
    return { kind: "records", records, tableColumns: PROBLEM_COLUMNS, knownFields: PROBLEM_COLUMNS, failure };
  }
  if (roster.invalid.length > 0) {
    ctx.printer.warn(
      `${plural(roster.invalid.length, "invalid row")} in ${name} skipped (--skip-invalid); those users are left as they are`,
    );
    showRowLines(
      ctx,
      roster.invalid.flatMap((r) => r.problems.map((p) => problemLine(p.row, p.field, p.message))),
      undefined,
    );
  }

  // 3. The plan and its guards.
  const plan = planSync(roster.users, baseline, {
    assumeExisting: options.assumeExisting,
    leaveAlone: roster.invalidEmails,
  });
  if (options.assumeExisting && baseline !== undefined)
    ctx.printer.warn("--assume-existing applies to a first run only: a baseline exists, so new users are Add");
  const summary = summaryLine(plan, organizationId, baseline);
  ctx.printer.info(summary);
  const result = planResult(ctx, plan);
  const guard = guardProblem(
    plan,
    { users: roster.users.length, invalid: roster.invalid.length },
    { value: options.maxDeactivate ?? DEFAULT_MAX_DEACTIVATE, explicit: options.maxDeactivate !== undefined },
  );
  if (guard) return { ...result, failure: new InvalidDataError(guard.message, { hint: guard.hint }) };
  if (options.plan) {
    if (plan.rows.length === 0) return { ...result, note: "plan: nothing to do; the roster and the last sync agree" };
    return {
      ...result,
      failure: new ChangesPendingError(`plan: ${plural(plan.rows.length, "change")} pending; nothing was sent`, {
        hint: `run \`${followUp(ctx, options, setup.rosterPath)}\` without --plan to send ${plan.rows.length === 1 ? "it" : "them"}`,
      }),
    };
  }
  if (plan.rows.length === 0) return { ...result, note: "nothing to do: the roster and the last sync agree; nothing was sent" };

  if (ctx.printer.io.stdinIsTTY && !options.yes) {
    ctx.printer.io.stderr.write(`${escapeControlChars(summary)}\n`);
    const { confirm } = await import("../../output/prompt.js");
    if (!(await confirm(ctx.printer.io, `Send ${plural(plan.rows.length, "change")} to ${organizationId}?`))) {
      throw new UsageError("sync cancelled; nothing was sent", { hint: "pass --yes to skip the question" });
    }
  }

  // 4. Send, then move the baseline by what was accepted.
  const addKeys = new Set(plan.rows.filter((r) => r.action === "Add").map((r) => keyOf(r.email)));
  const record: PlanRecord = {
    version: 1,
    createdAt: nowIso(),
    wait: options.wait,
    rows: planRows(plan.rows),
    folded: [],
    foldedRows: 0,
    uncertain: Object.fromEntries(uncertain.filter((u) => addKeys.has(keyOf(u.email))).map((u) => [keyOf(u.email), u])),
  };
  await state.writePlanCsv(planCsv(plan.rows));
  await state.savePlan(record);
  const applied = await applyPlan(ctx, options, setup, baseline, record);
  return { ...result, note: applied.note, ...(applied.failure ? { failure: applied.failure } : {}) };
}

/** Imports plan.csv and folds what the service accepted into the baseline, whatever happened to the import. */
async function applyPlan(
  ctx: CommandContext,
  options: Options,
  setup: SyncSetup,
  baseline: Baseline | undefined,
  record: PlanRecord,
  resume = false,
): Promise<{ note: string; failure: Error | undefined }> {
  const { state, organizationId } = setup;
  let outcome: CommandOutcome | undefined;
  let thrown: unknown;
  try {
    // Through the import's own option schema, so that a flag it gains later takes its
    // default here instead of breaking this call.
    const importOptions = UsersImportOptions.parse({
      skipInvalid: options.skipInvalid,
      wait: options.wait,
      resume,
      resendAmbiguous: resume && options.resendAmbiguous,
      ...(resume && options.markImported ? { markImported: options.markImported.map(String).join(",") } : {}),
      // The sync asked already (or was told not to).
      yes: true,
    });
    outcome = await importUsersFile(ctx, {
      ...importOptions,
      timeoutMs: options.timeoutMs,
      file: state.planCsvPath,
      rerun: `simadmin users sync ${setup.rosterPath}`,
    });
  } catch (error) {
    thrown = error;
  }
  const fold = await foldAccepted(
    ctx,
    baseline ?? emptyBaseline(setup, record.createdAt),
    record,
    await loadPlanManifest(state),
    {
      ask: false,
      requireCompleted: options.wait,
      organizationId,
    },
  );
  if (fold.accepted > 0) await state.saveBaseline(fold.baseline);
  await state.savePlan(fold.plan);
  // The import's next steps name plan.csv and `users import`; a sync's next step is the next sync.
  const next = `the next \`${followUp(ctx, options, setup.rosterPath)}\` sends again what the service did not accept (docs/users-sync.md)`;
  const retold = (error: unknown): unknown =>
    // A held batch's hint names this sync's own ways out (--resume --mark-imported / --resend-ambiguous).
    error instanceof CliError &&
    !(error instanceof InterruptedError) &&
    !(error instanceof LocalFileError) &&
    !isHeldBatchesError(error)
      ? error.rephrase(error.message, next)
      : error;
  if (thrown !== undefined) throw retold(thrown);
  let failure = outcome?.failure === undefined ? undefined : (retold(outcome.failure) as Error);
  if (fold.rejectedExisting > 0) {
    ctx.printer.info(
      `${plural(fold.rejectedExisting, "Add")} refused as existing were sent before in an upload that was cut off: it went through; they are in the baseline`,
    );
    // Only those rejections: the run did what it had to.
    if (fold.rejectedOther === 0 && failure instanceof InvalidDataError) failure = undefined;
  }
  const importNote = outcome && "note" in outcome ? outcome.note : undefined;
  const lines = [importNote, `baseline: ${plural(fold.accepted, "row")} accepted by the service entered it`];
  if (fold.left > 0)
    lines.push(
      `${plural(fold.left, "row")} not accepted (yet): the next sync plans them again; rejected rows are in ${join(state.dir, "plan.errors.csv")}`,
    );
  return { note: lines.filter((l) => l !== undefined).join("\n"), failure };
}

/** --resume: the last plan's batches never sent go out through the import's --resume; the roster is not read. */
async function resumeLastPlan(
  ctx: CommandContext,
  options: Options,
  setup: SyncSetup,
  baseline: Baseline | undefined,
  last: PlanRecord,
): Promise<CommandOutcome> {
  ctx.printer.info(
    `--resume: finishing the plan of ${last.createdAt} (${plural(last.rows.length, "row")}); ${basename(setup.rosterPath)} is not read`,
  );
  const applied = await applyPlan(ctx, options, setup, baseline, last, true);
  const result = planResult(ctx, {
    rows: last.rows,
    counts: { add: 0, update: 0, deactivate: 0, reactivate: 0, unchanged: 0 },
    baselineActive: 0,
    firstRun: false,
  });
  return { ...result, note: applied.note, ...(applied.failure ? { failure: applied.failure } : {}) };
}

async function loadRoster(ctx: CommandContext, options: Options, path: string): Promise<Roster> {
  await checkReadableFile(path);
  const table = await readTableFile(path, { encoding: options.encoding });
  let roster: Roster;
  try {
    roster = readRoster(table, options.map ?? []);
  } catch (error) {
    if (error instanceof RosterMapError) throw new UsageError(`${error.message}; nothing was sent`);
    throw error;
  }
  for (const note of table.info.notes ?? []) ctx.printer.warn(`${basename(path)}: ${note}`);
  for (const warning of roster.warnings) ctx.printer.warn(`${basename(path)}: ${warning}`);
  return roster;
}

function emptyBaseline(setup: SyncSetup, nowIso: string): Baseline {
  return {
    version: 1,
    baseUrl: setup.serviceKey,
    organizationId: setup.organizationId,
    createdAt: nowIso,
    updatedAt: nowIso,
    users: {},
  };
}

function summaryLine(plan: SyncPlan, organizationId: string, baseline: Baseline | undefined): string {
  const c = plan.counts;
  const parts = [
    plural(c.add, "Add"),
    plural(c.update, "Update"),
    `${c.deactivate.toLocaleString("en-US")} to INACTIVE`,
    `${c.reactivate.toLocaleString("en-US")} ACTIVE again`,
    `${c.unchanged.toLocaleString("en-US")} unchanged`,
  ];
  const base =
    baseline === undefined
      ? "first sync: no baseline yet for this service and organization; this run establishes it"
      : `baseline of ${baseline.updatedAt}: ${plural(Object.keys(baseline.users).length, "user")}, ${plan.baselineActive.toLocaleString("en-US")} active`;
  return `plan for organization ${organizationId}: ${parts.join(", ")} (${base})`;
}

type RecordsResult = Extract<CommandResult, { kind: "records" }>;

function planResult(ctx: CommandContext, plan: Pick<SyncPlan, "rows"> & Partial<SyncPlan>): RecordsResult {
  const records: Record<string, Cell>[] = plan.rows.map((r) => ({
    change: r.change,
    action: r.action,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    teamName: r.teamName,
    status: r.status,
    row: r.rosterRow,
    changed: r.changed.join(","),
  }));
  const { format, fields, width } = ctx.printer.plan;
  const { shown, hidden } = fitColumns(PLAN_TABLE_ORDER, records, width ?? 120);
  const tableColumns = PLAN_FIELDS.filter((c) => shown.includes(c));
  if (format === "table" && fields === undefined && records.length > 0 && hidden.length > 0)
    ctx.printer.info(tableHint("plan", { shown: tableColumns, hidden }, width));
  return { kind: "records", records, tableColumns, knownFields: PLAN_FIELDS };
}

/**
 * The command of this run without --plan/--dry-run, every word quoted for the shell, so that
 * the hint can be pasted back as it is (QA bug 1; issue 21's rule for hints): the roster
 * path and every flag that changes what is planned (--map, --encoding, --max-deactivate,
 * --skip-invalid, --assume-existing, --yes) and the global flags that choose the service and
 * the organization. Output flags (-o, --out, --fields, --query, …) are left out: they shape
 * what is printed, not what is sent. Values are written in their parsed form (`--map
 * firstName=First Name`, `--max-deactivate 10%`), which parses to the same options.
 */
function followUp(ctx: CommandContext, options: Options, rosterPath: string): string {
  const words: string[] = ["simadmin"];
  const g = ctx.services.globals;
  if (g.profile !== undefined) words.push("--profile", g.profile);
  if (g.sandbox === true) words.push("--sandbox");
  if (g.baseUrl !== undefined) words.push("--base-url", g.baseUrl);
  if (g.org !== undefined) words.push("--org", g.org);
  if (g.apiVersion !== undefined) words.push("--api-version", g.apiVersion);
  if (g.timeout !== undefined) words.push("--timeout", g.timeout);
  if (g.retries !== undefined) words.push("--retries", g.retries);
  // A path starting with "-" would be read as a flag: ./ keeps it a path.
  words.push("users", "sync", rosterPath.startsWith("-") ? `./${rosterPath}` : rosterPath);
  for (const [column, header] of options.map ?? []) words.push("--map", `${column}=${header}`);
  if (options.encoding !== undefined) words.push("--encoding", options.encoding);
  const limit = options.maxDeactivate;
  if (limit !== undefined) words.push("--max-deactivate", limit.kind === "percent" ? `${limit.value}%` : String(limit.value));
  if (options.skipInvalid) words.push("--skip-invalid");
  if (options.assumeExisting) words.push("--assume-existing");
  if (options.yes) words.push("--yes");
  return words.map(shellWord).join(" ");
}
