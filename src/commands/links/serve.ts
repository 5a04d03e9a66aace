import { LocalFileError, UsageError } from "../../errors.js";
import { linkKey } from "../../state/link-key.js";
import { linksState, linkTenant } from "../shared/durable-links.js";
import { defineRun } from "../types.js";
import { CLICK_HOLD_MS, LinkClicks } from "./clicks.js";
import { formatAddress, type ListenAddress } from "./listen.js";
import { Metrics } from "./metrics.js";
import { ServeOptions } from "./options.js";
import { watchRevocations } from "./revocation-watch.js";
import { startLinkServer } from "./server.js";

// links serve (docs/cli-contract.md "Durable links", docs/links.md): everything that can be
// wrong — address, key, organization, link key, state store — is found before it listens;
// then it serves until SIGTERM/SIGINT, stops accepting, finishes the clicks in flight and
// ends with 0.

export const run = defineRun(ServeOptions, async ({ options, services, printer }) => {
  const { clock } = services;
  // The clicks' requests are not cut by the signal that stops the server: they finish first.
  const requests = new AbortController();
  const client = await services.serverApi({ signal: requests.signal, deadlineMs: CLICK_HOLD_MS });
  const tenant = await linkTenant(services);
  const store = linksState(services);
  const key = await linkKey(store, tenant, services.env, clock.now());
  if (key.source === "created") {
    printer.warn("made a new link key: durable links made before with another key do not work here (see docs/links.md)");
  }
  // The request lines and `listening on` are the server's output: --quiet does not silence them.
  const stderr = (line: string): void => printer.say(line);
  const revocations = await watchRevocations(store, tenant, (text) => printer.warn(text));
  const metrics = new Metrics();
  // The program's one user-token policy (api/user-tokens.ts), minted through the server's client.
  const tokens = services.userTokens({ client });
  const clicks = new LinkClicks({
    key: key.key,
    scope: tenant,
    now: () => clock.now(),
    revocations: () => revocations.current(),
    client,
    tokens,
    metrics,
  });

  const release = services.holdForcedExit();
  try {
    const server = await startLinkServer({ listen: options.listen, clicks, metrics, log: stderr, now: () => clock.now() }).catch(
      (error: unknown) => {
        throw listenError(error, options.listen);
      },
    );
    stderr(`listening on ${server.url}`);
    await new Promise<void>((resolve) => {
      if (services.signal.aborted) return resolve();
      services.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    stderr("stopping: finishing the requests in flight");
    await server.stop();
    stderr("stopped");
  } finally {
    revocations.stop();
    requests.abort();
    release();
  }
  return { kind: "none" };
});

/** An address in use is exit 11 naming it; one this machine does not have is a bad --listen (2). */
function listenError(error: unknown, listen: ListenAddress): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = formatAddress(listen);
  if (code === "EADDRINUSE" || code === "EACCES" || code === "EPERM") {
    const why = code === "EADDRINUSE" ? "address already in use" : "permission denied";
    return new LocalFileError(`cannot listen on ${address}: ${why} (${code})`, {
      path: address,
      code,
      hint:
        code === "EADDRINUSE"
          ? "stop what listens there, or pick another --listen (:0 for a free port)"
          : "ports below 1024 need privileges: pick a port from 1024 up",
      cause: error,
    });
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new UsageError(`--listen ${address}: not an address of this machine (${code})`, {
      hint: "use 127.0.0.1 (the default), 0.0.0.0 for every interface, or an address this machine has",
      cause: error,
    });
  }
  return error;
}
