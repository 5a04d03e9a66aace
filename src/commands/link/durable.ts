import type { CommandContext } from "../../context.js";
import { durableLinkMaker, sayNewKey, validityOf } from "../shared/durable-links.js";
import type { CommandOutcome } from "../types.js";

// link --user --sim --durable (docs/cli-contract.md "Durable links"): `<links-url>/l/<id>`,
// signed with the link key, made without asking the service anything — the token is minted
// by `links serve` when the trainee clicks Start.

export async function runDurable(
  { services, printer }: CommandContext,
  options: {
    user?: string | undefined;
    sim?: string | undefined;
    validFor?: number | undefined;
    validUntil?: string | undefined;
  },
): Promise<CommandOutcome> {
  // Both given: the option schema requires them unless --from-csv is.
  const userId = options.user!;
  const simulationId = options.sim!;
  const maker = await durableLinkMaker(services, validityOf(options));
  sayNewKey(printer, maker);
  const { link, expiresAt } = maker.make(userId, simulationId);
  return { kind: "object", value: { userId, simulationId, link, expiresAt }, text: link };
}
