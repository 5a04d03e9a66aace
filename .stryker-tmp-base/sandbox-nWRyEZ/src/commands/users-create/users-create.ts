// @ts-nocheck
import { createUser } from "../../api/endpoints.js";
import { UnexpectedResponseError } from "../../errors.js";
import { isPlainObject, type JsonRecord } from "../../domain/records.js";
import { defineRun } from "../types.js";
import { UsersCreateOptions } from "./options.js";

// users create --email [--first-name] [--last-name] [--team] [--field k=v]… (docs/service-spec.md §4.7,
// version 2 only). The username is the email (the spec demands they are equal), checked
// with the same address rule as the users CSV. A bad --email or --field is a usage error
// (exit 2): it is a flag the user typed, and nothing is sent.
//
// --field (fields.ts) sends another user field; a field that has its own flag may be given
// either way, not both (options.ts).

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

export const run = defineRun(UsersCreateOptions, async ({ options, services }) => {
  const { email, extra, request } = options;
  const organizationId = await services.org();
  const api = await services.api();
  const body = await createUser(api, { ...extra, ...request, organizationId, email, username: email });
  const user = userOf(body);
  const note =
    user.created === true
      ? `created trainee ${email}`
      : user.created === false
        ? `${email} already existed; the service returned the existing user unchanged`
        : undefined;
  return { kind: "object", value: user, ...(note ? { note } : {}) };
});
