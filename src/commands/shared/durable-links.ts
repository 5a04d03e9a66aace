import { UsageError } from "../../errors.js";
import {
  DEFAULT_LINK_VALIDITY_MS,
  durableLinkUrl,
  linkExpiry,
  signLinkId,
  type LinkScope,
  type LinkValidity,
} from "../../domain/durable-links.js";
import type { Printer } from "../../printer.js";
import { normalizeBaseUrl } from "../../domain/users-csv/manifest-file.js";
import type { Services } from "../../services.js";
import { linkKey, type LinkKey } from "../../state/link-key.js";
import type { StateStore, Tenant } from "../../state/store.js";

// What every command that makes or serves durable links shares (docs/cli-contract.md "Durable
// links"): the links URL, the tenant the link is bound to, the state store holding the key
// and revocations, and the maker of `<links-url>/l/<id>`. `link --durable`, `progress --links
// --durable`, `progress notify` and `links serve`/`revoke` all come here, so a link made by one
// verifies in the other.

/** The part of the state store the link commands use. */
export type LinksState = Pick<StateStore, "claim" | "list" | "put">;

/** The links URL: --links-url, SIMADMIN_LINKS_URL or the profile's linksUrl; exit 2 without one. */
export async function requireLinksUrl(services: Services): Promise<string> {
  const { linksUrl } = await services.settings();
  if (linksUrl === undefined) {
    throw new UsageError(
      "durable links need the link service's public address: pass --links-url <url>, set SIMADMIN_LINKS_URL, or run `simadmin config set linksUrl <url>`",
      { hint: "the address where `simadmin links serve` is reachable (behind your TLS reverse proxy); see docs/links.md" },
    );
  }
  return linksUrl;
}

/**
 * The tenant (service and organization) a link is bound to and its state is kept under.
 * Under --sandbox the service is "sandbox", not the in-process sandbox's address, which
 * changes every run.
 */
export async function linkTenant(services: Services): Promise<Tenant> {
  const settings = await services.settings();
  const organizationId = await services.org();
  if (services.globals.sandbox) return { service: "sandbox", organizationId };
  if (!settings.baseUrl) {
    throw new UsageError(
      "no service address: pass --base-url <url>, set SIMADMIN_BASE_URL, or run `simadmin config set baseUrl <url>`",
      { hint: "a durable link is bound to the service and organization it admits to" },
    );
  }
  return { service: normalizeBaseUrl(settings.baseUrl), organizationId };
}

/**
 * Where the link key and revocations live: the run's state store (docs/state.md), opened on
 * first use — a directory under the settings directory, or the PostgreSQL every instance of
 * the link service shares.
 */
export function linksState(services: Services): LinksState {
  return {
    claim: async (...args) => (await services.state()).claim(...args),
    list: async (...args) => (await services.state()).list(...args),
    put: async (...args) => (await services.state()).put(...args),
  };
}

export interface DurableLink {
  link: string;
  /** ISO time. */
  expiresAt: string;
}

/** Makes durable links for one tenant: the key is read (or made) once. */
export interface DurableLinkMaker {
  readonly key: LinkKey;
  make(userId: string, simulationId: string): DurableLink;
}

const localMidnightAfter = (year: number, month: number, day: number): number => new Date(year, month - 1, day + 1).getTime();

/**
 * The maker for this run: links URL, tenant and key resolved up front, so a missing one is
 * exit 2 before anything is done, and every link of a run shares one expiry.
 */
export async function durableLinkMaker(services: Services, validity: LinkValidity): Promise<DurableLinkMaker> {
  const linksUrl = await requireLinksUrl(services);
  const tenant = await linkTenant(services);
  const now = services.clock.now();
  const expiresAt = linkExpiry(validity, now, localMidnightAfter);
  const key = await linkKey(linksState(services), tenant, services.env, now);
  const scope: LinkScope = tenant;
  return {
    key,
    make(userId, simulationId) {
      let id: string;
      try {
        id = signLinkId(key.key, scope, { userId, simulationId, issuedAt: now, expiresAt });
      } catch (error) {
        if (error instanceof RangeError)
          throw new UsageError(`cannot make a durable link for this user and simulation: ${error.message}`);
        throw error;
      }
      return { link: durableLinkUrl(linksUrl, id), expiresAt: new Date(Math.floor(expiresAt / 1000) * 1000).toISOString() };
    },
  };
}

/** --valid-until wins (the options refuse both), else --valid-for, else 30 days. */
export function validityOf(options: { validFor?: number | undefined; validUntil?: string | undefined }): LinkValidity {
  if (options.validUntil !== undefined) return { validUntil: options.validUntil };
  return { validFor: options.validFor ?? DEFAULT_LINK_VALIDITY_MS };
}

/** One line when the run had to make the link key: links made elsewhere with another key will not verify. */
export function sayNewKey(printer: Printer, maker: DurableLinkMaker): void {
  if (maker.key.source === "created") printer.info("made a new link key (kept in the state store; see docs/links.md)");
}
