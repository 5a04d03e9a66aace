// @ts-nocheck
import * as z from "zod";
import { UsageError } from "../../errors.js";
import { isValidEmailAddress } from "../../domain/users-csv/rows.js";
import { parsedFlag, usageIssue } from "../shared/flags.js";
import { parseFieldFlags } from "./fields.js";

const FLAG_FIELDS = { firstName: "--first-name", lastName: "--last-name", teamName: "--team" } as const;

export const UsersCreateOptions = z
  .object({
    email: parsedFlag((raw) => {
      const email = raw.trim();
      if (!isValidEmailAddress(email)) {
        throw new UsageError(`--email: not a valid email address: ${JSON.stringify(email)}`, {
          hint: "e.g. --email ana.diaz@example.com",
        });
      }
      return email;
    }),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    team: z.string().optional(),
    /** --field key=value…, as request fields. */
    field: z
      .array(z.string())
      .default([])
      .transform((values, ctx) => fieldsOf(values, ctx)),
  })
  .transform(({ firstName, lastName, team, ...rest }, ctx) => {
    const given = { firstName, lastName, teamName: team };
    const request: Record<string, string> = {};
    for (const [field, value] of Object.entries(given)) {
      if (value === undefined) continue;
      if (field in rest.field) {
        usageIssue(ctx, `--field ${field} and ${FLAG_FIELDS[field as keyof typeof FLAG_FIELDS]} both set ${field}; give one`);
        return z.NEVER;
      }
      request[field] = value;
    }
    return { email: rest.email, extra: rest.field, request };
  });

function fieldsOf(values: string[], ctx: z.RefinementCtx): ReturnType<typeof parseFieldFlags> {
  try {
    return parseFieldFlags(values);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usageIssue(ctx, error.message, error.hint);
    return z.NEVER;
  }
}
