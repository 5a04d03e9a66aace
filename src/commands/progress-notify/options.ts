import * as z from "zod";
import { UsageError } from "../../errors.js";
import { encodingOption } from "../../domain/csv-input/reader.js";
import { DEFAULT_SCHEDULE, parseSchedule } from "../../domain/reminders/schedule.js";
import { nonEmptyFlag, parsedFlag, switchFlag, usageIssue, wholeNumberFlag } from "../shared/flags.js";

/** Messages a minute handed to the relay by default (docs/reminders.md "Pacing"). */
export const DEFAULT_PER_MINUTE = 300;
/** SMTP connections in the pool by default. */
export const SMTP_CONNECTIONS = 3;

/** smtp:// or smtps:// with a host; the URL is never echoed (it may hold a password). */
export function parseSmtpUrl(text: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`${source} is not a URL`, { hint: "use smtp://user:password@host:587 or smtps://host:465" });
  }
  if ((url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "") {
    throw new UsageError(`${source} must be an smtp:// or smtps:// URL with a host`, {
      hint: "use smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465 (TLS from the start)",
    });
  }
  return url;
}

export const NotifyOptions = z
  .object({
    fromCsv: nonEmptyFlag("--from-csv"),
    smtp: z.string().optional(),
    from: nonEmptyFlag("--from").optional(),
    outbox: nonEmptyFlag("--outbox").optional(),
    schedule: parsedFlag((text) => {
      const parsed = parseSchedule(text);
      if ("problem" in parsed)
        throw new UsageError(`--schedule: ${parsed.problem}`, { hint: "give days relative to the due date, e.g. 7,1,0,-3,-7" });
      return parsed.steps;
    }).optional(),
    digest: nonEmptyFlag("--digest").optional(),
    plan: switchFlag,
    max: wholeNumberFlag("--max", 1).optional(),
    rate: wholeNumberFlag("--rate", 0, 100_000).optional(),
    connections: wholeNumberFlag("--connections", 1, 10).optional(),
    template: nonEmptyFlag("--template").optional(),
    resendAmbiguous: switchFlag,
    refresh: switchFlag,
    encoding: parsedFlag((name) => encodingOption(name)).optional(),
  })
  .superRefine((options, ctx) => {
    if (options.smtp !== undefined && options.outbox !== undefined)
      usageIssue(ctx, "--smtp and --outbox are two deliveries; give one", "--outbox writes .eml files and sends nothing");
    if (options.plan && options.resendAmbiguous) usageIssue(ctx, "--resend-ambiguous sends; it cannot go with --plan");
  })
  .transform(({ schedule, rate, connections, ...rest }) => ({
    ...rest,
    connections: connections ?? SMTP_CONNECTIONS,
    steps: schedule ?? [...DEFAULT_SCHEDULE],
    perMinute: rate ?? DEFAULT_PER_MINUTE,
  }));
export type NotifyOptions = z.output<typeof NotifyOptions>;
