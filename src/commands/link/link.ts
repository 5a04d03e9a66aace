import * as endpoints from "../../api/endpoints.js";
import { composeUserLink } from "../../domain/links.js";
import { explainNotFound } from "../shared/access.js";
import { validUntilNote } from "../shared/valid-until.js";
import { defineRun } from "../types.js";
import { LinkOptions } from "./options.js";

// link --user --sim [--assign]: the complete link a user opens (docs/service-spec.md §1 steps 2–4): a deep
// link — from deep-links (§4.2), or with --assign from the assignment (§4.5) — plus a fresh
// user token (§4.6, services.userTokens()) as the `token` query parameter.
//
// Version 1: deep-links exists there, but user/token does not (docs/service-spec.md §9.2), and a link
// without a token does not admit the user. So `link` needs version 2 with or without
// --assign (command.ts declares it; the runner refuses before anything is sent).

export const run = defineRun(LinkOptions, async ({ options, services, printer }) => {
  if (options.fromCsv !== undefined && options.durable)
    return (await import("./durable-csv.js")).runDurableCsv({ services, printer }, options);
  if (options.fromCsv !== undefined) return (await import("../shared/bulk.js")).runBulk({ services, printer }, "link", options);
  if (options.durable) return (await import("./durable.js")).runDurable({ services, printer }, options);
  const { assign } = options;
  // Both given: the option schema requires them unless --from-csv is.
  const userId = options.user!;
  const simulationId = options.sim!;
  const organizationId = await services.org();
  const ref = { organizationId, userId, simulationId };
  const api = await services.api();

  let deepLink: string;
  let grant;
  try {
    deepLink = assign ? (await endpoints.assignSimulation(api, ref)).deepLink : await endpoints.getDeepLink(api, ref);
    grant = await services.userTokens().get({ organizationId, userId });
  } catch (error) {
    throw explainNotFound(error, { org: organizationId, user: userId, sim: simulationId });
  }
  const link = composeUserLink(deepLink, grant.token);
  const { expiresAt } = grant;
  const note = validUntilNote(printer, expiresAt, services.clock.now());
  return { kind: "object", value: { userId, simulationId, link, deepLink, expiresAt }, text: link, ...(note ? { note } : {}) };
});
