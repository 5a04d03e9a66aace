import { CliError, InterruptedError, InvalidDataError, ServiceError, UsageError } from "../../errors.js";
import { formatDuration } from "../../domain/durations.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { readProgressFile } from "../../engines/progress/input.js";
import { dryRunValue } from "../../engines/progress/progress-plan.js";
import { invalidRowsOutcome, prepareCompletionAsking } from "../shared/completion-asking.js";
import { durableLinkMaker, requireLinksUrl, sayNewKey, validityOf } from "../shared/durable-links.js";
import { durablePairLinks } from "./durable-links.js";
import { ProgressOptions } from "./options.js";
import { progressFields, progressTable } from "./records.js";
import { prepareSplit, splitResult } from "./split.js";
import { waitForAll } from "./wait.js";
import { showPath } from "../../messages.js";

// progress --from-csv <file> (docs/cli-contract.md "Progress"). One completion-data
// request per pair not known completed (docs/service-spec.md §4.3, both versions), in the order
// that matters (overdue, due soon, the rest), through the shared scheduler, which alone decides
// when a request goes (access budget, docs/service-spec.md §8): this command never sleeps for the
// budget itself, it only says beforehand how long the budget needs (engines/progress/progress-plan.ts).
// The file, the plan, the requests and the completed pairs remembered between runs: the
// progress engine (src/engines/progress/, shared with `progress notify` through
// ../shared/completion-asking.ts); --wait: wait.ts; the answer: records.ts; --split-by: split.ts.

export const run = defineRun(ProgressOptions, async (ctx): Promise<CommandOutcome> => {
  const { options, services, printer } = ctx;
  const file = await readProgressFile(options.fromCsv, options.encoding);
  for (const warning of file.warnings) printer.notice(`${showPath(options.fromCsv)}: ${warning}`);
  if (file.problems.length > 0) return invalidRowsOutcome(options.fromCsv, file.problems);
  // The record fields are known once the file is read: --fields is checked now, before the
  // service is asked (a --links run mints tokens) or a split file is written.
  if (printer.outputPlan.fields && !options.dryRun) {
    const { checkFields } = await import("../../output/fields-check.js");
    checkFields(printer.outputPlan.fields, progressFields(file, options.links === true));
  }

  const settings = await services.settings();
  if (options.links && settings.apiVersion === 1) {
    throw new UsageError("--links needs API version 2: user tokens do not exist in version 1 (docs/service-spec.md §9)", {
      hint: "drop --links, or use --api-version 2",
    });
  }
  // --durable: no links URL is exit 2 before anything is sent (docs/links.md).
  if (options.durable) await requireLinksUrl(services);
  const split =
    options.splitBy !== undefined ? await prepareSplit(ctx, options.splitBy, options.outDir!, file.header.names) : undefined;

  const asking = await prepareCompletionAsking(ctx, file.rows, options);
  const { progressPlan, progress } = asking;
  const now = asking.startedAt;
  const { results, ordered } = progressPlan;
  if (options.dryRun) {
    return {
      kind: "object",
      value: dryRunValue(options.fromCsv, progressPlan),
      note: `dry run: ${progressPlan.line}; nothing was sent`,
    };
  }
  printer.info(progressPlan.line);
  // The key is read (or made) before the first request, so a state store that cannot give it
  // stops the run before anything is sent.
  const maker = options.durable ? await durableLinkMaker(services, validityOf(options)) : undefined;
  if (maker) sayNewKey(printer, maker);

  const asker = await asking.openAsker();
  let failure: Error | undefined;
  try {
    await asker.sweep(ordered, results);
    if (options.wait) failure = await waitForAll(ctx, asker, results, options.timeoutMs - (services.clock.now() - now));
  } catch (error) {
    progress.stop();
    if (error instanceof InterruptedError || (error instanceof CliError && !(error instanceof UsageError))) {
      printer.info(
        `stopped after asking ${asker.asked} of ${ordered.length} pairs; ${asker.newlyCompleted} newly completed pair${asker.newlyCompleted === 1 ? "" : "s"} kept in the cache (${progressPlan.cached + asker.newlyCompleted} cached in all): run again to ask only the rest`,
      );
    }
    throw error;
  }
  progress.stop();

  const doneAt = services.clock.now();
  const open = [...results.values()].filter((r) => !r.facts?.completed && !r.error);
  const links = maker ? durablePairLinks(maker, open) : options.links ? await asker.links(open) : undefined;
  progress.stop();
  const { table, refused, unsettled } = progressTable(file, {
    results,
    links,
    doneAt,
    apiVersion: settings.apiVersion,
    requests: `${asker.requests} request${asker.requests === 1 ? "" : "s"} in ${formatDuration(Math.max(0, doneAt - now))}`,
  });
  if (unsettled > 0 && !failure) {
    failure = new ServiceError(
      `${unsettled} pair${unsettled === 1 ? "" : "s"} could not be settled: the service's answer could not be read (see the error column); the other pairs are in the output`,
      {
        hint: "run again later: those pairs are asked again; if it persists, report the answer (--verbose shows it)",
      },
    );
  }
  if (refused > 0 && !failure) {
    failure = new InvalidDataError(`${refused} pair${refused === 1 ? "" : "s"} refused by the service (see the error column)`, {
      hint: "check their userId and simulationId in the organization (--org)",
    });
  }
  if (split) {
    const files = splitResult(ctx, split, table);
    return failure ? { ...files, failure } : files;
  }
  return failure ? { ...table, failure } : table;
});
