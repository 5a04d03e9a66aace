import type { Env } from "./paths.js";

// The API key in the OS keychain (docs/cli-contract.md, "Secrets"): macOS
// Keychain, Windows Credential Manager, or the Secret Service (GNOME Keyring, KWallet) on
// Linux, through @napi-rs/keyring. That native module is imported here only, and this module
// only when a stored key is read, written or removed — never for --help, `config` or a run
// whose key comes from SIMADMIN_API_KEY.
//
// Entries: service "simadmin", account "<profile> (<settings dir>)", so that two settings
// directories (SIMADMIN_CONFIG_DIR) never share or overwrite each other's key. The settings
// file records the account it used, so a stored key is always found again.
//
// On Linux the entry is pinned to the Secret Service: the library would otherwise fall back
// to the kernel keyring, which forgets the key at logout or reboot — worse than the file.

export const KEYCHAIN_SERVICE = "simadmin";

export interface Keychain {
  get(account: string): string | undefined;
  set(account: string, secret: string): void;
  /** True when an entry was removed. */
  remove(account: string): boolean;
}

export class KeychainUnavailable extends Error {}

export function keychainAccount(profile: string, configDir: string): string {
  return `${profile} (${configDir})`;
}

/** One line, without the library's nested causes. */
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n")[0] ?? text).replace(/^Platform failure: /, "").slice(0, 200);
}

/**
 * The OS keychain, or KeychainUnavailable saying why not (no module for this platform, no
 * Secret Service on the session bus, a locked store…). SIMADMIN_KEYCHAIN=off turns it off
 * (e.g. a shared build account whose keychain should stay untouched).
 */
export async function openKeychain(env: Env): Promise<Keychain> {
  if (/^(off|0|false|no)$/i.test(env.SIMADMIN_KEYCHAIN ?? "")) throw new KeychainUnavailable("SIMADMIN_KEYCHAIN=off");
  let Entry: typeof import("@napi-rs/keyring").Entry;
  try {
    ({ Entry } = await import("@napi-rs/keyring"));
  } catch (error) {
    throw new KeychainUnavailable(`the keychain module does not load on this platform (${reason(error)})`);
  }
  const entry = (account: string): InstanceType<typeof Entry> => {
    try {
      return new Entry(KEYCHAIN_SERVICE, account, { linux: { store: "secret-service" } });
    } catch (error) {
      throw new KeychainUnavailable(reason(error));
    }
  };
  const wrap = <T>(action: () => T): T => {
    try {
      return action();
    } catch (error) {
      if (error instanceof KeychainUnavailable) throw error;
      throw new KeychainUnavailable(reason(error));
    }
  };
  return {
    get: (account) => wrap(() => entry(account).getPassword() ?? undefined),
    set: (account, secret) =>
      wrap(() => {
        const e = entry(account);
        e.setPassword(secret);
        // Some stores accept a write they cannot give back (a locked collection): trust a read.
        if (e.getPassword() !== secret) throw new KeychainUnavailable("the keychain did not return the key just stored");
      }),
    remove: (account) => wrap(() => entry(account).deleteCredential()),
  };
}
