import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EntryChanges, StateStore, Tenant } from "./store.js";

// Until the state store's backends are in (docs/cli-contract.md "State"), the link key and
// revocations live in the settings directory, one file per entry under
// `<dir>/links/<tenant hash>/` (0700 directories, 0600 files). A claim is an exclusive create,
// so two first uses agree on one key; a change is a write to a temp file and a rename.
// Only what the link commands use of the StateStore interface.

type LinksStore = Pick<StateStore, "claim" | "list" | "put">;

function tenantDir(root: string, tenant: Tenant): string {
  const id = createHash("sha256").update(`${tenant.service}\n${tenant.organizationId}`).digest("hex").slice(0, 16);
  return join(root, "links", id);
}

const fileOf = (key: string): string => `${encodeURIComponent(key)}.json`;

export function openLinksDirStore(root: string): LinksStore {
  const dirFor = async (tenant: Tenant): Promise<string> => {
    const dir = tenantDir(root, tenant);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  };
  return {
    async claim(tenant, _kind, key, value) {
      const path = join(await dirFor(tenant), fileOf(key));
      try {
        await writeFile(path, JSON.stringify(value), { flag: "wx", mode: 0o600 });
        return { inserted: true, value };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        return { inserted: false, value: JSON.parse(await readFile(path, "utf8")) as unknown };
      }
    },
    async list(tenant) {
      const dir = await dirFor(tenant);
      const entries = new Map<string, unknown>();
      for (const name of await readdir(dir)) {
        if (!name.endsWith(".json")) continue;
        try {
          entries.set(decodeURIComponent(name.slice(0, -5)), JSON.parse(await readFile(join(dir, name), "utf8")) as unknown);
        } catch {
          // A file being replaced this instant: the next read sees it.
        }
      }
      return entries;
    },
    async put(tenant, _kind, changes: EntryChanges) {
      const dir = await dirFor(tenant);
      for (const [key, value] of Object.entries(changes)) {
        const temp = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
        await writeFile(temp, JSON.stringify(value), { mode: 0o600 });
        await rename(temp, join(dir, fileOf(key)));
      }
    },
  };
}
