import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { linkKey, linkKeyFromEnv } from "../../src/state/link-key.js";
import { readRevocations, revokeLinks, revokeUser } from "../../src/state/link-revocations.js";
import type { StateKind, StateStore, Tenant } from "../../src/state/store.js";

/** The part of the state store the link commands use, in memory (the StateStore contract). */
function memoryStore(): Pick<StateStore, "claim" | "list" | "put"> & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  const at = (tenant: Tenant, kind: StateKind, key: string) => JSON.stringify([tenant.service, tenant.organizationId, kind, key]);
  return {
    entries,
    async claim(tenant, kind, key, value) {
      const k = at(tenant, kind, key);
      if (entries.has(k)) return { inserted: false, value: entries.get(k) };
      entries.set(k, value);
      return { inserted: true, value };
    },
    async list(tenant, kind) {
      const prefix = JSON.stringify([tenant.service, tenant.organizationId, kind]).slice(0, -1);
      const found = new Map<string, unknown>();
      for (const [k, v] of entries) if (k.startsWith(prefix)) found.set((JSON.parse(k) as string[])[3]!, v);
      return found;
    },
    async put(tenant, kind, changes) {
      for (const [key, value] of Object.entries(changes)) entries.set(at(tenant, kind, key), value);
    },
  };
}

const TENANT = { service: "https://api.example.com", organizationId: "org-1" };

describe("linkKey", () => {
  it("makes a 32-byte key on first use, keeps it, and gives the same one after", async () => {
    const store = memoryStore();
    const first = await linkKey(store, TENANT, {}, 0);
    expect(first.source).toBe("created");
    expect(first.key).toHaveLength(32);
    const again = await linkKey(store, TENANT, {}, 1000);
    expect(again.source).toBe("store");
    expect(again.key.equals(first.key)).toBe(true);
  });

  it("keeps one key per tenant", async () => {
    const store = memoryStore();
    const a = await linkKey(store, TENANT, {}, 0);
    const b = await linkKey(store, { ...TENANT, organizationId: "org-2" }, {}, 0);
    expect(a.key.equals(b.key)).toBe(false);
  });

  it("takes SIMADMIN_LINKS_KEY over the store, and makes nothing there", async () => {
    const store = memoryStore();
    const text = "k".repeat(40);
    const got = await linkKey(store, TENANT, { SIMADMIN_LINKS_KEY: text }, 0);
    expect(got).toEqual({ key: Buffer.from(text), source: "env" });
    expect(store.entries.size).toBe(0);
  });

  it("refuses a SIMADMIN_LINKS_KEY shorter than 32 bytes", () => {
    expect(() => linkKeyFromEnv({ SIMADMIN_LINKS_KEY: "short" })).toThrow(UsageError);
  });

  it("refuses a damaged stored key instead of replacing it", async () => {
    const store = memoryStore();
    await store.put(TENANT, "links", { key: { key: "abc" } });
    await expect(linkKey(store, TENANT, {}, 0)).rejects.toThrow(/damaged/);
  });
});

describe("revocations", () => {
  it("reads back revoked links and users, per tenant", async () => {
    const store = memoryStore();
    await revokeLinks(store, TENANT, ["aaaa", "bbbb"], 1000);
    await revokeUser(store, TENANT, "user-1", 5000);
    await revokeUser(store, { ...TENANT, organizationId: "org-2" }, "user-2", 5000);
    const revoked = await readRevocations(store, TENANT);
    expect([...revoked.links].sort()).toEqual(["aaaa", "bbbb"]);
    expect([...revoked.usersBefore]).toEqual([["user-1", 5000]]);
  });
});
