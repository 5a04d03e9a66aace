import { UsageError } from "../../errors.js";
import { parseStateLocation } from "../../state/location.js";
import { openStateStore } from "../../state/open-store.js";
import type { ExportedEntry, StateKind, Tenant } from "../../state/store.js";
import { defineRun } from "../types.js";
import { PushOptions } from "./options.js";
import { showPath } from "../../messages.js";

// state push --to <target> [--force] (docs/state.md "Moving state"): every entry of the current
// store, with its change time, into another — e.g. the settings directory's state into a
// PostgreSQL every CI runner shares. A target that holds anything is refused without --force:
// pushing over another team's baseline by a typo in the URL must not be one command away.
// With --force each tenant's kind that is pushed replaces the target's (one batch each), so
// the target ends up with exactly the source's entries for it.

export const run = defineRun(PushOptions, async ({ options, services, printer }) => {
  const source = await services.state();
  const location = parseStateLocation(options.to);
  for (const secret of location.secrets) printer.redactor.add(secret);
  if (location.display === source.location) {
    throw new UsageError(`--to ${location.display} is the current state store itself`, {
      hint: "name another directory or database with --to, or choose the source with --state",
    });
  }
  const target = await openStateStore(location, services.clock, undefined, services.env);
  services.addCleanup(() => target.close());
  const held = await target.summary();
  if (held.length > 0 && !options.force) {
    const entries = held.reduce((n, s) => n + s.entries, 0);
    throw new UsageError(
      `the target state store ${target.location} is not empty (${entries} entr${entries === 1 ? "y" : "ies"} in ${held.length} kind${held.length === 1 ? "" : "s"}); nothing was copied`,
      { hint: "check that --to names the store you mean; add --force to replace its kinds with this store's" },
    );
  }
  const groups = new Map<string, { tenant: Tenant; kind: StateKind; entries: ExportedEntry[] }>();
  for await (const entry of source.exportAll()) {
    const id = JSON.stringify([entry.tenant.service, entry.tenant.organizationId, entry.kind]);
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { tenant: entry.tenant, kind: entry.kind, entries: [] }));
    group.entries.push({ key: entry.key, value: entry.value, updatedAt: entry.updatedAt });
  }
  let copied = 0;
  for (const group of groups.values()) {
    await target.importEntries(group.tenant, group.kind, group.entries, { replace: true });
    copied += group.entries.length;
  }
  const tenants = new Set([...groups.values()].map((g) => `${g.tenant.service}\u0000${g.tenant.organizationId}`)).size;
  return {
    kind: "object",
    value: { from: source.location, to: target.location, entries: copied, kinds: groups.size, tenants },
    note: `copied ${copied} entr${copied === 1 ? "y" : "ies"} (${groups.size} kind${groups.size === 1 ? "" : "s"} of ${tenants} tenant${tenants === 1 ? "" : "s"}) from ${showPath(source.location)} to ${showPath(target.location)}`,
  };
});
