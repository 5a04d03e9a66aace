// @ts-nocheck
import { NotFoundError } from "../../errors.js";

// The 404 explanation the access commands share.

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
