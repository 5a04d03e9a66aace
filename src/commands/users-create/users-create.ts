import type { Context } from "../../context.js";
import { UnexpectedResponseError, UsageError } from "../../errors.js";
import { isPlainObject, type JsonRecord } from "../../domain/records.js";
import { isValidEmailAddress } from "../../domain/users-csv/rows.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOptions } from "../../program.js";
import { refuseTextFormat } from "../shared/access.js";

// users create --email [--first-name] [--last-name] [--team] [--field k=v]… (docs/service-spec.md §4.7,
// version 2 only). The username is the email (the spec demands they are equal), checked
// with the same address rule as the users CSV. A bad --email or --field is a usage error
// (exit 2): it is a flag the user typed, and nothing is sent.
//
// --field sends another user field as a string ("Other optional user fields are accepted.
// Their names … not shown"). It cannot set what this command owns or the service forbids:
// username and email (set from --email), role (only trainees can be created) and
// organizationId (--org). A field that has its own flag may be given either way, not both.

const FORBIDDEN_FIELDS = new Map([
  ["username", "the username is always the --email"],
  ["email", "use --email"],
  ["role", "only trainees can be created"],
  ["organizationid", "use --org"],
]);
const FLAG_FIELDS: Record<string, string> = { firstName: "--first-name", lastName: "--last-name", teamName: "--team" };
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** --field values into request fields; exit 2 for a malformed or forbidden one. */
export function parseFieldFlags(values: readonly string[]): JsonRecord {
  const fields: JsonRecord = {};
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0) throw new UsageError(`--field ${JSON.stringify(value)}: expected key=value, e.g. --field department=Sales`);
    const key = value.slice(0, at).trim();
    if (!FIELD_NAME.test(key))
      throw new UsageError(
        `--field ${JSON.stringify(value)}: ${JSON.stringify(key)} is not a field name (letters, digits, _ . -)`,
      );
    const why = FORBIDDEN_FIELDS.get(key.toLowerCase());
    if (why) throw new UsageError(`--field ${key}: cannot be set with --field (${why})`);
    if (key in fields) throw new UsageError(`--field ${key}: given twice`);
    fields[key] = value.slice(at + 1);
  }
  return fields;
}

/** The user in the create answer (not shown, docs/service-spec.md §4.7): `{user: {…}}`, else the object itself. */
export function userOf(body: unknown): JsonRecord {
  if (isPlainObject(body)) {
    const inner = body.user;
    if (isPlainObject(inner))
      return { ...inner, ...(typeof body.created === "boolean" && !("created" in inner) ? { created: body.created } : {}) };
    return body;
  }
  throw new UnexpectedResponseError("user create: the service answered something unexpected (not an object)");
}

export async function runUsersCreate(ctx: Context, options: CommandOptions): Promise<CommandResult> {
  const email = String(options.email).trim();
  if (!isValidEmailAddress(email)) {
    throw new UsageError(`--email: not a valid email address: ${JSON.stringify(email)}`, {
      hint: "e.g. --email ana.diaz@example.com",
    });
  }
  const extra = parseFieldFlags(Array.isArray(options.field) ? options.field.map(String) : []);
  const request: JsonRecord = {};
  const flagValues: Record<string, unknown> = {
    firstName: options.firstName,
    lastName: options.lastName,
    teamName: options.team,
  };
  for (const [field, value] of Object.entries(flagValues)) {
    if (value === undefined) continue;
    if (field in extra) throw new UsageError(`--field ${field} and ${FLAG_FIELDS[field]} both set ${field}; give one`);
    request[field] = String(value);
  }
  await ctx.requireVersion2("users create");
  await refuseTextFormat(ctx, "users create");
  const organizationId = await ctx.org();
  const [api, { createUser }] = await Promise.all([ctx.api(), import("../../api/endpoints.js")]);
  const body = await createUser(api, { ...extra, ...request, organizationId, email, username: email });
  const user = userOf(body);
  const note =
    user.created === true
      ? `created trainee ${email}`
      : user.created === false
        ? `${email} already existed; the service returned the existing user unchanged`
        : undefined;
  return { kind: "object", value: user, ...(note ? { note } : {}) };
}
