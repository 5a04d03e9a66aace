// @ts-nocheck
import * as z from "zod";
import { UsageError } from "../../errors.js";
import { encodingOption } from "../../domain/csv-input/reader.js";
import { parsePositiveDuration } from "../../domain/durations.js";

// Building blocks of the per-command option schemas (`src/commands/<name>/options.ts`).
// Commander hands every value over as a string (arrays for repeatable flags, true for
// switches); these turn them into typed values. A bad value becomes a zod issue carrying
// the same message (and next step, in `params.hint`) the flag has always had; the runner
// turns the first issue into a usage error (exit 2) before anything is sent.

/** The issue the runner reports: `error: <message>; <hint>`. */
export function usageIssue(ctx: z.RefinementCtx, message: string, hint?: string): void {
  ctx.addIssue({ code: "custom", message, ...(hint === undefined ? {} : { params: { hint } }) });
}

/** A string flag parsed by `parse`, whose UsageError (message and hint) becomes the issue. */
export function parsedFlag<T>(parse: (text: string) => T): z.ZodPipe<z.ZodString, z.ZodTransform<Awaited<T>, string>> {
  return z.string().transform((text, ctx) => {
    try {
      return parse(text) as Awaited<T>;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      usageIssue(ctx, error.message, error.hint);
      return z.NEVER;
    }
  });
}

/** A positive duration (`90s`, `5m`, `1h30m`) in milliseconds. */
export const durationFlag = (flag: string) => parsedFlag((text) => parsePositiveDuration(text, flag));

/** A whole number within [min, max]; exit 2 naming the flag otherwise. */
export function wholeNumberFlag(flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return parsedFlag((value) => {
    const text = value.trim();
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: ${JSON.stringify(value)} is not a whole number ${range}`);
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new UsageError(`${flag}: ${text} is out of range; use a whole number ${range}`);
    return n;
  });
}

/** A text flag that may not be empty or blank. */
export const nonEmptyFlag = (flag: string) =>
  z.string().refine((text) => text.trim() !== "", { message: `${flag} needs a non-empty value` });

/** A switch: true when given. */
export const switchFlag = z
  .boolean()
  .optional()
  .transform((on) => on === true);

/**
 * "--x applies only with --y": for each flag (option key → its name on the command line)
 * given without its companion switch.
 */
export function onlyWith(
  options: Record<string, unknown>,
  ctx: z.RefinementCtx,
  companion: { key: string; flag: string },
  dependents: readonly { key: string; flag: string }[],
): void {
  if (options[companion.key] === true) return;
  const given = dependents.find((d) => options[d.key] !== undefined);
  if (given) {
    usageIssue(ctx, `${given.flag} applies only with ${companion.flag}`, `add ${companion.flag}, or drop ${given.flag}`);
  }
}

/** The schema of a command without flags of its own. */
export const NoOptions = z.object({});

/** `--user`/`--sim`, or `--from-csv <file>` for many (assign, unassign, link: bulk operations). */
export const IdsOrCsv = {
  user: z.string().optional(),
  sim: z.string().optional(),
  fromCsv: z.string().optional(),
  resume: z.boolean().optional(),
  dryRun: z.boolean().optional(),
  /** --encoding of the --from-csv file, resolved to its WHATWG name (users-CSV reading rules). */
  encoding: parsedFlag((name) => encodingOption(name)).optional(),
};

/** The options of a bulk run (`--from-csv`), as IdsOrCsv parses them. */
export type BulkFlags = z.output<z.ZodObject<typeof IdsOrCsv>> & { assign?: boolean | undefined };

/**
 * `--user` and `--sim` are required unless `--from-csv` gives the ids (docs/cli-contract.md,
 * bulk operations); `--resume` and `--dry-run` go with `--from-csv` only.
 */
export function idsOrCsv(
  options: {
    user?: string | undefined;
    sim?: string | undefined;
    fromCsv?: string | undefined;
    resume?: boolean | undefined;
    dryRun?: boolean | undefined;
    encoding?: string | undefined;
  },
  ctx: z.RefinementCtx,
  command: string,
): void {
  if (options.fromCsv !== undefined) return;
  const missing = (["user", "sim"] as const).filter((flag) => options[flag] === undefined).map((flag) => `--${flag}`);
  if (missing.length > 0) {
    usageIssue(ctx, `\`${command}\` needs ${missing.join(" and ")} (or --from-csv <file> for many)`);
    return;
  }
  const flagNames = { resume: "--resume", dryRun: "--dry-run", encoding: "--encoding" } as const;
  for (const flag of ["resume", "dryRun", "encoding"] as const) {
    if (options[flag] !== undefined) usageIssue(ctx, `${flagNames[flag]} goes with --from-csv <file>`);
  }
}
