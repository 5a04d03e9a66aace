// @ts-nocheck
import { getUserToken } from "../../api/endpoints.js";
import { explainNotFound } from "../shared/access.js";
import { defineRun } from "../types.js";
import { TokenOptions } from "./options.js";

// token --user: a user access token (docs/service-spec.md §4.6). Printing it is this command's purpose; it is
// never written to settings, logs or traces (docs/service-spec.md §5.6: do not store user tokens).

export const run = defineRun(TokenOptions, async ({ options, services, printer }) => {
  const organizationId = await services.org();
  const userId = options.user;
  const api = await services.api();
  const issuedAt = services.clock.now();
  let answer;
  try {
    answer = await getUserToken(api, { organizationId, userId });
  } catch (error) {
    throw explainNotFound(error, { org: organizationId, user: userId });
  }
  const { token, expiresIn } = answer;
  printer.redactor.add(token); // keep it out of --verbose traces and error lines
  const expiresAt = new Date(issuedAt + expiresIn * 1000).toISOString();
  printer.secretOutput = true; // a new --out file is created 0600
  return { kind: "object", value: { userId, token, expiresIn, expiresAt }, text: token };
});
