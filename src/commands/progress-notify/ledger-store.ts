import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { systemClock } from "../../clock.js";
import { LocalFileError } from "../../errors.js";
import { acquireWaitingLock } from "../../output/file-lock.js";
import type { CommandContext } from "../../context.js";
import type { EntryChanges, StateStore, Tenant } from "../../state/store.js";

// Where the reminder ledger is kept until the state store's backends are in (docs/cli-contract.md
// "State"; then services.state() and its lock replace this file): the run's state directory
// (services.stateDir()), one file per entry under `<dir>/reminders/<tenant hash>/` (0700
// directories, 0600 files) — a write changes one small file, never a whole ledger — and a lock
// file beside it held while a run sends (output/file-lock.ts: a second run waits, a dead run's
// lock is taken over).

export interface LedgerStoreAccess {
  store: Pick<StateStore, "list" | "put">;
  tenant: Tenant;
  /** Holds the ledger for this run's sending; released when the run ends. */
  lock: () => Promise<void>;
}

const LOCK_WAIT_MS = 60_000;

export async function openLedgerStore(ctx: CommandContext): Promise<LedgerStoreAccess> {
  const { services, printer } = ctx;
  const tenant = await services.tenant();
  const id = createHash("sha256").update(`${tenant.service}\n${tenant.organizationId}`).digest("hex").slice(0, 16);
  const dir = join(await services.stateDir(), "reminders", id);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw LocalFileError.fromSystem(error, dir, "create the directory for the reminder ledger");
  }
  const fileOf = (key: string): string => join(dir, `${encodeURIComponent(key)}.json`);
  const store: LedgerStoreAccess["store"] = {
    async list() {
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
    async put(_tenant, _kind, changes: EntryChanges) {
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) {
          await rm(fileOf(key), { force: true });
          continue;
        }
        const temp = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
        await writeFile(temp, JSON.stringify(value), { mode: 0o600 });
        await rename(temp, fileOf(key));
      }
    },
  };
  return {
    store,
    tenant,
    lock: async () => {
      const lock = await acquireWaitingLock(join(dir, "..", `${id}.lock`), {
        guarded: { path: dir, action: "send the reminders recorded in" },
        command: "simadmin progress notify",
        // Another process holds it: real time, whatever clock the run was given.
        now: () => systemClock.now(),
        sleep: (ms) => systemClock.sleep(ms, services.signal),
        maxWaitMs: LOCK_WAIT_MS,
        noticeAfterMs: 1000,
        onWait: (owner) =>
          printer.info(
            `waiting for another progress notify run${owner ? ` (pid ${owner.pid} on ${owner.host})` : ""} to finish sending`,
          ),
      });
      services.addCleanup(() => lock.release());
    },
  };
}
