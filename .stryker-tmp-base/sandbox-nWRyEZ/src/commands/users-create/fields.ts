// @ts-nocheck
import { UsageError } from "../../errors.js";
import type { JsonRecord } from "../../domain/records.js";

// --field key=value of `users create`: another user field sent as a string ("Other optional
// user fields are accepted. Their names … not shown", docs/service-spec.md §4.7). It cannot
// set what this command owns or the service forbids: username and email (set from
// --email), role (only trainees can be created) and organizationId (--org).

const FORBIDDEN_FIELDS = new Map([
  ["username", "the username is always the --email"],
  ["email", "use --email"],
  ["role", "only trainees can be created"],
  ["organizationid", "use --org"],
]);
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
