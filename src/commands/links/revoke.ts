import { UsageError } from "../../errors.js";
import { linkIdOf, linkRef, verifyLinkId } from "../../domain/durable-links.js";
import { linkKey } from "../../state/link-key.js";
import { revokeLinks, revokeUser } from "../../state/link-revocations.js";
import { linksState, linkTenant } from "../shared/durable-links.js";
import { defineRun } from "../types.js";
import { RevokeOptions } from "./options.js";

// links revoke <link|id>… | --user <id> (docs/cli-contract.md "Durable links"): revocations
// go into the state store of the profile's service and organization; running servers read
// them within 10 s (revocation-watch.ts). A link is revoked by its ref (its id's hash).

export const run = defineRun(RevokeOptions, async ({ options, args, services, printer }) => {
  if (options.user === undefined && args.length === 0) {
    throw new UsageError("`links revoke` needs links (or their ids), or --user <id>");
  }
  if (options.user !== undefined && args.length > 0) {
    throw new UsageError("give links or --user <id>, not both", { hint: "run `links revoke` once for each" });
  }
  const ids = args.map((text) => {
    const id = linkIdOf(text);
    if (id === undefined) throw new UsageError(`${JSON.stringify(text.slice(0, 80))} is neither a durable link nor a link id`);
    return id;
  });
  const tenant = await linkTenant(services);
  const store = linksState(services);
  const now = services.clock.now();
  if (options.user !== undefined) {
    await revokeUser(store, tenant, options.user, now);
    printer.info(
      `revoked every durable link of user ${JSON.stringify(options.user)} made until ${new Date(now).toISOString()}; running link services stop them within 10 s`,
    );
    return { kind: "none" };
  }
  // A link made for another service or organization (or mistyped) is said, not silently recorded.
  const { key } = await linkKey(store, tenant, services.env, now);
  for (const id of ids) {
    if (!verifyLinkId(key, tenant, id).ok) {
      throw new UsageError(`the link ${linkRef(id)} was not made for ${tenant.service}, organization ${tenant.organizationId}`, {
        hint: "check --profile, --base-url and --org; nothing was revoked",
      });
    }
  }
  await revokeLinks(
    store,
    tenant,
    ids.map((id) => linkRef(id)),
    now,
  );
  printer.info(`revoked ${ids.length} durable link${ids.length === 1 ? "" : "s"}; running link services stop them within 10 s`);
  return { kind: "none" };
});
