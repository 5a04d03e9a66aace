import type { Context } from "../../context.js";
import { NotFoundError, UsageError } from "../../errors.js";

// Small pieces several commands share: the 404 explanation of the access commands, the
// refusal of -o text where there is no single value, and whole-number flags.

/**
 * A 404 names what the service said was missing when it said so (the sandbox does); the
 * spec shows no error body (§7), so the hint always names the ids we sent — the user sees
 * which of them to check even when the service's answer is bare.
 */
export function explainNotFound(error: unknown, ids: { org: string; user: string; sim?: string }): unknown {
  if (!(error instanceof NotFoundError)) return error;
  const sent = [`--user ${JSON.stringify(ids.user)}`, ...(ids.sim === undefined ? [] : [`--sim ${JSON.stringify(ids.sim)}`])];
  return new NotFoundError(error.message, {
    hint: `check ${sent.join(" and ")} in organization ${JSON.stringify(ids.org)} (--org)`,
    cause: error,
  });
}

/** `-o text` prints one bare value; commands that have none refuse it before sending anything. */
export async function refuseTextFormat(ctx: Context, command: string): Promise<void> {
  // With --query, text prints the query's values (see shared/query.ts).
  if (ctx.globals.query === undefined && (await ctx.format()) === "text") {
    throw new UsageError(`\`${command}\` has no single value to print as text (${await ctx.formatOrigin()})`, {
      hint: "use -o table, json, csv or ndjson",
    });
  }
}

/** A whole number from a flag, within [min, max]; exit 2 naming the flag otherwise. */
export function parseIntegerFlag(value: unknown, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: ${JSON.stringify(String(value))} is not a whole number ${range}`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${flag}: ${text} is out of range; use a whole number ${range}`);
  return n;
}

/**
 * `--user` and `--sim` are required unless `--from-csv` gives the ids (bulk operations,
 * docs/cli-contract.md): commander cannot say "one or the other", so it is checked here.
 */
export function requireIds(options: Record<string, unknown>, command: string, flags: ("user" | "sim")[]): void {
  const missing = flags.filter((flag) => options[flag] === undefined).map((flag) => `--${flag}`);
  if (missing.length > 0) {
    throw new UsageError(`\`${command}\` needs ${missing.join(" and ")} (or --from-csv <file> for many)`);
  }
  for (const flag of ["resume", "dryRun"] as const) {
    if (options[flag] !== undefined) {
      throw new UsageError(`--${flag === "dryRun" ? "dry-run" : flag} goes with --from-csv <file>`);
    }
  }
}
