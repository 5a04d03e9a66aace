import type { Context } from "../../context.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOptions } from "../../program.js";
import { explainNotFound } from "../shared/access.js";

// token --user: a user access token (docs/service-spec.md §4.6). Printing it is this command's purpose; it is
// never written to settings, logs or traces (docs/service-spec.md §5.6: do not store user tokens).

export async function runToken(ctx: Context, options: CommandOptions): Promise<CommandResult> {
  await ctx.requireVersion2("token");
  const organizationId = await ctx.org();
  const userId = String(options.user);
  const [api, { getUserToken }] = await Promise.all([ctx.api(), import("../../api/endpoints.js")]);
  const issuedAt = ctx.clock.now();
  let answer;
  try {
    answer = await getUserToken(api, { organizationId, userId });
  } catch (error) {
    throw explainNotFound(error, { org: organizationId, user: userId });
  }
  const { token, expiresIn } = answer;
  ctx.redactor.add(token); // keep it out of --verbose traces and error lines
  const expiresAt = new Date(issuedAt + expiresIn * 1000).toISOString();
  ctx.secretOutput = true; // a new --out file is created 0600
  return { kind: "object", value: { userId, token, expiresIn, expiresAt }, text: token };
}
