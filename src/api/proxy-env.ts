import { UsageError } from "../errors.js";

// Which proxy, if any, a request to the service goes through (docs/cli-contract.md, "Global
// options": HTTPS_PROXY, HTTP_PROXY, NO_PROXY in either case, "honoured as curl does").
// Pure: the environment is passed in, so tests need not touch process.env.
//
// curl's rules, as its manual states them:
// - an https:// URL uses https_proxy/HTTPS_PROXY, an http:// URL http_proxy/HTTP_PROXY;
//   all_proxy/ALL_PROXY is the fallback for both. HTTP_PROXY is *not* used for https (undici's
//   own EnvHttpProxyAgent would, which is one reason the choice is made here). The lower-case
//   name wins when both are set, as in curl and undici.
// - a proxy written without a scheme ("proxy.corp:3128") is http://.
// - no_proxy/NO_PROXY: a comma-separated list; "*" alone means never proxy; an entry matches
//   the host itself and every host under it ("example.com" and ".example.com" both match
//   example.com and api.example.com); "host:port" matches that port only; IP addresses match
//   exactly. Matching is case-insensitive.

export interface ProxyChoice {
  /** The proxy as given, credentials included: only the transport may use it. */
  url: URL;
  /** The variable it came from, for messages ("HTTPS_PROXY"). */
  variable: string;
  /** scheme://host:port, never the credentials: safe for messages and traces. */
  display: string;
}

type Env = Record<string, string | undefined>;

function pick(env: Env, name: string): { value: string; variable: string } | undefined {
  for (const variable of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[variable]?.trim();
    if (value) return { value, variable };
  }
  return undefined;
}

/** True when any proxy variable is set at all: the cheap check that decides whether undici may be needed. */
export function hasProxyVariable(env: Env): boolean {
  return ["https_proxy", "http_proxy", "all_proxy"].some((name) => pick(env, name) !== undefined);
}

/** "http://user:secret@proxy:3128/" → "http://proxy:3128". */
export function displayProxy(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

function parseProxy(value: string, variable: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // The value may hold a password: name the variable, not what it holds.
    throw new UsageError(`${variable} is not a valid proxy address`, {
      hint: `set it to http://host:port (optionally http://user:password@host:port), or unset it`,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${variable}: ${url.protocol.replace(/:$/, "")} proxies are not supported`, {
      hint: "use an http:// or https:// proxy, or unset the variable",
    });
  }
  return url;
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

/** Whether NO_PROXY says that `target` is reached directly. */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  for (const raw of noProxy.split(/[,\s]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    let entryPort: number | undefined;
    // "host:port" and "[v6]:port"; a bare IPv6 address has several colons and no port.
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (withPort?.[1] && withPort[2]) {
      entry = withPort[1];
      entryPort = Number(withPort[2]);
    }
    entry = entry.replace(/^\[|\]$/g, "").replace(/^\*?\./, "");
    if (entry === "") continue;
    if (entryPort !== undefined && entryPort !== port) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/** The proxy for requests to `baseUrl`, or undefined to connect directly. */
export function proxyFor(baseUrl: string, env: Env): ProxyChoice | undefined {
  const target = new URL(baseUrl);
  const name = target.protocol === "https:" ? "https_proxy" : "http_proxy";
  const chosen = pick(env, name) ?? pick(env, "all_proxy");
  if (!chosen) return undefined;
  if (bypassesProxy(target, pick(env, "no_proxy")?.value)) return undefined;
  const url = parseProxy(chosen.value, chosen.variable);
  return { url, variable: chosen.variable, display: displayProxy(url) };
}

/** The proxy's user name and password, for the redactor: they must appear in no trace or error. */
export function proxyCredentials(env: Env): string[] {
  const secrets: string[] = [];
  for (const name of ["https_proxy", "http_proxy", "all_proxy"]) {
    for (const variable of [name, name.toUpperCase()]) {
      const value = env[variable]?.trim();
      if (!value) continue;
      try {
        const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
        for (const part of [url.password, url.username]) {
          if (part) secrets.push(part, decodeURIComponent(part));
        }
      } catch {
        // Unparseable: proxyFor reports it without echoing the value.
      }
    }
  }
  return secrets;
}
