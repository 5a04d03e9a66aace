import { formatDuration } from "../../domain/durations.js";
import { NoOptions } from "../shared/flags.js";
import { defineRun } from "../types.js";
import { showPath } from "../../messages.js";

// state show: one record per tenant and kind — counts and ages, never a value (the link key
// is a secret; baselines and caches hold personal data). docs/state.md.

export const run = defineRun(NoOptions, async ({ services }) => {
  const store = await services.state();
  const now = services.clock.now();
  const summary = await store.summary();
  const records = summary.map((s) => ({
    service: s.tenant.service,
    organizationId: s.tenant.organizationId,
    kind: s.kind,
    entries: s.entries,
    oldest: s.oldest ?? null,
    newest: s.newest ?? null,
    lastChange: s.newest ? `${formatDuration(Math.max(0, now - Date.parse(s.newest)))} ago` : null,
  }));
  return {
    kind: "records",
    records,
    tableColumns: ["service", "organizationId", "kind", "entries", "lastChange"],
    knownFields: ["service", "organizationId", "kind", "entries", "oldest", "newest", "lastChange"],
    note:
      records.length === 0
        ? `the state store ${showPath(store.location)} holds nothing yet`
        : `state store ${showPath(store.location)}: ${records.length} kind${records.length === 1 ? "" : "s"} of ${new Set(records.map((r) => `${r.service}\u0000${r.organizationId}`)).size} tenant(s)`,
  };
});
