import { readRevocations, type Revocations } from "../../state/link-revocations.js";
import type { StateStore, Tenant } from "../../state/store.js";

// `links revoke` writes to the state store; every running `links serve` re-reads it this
// often, so a revocation takes effect on every instance within 10 s (docs/cli-contract.md
// "Durable links"). A read that fails keeps the last list and says so once, until one succeeds.

export const REVOCATION_POLL_MS = 5_000;

export interface RevocationWatch {
  current(): Revocations;
  stop(): void;
}

export async function watchRevocations(
  store: Pick<StateStore, "list">,
  tenant: Tenant,
  warn: (text: string) => void,
  pollMs = REVOCATION_POLL_MS,
): Promise<RevocationWatch> {
  // The first read is the start-up's: a store that cannot be read stops the server before it listens.
  let revocations = await readRevocations(store, tenant);
  let failing = false;
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    readRevocations(store, tenant)
      .then((fresh) => {
        revocations = fresh;
        if (failing) warn("revocations: the state store can be read again");
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) warn(`revocations: cannot read the state store (${(error as Error).message}); keeping the last list`);
        failing = true;
      })
      .finally(() => {
        reading = false;
      });
  }, pollMs);
  timer.unref();
  return { current: () => revocations, stop: () => clearInterval(timer) };
}
