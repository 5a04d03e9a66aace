import { explainNotFound } from "../shared/access.js";
import { validUntilNote } from "../shared/valid-until.js";
import { defineRun } from "../types.js";
import { TokenOptions } from "./options.js";

// token --user: a user access token (docs/service-spec.md §4.6), from the one user-token policy
// (services.userTokens(): redacted, expiry from a clock read before the request). Printing it
// is this command's purpose; it is never written to settings, logs or traces
// (docs/service-spec.md §5.6: do not store user tokens).

export const run = defineRun(TokenOptions, async ({ options, services, printer }) => {
  const organizationId = await services.org();
  const userId = options.user;
  let grant;
  try {
    grant = await services.userTokens().get({ organizationId, userId });
  } catch (error) {
    throw explainNotFound(error, { org: organizationId, user: userId });
  }
  const { token, expiresIn, expiresAt } = grant;
  const note = validUntilNote(printer, expiresAt, services.clock.now());
  return { kind: "object", value: { userId, token, expiresIn, expiresAt }, text: token, ...(note ? { note } : {}) };
});
