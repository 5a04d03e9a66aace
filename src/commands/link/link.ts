import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { composeUserLink } from "../../domain/links.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOptions } from "../../program.js";
import { explainNotFound, requireIds } from "../shared/access.js";

// link --user --sim [--assign]: the complete link a user opens (docs/service-spec.md §1 steps 2–4): a deep
// link — from deep-links (§4.2), or with --assign from the assignment (§4.5) — plus a fresh
// user token (§4.6) as the `token` query parameter.
//
// Version 1: deep-links exists there, but user/token does not (docs/service-spec.md §9.2), and a link
// without a token does not admit the user. So `link` needs version 2 with or without
// --assign, and says so before sending anything — rather than fetching a deep link under v1
// and then failing half-way.

export async function runLink(ctx: Context, options: CommandOptions): Promise<CommandResult> {
  if (options.fromCsv !== undefined) return (await import("../bulk/bulk.js")).runBulk(ctx, "link", options);
  requireIds(options, "link", ["user", "sim"]);
  const assign = options.assign === true;
  const { apiVersion } = await ctx.settings();
  if (apiVersion !== 2) {
    throw new UsageError(
      `\`link${assign ? " --assign" : ""}\` needs API version 2: ${assign ? "the assignment and the user token exist" : "the user token (user/token) exists"} only in version 2`,
      {
        hint: "drop --api-version 1 (or SIMADMIN_API_VERSION / the profile's apiVersion); the deep link alone is not usable without a token",
      },
    );
  }
  const organizationId = await ctx.org();
  const userId = String(options.user);
  const simulationId = String(options.sim);
  const ref = { organizationId, userId, simulationId };
  const [api, endpoints] = await Promise.all([ctx.api(), import("../../api/endpoints.js")]);

  let deepLink: string;
  let issuedAt: number;
  let token: string;
  let expiresIn: number;
  try {
    deepLink = assign ? (await endpoints.assignSimulation(api, ref)).deepLink : await endpoints.getDeepLink(api, ref);
    // The token's clock starts before the request: expiresAt errs early, never late.
    issuedAt = ctx.clock.now();
    ({ token, expiresIn } = await endpoints.getUserToken(api, { organizationId, userId }));
  } catch (error) {
    throw explainNotFound(error, { org: organizationId, user: userId, sim: simulationId });
  }
  ctx.redactor.add(token); // the link carries it too (encoded): kept out of traces and errors
  const link = composeUserLink(deepLink, token);
  const expiresAt = new Date(issuedAt + expiresIn * 1000).toISOString();
  ctx.secretOutput = true; // a new --out file is created 0600
  return { kind: "object", value: { userId, simulationId, link, deepLink, expiresAt }, text: link };
}
