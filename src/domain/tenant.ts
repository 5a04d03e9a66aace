// "Which service, and whose": the one derivation of a tenant — the normalized base URL (or
// "sandbox", whose address changes from run to run while its state is kept) and the
// organization. The state store keys everything by it (src/state/store.ts `Tenant`), and so
// do the caches that must never mix two services or organizations (docs/cli-contract.md "State":
// "State is kept per base URL and organization").

/** A base URL as one service: trailing slashes do not make another one. */
export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

/** The `service` half of a tenant. */
export function tenantService(baseUrl: string | undefined, sandbox: boolean): string {
  return sandbox ? "sandbox" : normalizeBaseUrl(baseUrl ?? "");
}
