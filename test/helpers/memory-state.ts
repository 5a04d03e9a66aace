import type { EntryChanges, StateKind, StateLock, StateStore, Tenant } from "../../src/state/store.js";

// A state store in memory (src/state/store.ts's interface) for the tests of what uses the
// store — the reminder ledger's claims, marks and releases — without a backend.

export function memoryStateStore(): StateStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  const id = (tenant: Tenant, kind: StateKind, key: string): string =>
    JSON.stringify([tenant.service, tenant.organizationId, kind, key]);
  const prefix = (tenant: Tenant, kind: StateKind): string =>
    JSON.stringify([tenant.service, tenant.organizationId, kind, ""]).slice(0, -3);
  return {
    location: "memory",
    entries,
    async get(tenant, kind, key) {
      return entries.get(id(tenant, kind, key));
    },
    async list(tenant, kind) {
      const out = new Map<string, unknown>();
      const start = prefix(tenant, kind);
      for (const [k, v] of entries) if (k.startsWith(start)) out.set((JSON.parse(k) as string[])[3]!, v);
      return out;
    },
    async put(tenant, kind, changes: EntryChanges) {
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) entries.delete(id(tenant, kind, key));
        else entries.set(id(tenant, kind, key), structuredClone(value));
      }
    },
    async claim(tenant, kind, key, value) {
      const existing = entries.get(id(tenant, kind, key));
      if (existing !== undefined) return { inserted: false, value: existing };
      entries.set(id(tenant, kind, key), structuredClone(value));
      return { inserted: true, value };
    },
    async claimMany(tenant, kind, claims) {
      const result = new Map<string, { inserted: boolean; value: unknown }>();
      for (const [key, value] of Object.entries(claims)) {
        if (value === null || value === undefined) continue;
        const existing = entries.get(id(tenant, kind, key));
        if (existing !== undefined) result.set(key, { inserted: false, value: existing });
        else {
          entries.set(id(tenant, kind, key), structuredClone(value));
          result.set(key, { inserted: true, value });
        }
      }
      return result;
    },
    async lock(): Promise<StateLock> {
      return { release: async () => {} };
    },
    async summary() {
      return [];
    },
    async *exportAll() {},
    async importEntries(tenant, kind, imported) {
      for (const entry of imported) entries.set(id(tenant, kind, entry.key), structuredClone(entry.value));
    },
    async close() {},
  };
}
