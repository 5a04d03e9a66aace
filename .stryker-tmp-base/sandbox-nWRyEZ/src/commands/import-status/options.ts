// @ts-nocheck
import * as z from "zod";
import { DEFAULT_IMPORT_WAIT_TIMEOUT_MS } from "../shared/import-wait.js";
import { durationFlag, onlyWith, switchFlag, usageIssue } from "../shared/flags.js";

export const ImportStatusOptions = z
  .object({
    /** Each taskId once, trimmed, in the order given. */
    task: z
      .union([z.string(), z.array(z.string())])
      .transform((given) => [...new Set((Array.isArray(given) ? given : [given]).map((t) => t.trim()))])
      .superRefine((ids, ctx) => {
        if (ids.includes("")) usageIssue(ctx, "--task: a taskId cannot be empty");
      }),
    wait: switchFlag,
    waitTimeout: durationFlag("--wait-timeout").optional(),
  })
  .superRefine((options, ctx) => {
    onlyWith(options, ctx, { key: "wait", flag: "--wait" }, [{ key: "waitTimeout", flag: "--wait-timeout" }]);
  })
  .transform(({ waitTimeout, ...rest }) => ({ ...rest, timeoutMs: waitTimeout ?? DEFAULT_IMPORT_WAIT_TIMEOUT_MS }));
