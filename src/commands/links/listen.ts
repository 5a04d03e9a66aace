import { isIP } from "node:net";
import { UsageError } from "../../errors.js";

// --listen <host:port> (docs/cli-contract.md "Durable links"): `127.0.0.1:8080` (the
// default), `:0` (loopback, any free port), `0.0.0.0:8080`, `[::1]:8080`, `localhost:8080`.

export interface ListenAddress {
  host: string;
  port: number;
}

export const DEFAULT_LISTEN = "127.0.0.1:8080";

export function parseListen(text: string): ListenAddress {
  const bad = (why: string): UsageError =>
    new UsageError(`--listen: ${JSON.stringify(text)} ${why}`, {
      hint: "give host:port, e.g. 127.0.0.1:8080, [::1]:8080, or :0 for a free port on 127.0.0.1",
    });
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text.trim());
  if (!match) throw bad("is not host:port");
  const host = match[1] ?? (match[2] === "" ? "127.0.0.1" : match[2]!);
  const port = Number(match[3]);
  if (port > 65_535) throw bad("has a port above 65535");
  if (match[1] !== undefined && isIP(host) !== 6) throw bad("has no IPv6 address between the brackets");
  if (match[2] !== undefined && match[2] !== "" && isIP(host) !== 4 && !/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host)) {
    throw bad("has no host name or IPv4 address before the port");
  }
  return { host, port };
}

/** `127.0.0.1:8080`, `[::1]:8080`: for messages and the `listening on` line. */
export function formatAddress({ host, port }: ListenAddress): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}
