import { createHash } from "node:crypto";
import { readdir, readFile, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { isErrnoError } from "../../errors.js";
import type { StateStore, Tenant } from "../../state/store.js";
import { isLedgerEntry, type LedgerEntry } from "./ledger.js";

// Before the state store, the reminder ledger was kept in the settings directory of the machine
// that sent (docs/reminders.md "Where the ledger lives"): one file per entry under
// `<dir>/reminders/<tenant hash>/<key>.json`, and `<dir>/reminders/<tenant hash>.lock` held
// while a run sent. On first use its entries move into the store (a line says so), then the
// files go. A run killed in between moves them again: an entry already in the store is kept,
// except that a `sent` file upgrades a `sending` entry (the 250 was seen), so nothing is ever
// sent twice because of the move.

function legacyDir(stateDir: string, tenant: Tenant): { root: string; dir: string; lock: string } {
  const id = createHash("sha256").update(`${tenant.service}\n${tenant.organizationId}`).digest("hex").slice(0, 16);
  const root = join(stateDir, "reminders");
  return { root, dir: join(root, id), lock: join(root, `${id}.lock`) };
}

export async function moveLegacyLedger(
  store: Pick<StateStore, "list" | "put" | "claimMany" | "location">,
  tenant: Tenant,
  stateDir: string,
  info: (text: string) => void,
): Promise<void> {
  const { root, dir, lock } = legacyDir(stateDir, tenant);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json"));
  } catch (error) {
    if (isErrnoError(error) && error.code === "ENOENT") return;
    info(`${dir} cannot be read (${(error as Error).message}): the reminder ledger there is left where it is`);
    return;
  }
  const found: Record<string, LedgerEntry> = {};
  for (const name of names) {
    try {
      const value = JSON.parse(await readFile(join(dir, name), "utf8")) as unknown;
      if (isLedgerEntry(value)) found[decodeURIComponent(name.slice(0, -5))] = value;
    } catch {
      // Half-written by a killed run (the old store renamed temp files into place): no entry.
    }
  }
  if (Object.keys(found).length > 0) {
    const claimed = await store.claimMany(tenant, "reminders", found);
    const upgrades: Record<string, LedgerEntry> = {};
    for (const [key, { inserted, value }] of claimed) {
      if (!inserted && found[key]!.status === "sent" && isLedgerEntry(value) && value.status === "sending") {
        upgrades[key] = found[key]!;
      }
    }
    if (Object.keys(upgrades).length > 0) await store.put(tenant, "reminders", upgrades);
  }
  await rm(dir, { recursive: true, force: true });
  await rm(lock, { force: true });
  await rmdir(root).catch(() => undefined); // only when no other organization's ledger is left
  const count = Object.keys(found).length;
  info(
    `moved the reminder ledger (${count} entr${count === 1 ? "y" : "ies"}) from ${dir} into the state store ${store.location}`,
  );
}
