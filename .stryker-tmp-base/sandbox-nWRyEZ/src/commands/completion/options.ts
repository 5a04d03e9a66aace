// @ts-nocheck
import * as z from "zod";
import { parseSince } from "../../domain/simulation-attempts.js";
import { durationFlag, onlyWith, parsedFlag, switchFlag } from "../shared/flags.js";

export const DEFAULT_INTERVAL_MS = 60_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 2 * 3_600_000;

export const CompletionOptions = z
  .object({
    user: z.string(),
    sim: z.string(),
    wait: switchFlag,
    waitTimeout: durationFlag("--wait-timeout").optional(),
    interval: durationFlag("--interval").optional(),
    /** --since as given (for messages) and as epoch milliseconds. */
    since: parsedFlag((text) => ({ text, ms: parseSince(text) })).optional(),
  })
  .superRefine((options, ctx) => {
    onlyWith(options, ctx, { key: "wait", flag: "--wait" }, [
      { key: "interval", flag: "--interval" },
      { key: "waitTimeout", flag: "--wait-timeout" },
    ]);
  })
  .transform(({ interval, waitTimeout, ...rest }) => ({
    ...rest,
    intervalMs: interval ?? DEFAULT_INTERVAL_MS,
    timeoutMs: waitTimeout ?? DEFAULT_WAIT_TIMEOUT_MS,
  }));
