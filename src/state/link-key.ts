import { randomBytes } from "node:crypto";
import { UsageError } from "../errors.js";
import { MIN_LINK_KEY_BYTES } from "../domain/durable-links.js";
import type { StateStore, Tenant } from "./store.js";

// The link key that signs durable links (docs/cli-contract.md "Durable links", docs/links.md
// "Key handling"): SIMADMIN_LINKS_KEY when set — for a link service whose machines share no
// state store, or a key kept in a secrets manager — else the entry `key` of kind `links` in
// the state store, per tenant (service and organization), made on first use. Making it is a
// `claim`: two runs starting at once on two machines agree on one key, never sign with two.

const KEY_ENTRY = "key";

/** Where the key came from, for `links serve`'s start-up line (never the key itself). */
export type LinkKeySource = "env" | "store" | "created";

export interface LinkKey {
  key: Buffer;
  source: LinkKeySource;
}

/**
 * SIMADMIN_LINKS_KEY as bytes: any text of at least 32 bytes (e.g. `openssl rand -base64 32`),
 * used as it is. A shorter one is refused rather than stretched: a weak key makes every link forgeable.
 */
export function linkKeyFromEnv(env: Record<string, string | undefined>): Buffer | undefined {
  const text = env.SIMADMIN_LINKS_KEY;
  if (text === undefined || text === "") return undefined;
  const key = Buffer.from(text, "utf8");
  if (key.length < MIN_LINK_KEY_BYTES) {
    throw new UsageError(`SIMADMIN_LINKS_KEY is too short: it needs at least ${MIN_LINK_KEY_BYTES} bytes`, {
      hint: "make one with `openssl rand -base64 32`, or unset it to use the key in the state store",
    });
  }
  return key;
}

function storedKey(value: unknown): Buffer | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const text = (value as { key?: unknown }).key;
  if (typeof text !== "string") return undefined;
  const key = Buffer.from(text, "base64url");
  return key.length >= MIN_LINK_KEY_BYTES ? key : undefined;
}

/**
 * The link key of a tenant: from the environment, else the store's, made there on first use.
 * A store entry that is not a key is an error, not replaced: replacing it would break every
 * link already mailed.
 */
export async function linkKey(
  store: Pick<StateStore, "claim">,
  tenant: Tenant,
  env: Record<string, string | undefined>,
  now: number,
): Promise<LinkKey> {
  const fromEnv = linkKeyFromEnv(env);
  if (fromEnv) return { key: fromEnv, source: "env" };
  const fresh = { key: randomBytes(MIN_LINK_KEY_BYTES).toString("base64url"), createdAt: new Date(now).toISOString() };
  const { inserted, value } = await store.claim(tenant, "links", KEY_ENTRY, fresh);
  const key = storedKey(value);
  if (!key) {
    throw new UsageError(`the link key kept in the state store for ${tenant.service} is damaged`, {
      hint: "restore the state store from a backup, or set SIMADMIN_LINKS_KEY (links made with the old key stop working)",
    });
  }
  return { key, source: inserted ? "created" : "store" };
}
