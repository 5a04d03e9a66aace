import { UsageError } from "../errors.js";

// Which proxy, if any, a request to the service goes through (docs/cli-contract.md, "Global
// options": HTTPS_PROXY, HTTP_PROXY, NO_PROXY, "honoured exactly as curl does"; docs/proxies.md). Pure: the environment is passed in, so tests need not touch
// process.env. The rules are curl 7.88's (lib/url.c detect_proxy, lib/noproxy.c), written
// here from their behaviour and checked against curl's own unit1614 cases
// (test/unit/proxy-env.test.ts) and the curl 7.88.1 binary:
// - an https:// URL uses https_proxy, else HTTPS_PROXY; an http:// URL uses http_proxy only —
//   upper-case HTTP_PROXY is ignored (a CGI program gets it from a request's `Proxy:` header,
//   "httpoxy"); all_proxy, else ALL_PROXY, is the fallback for both. An empty variable counts
//   as unset. A proxy written without a scheme ("proxy.corp:3128") is http://.
// - no_proxy, else NO_PROXY: exactly "*" means never proxy (" *" or "foo,*" do not); else a
//   list of names separated by commas and/or blanks. A name matches the host itself and every
//   host under it, a leading and a trailing dot ignored ("example.com" and ".example.com" both
//   match example.com and api.example.com, never badexample.com); case-insensitive; "*.x" is
//   no wildcard, and "host:port" matches nothing (curl compares the host name only). For an IP
//   address host, the entries are addresses with an optional CIDR prefix ("10.0.0.0/8",
//   "::1/64"); a host name never matches an address entry nor the reverse.

/** What messages may say about the proxy in use: never its credentials. */
export interface ProxyInfo {
  /** scheme://host:port, never the credentials: safe for messages and traces. */
  display: string;
  /** The variable it came from, for messages ("HTTPS_PROXY"). */
  variable: string;
  /** Whether the variable holds a user name (and password) for the proxy. */
  withCredentials: boolean;
}

export interface ProxyChoice extends ProxyInfo {
  /** The proxy as given, credentials included: only the transport may use it. */
  url: URL;
}

type Env = Record<string, string | undefined>;

/** The first of `names` that is set and not empty (curl_getenv treats "" as unset). */
function firstSet(env: Env, names: readonly string[]): { value: string; variable: string } | undefined {
  for (const variable of names) {
    const value = env[variable];
    if (value) return { value, variable };
  }
  return undefined;
}

/** The variables curl reads for a URL of this scheme, in its order. */
function proxyVariables(protocol: string): string[] {
  const own = protocol === "https:" ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"];
  return [...own, "all_proxy", "ALL_PROXY"];
}

/** True when any proxy variable is set at all: the cheap check that decides whether undici may be needed. */
export function hasProxyVariable(env: Env): boolean {
  return firstSet(env, ["https_proxy", "HTTPS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY"]) !== undefined;
}

/**
 * "HTTP_PROXY" when it is set for an http:// service while http_proxy and ALL_PROXY are not:
 * curl ignores it (so does simadmin), and the user probably meant it.
 */
export function ignoredUpperHttpProxy(baseUrl: string, env: Env): string | undefined {
  if (new URL(baseUrl).protocol !== "http:" || !env.HTTP_PROXY) return undefined;
  return firstSet(env, proxyVariables("http:")) ? undefined : "HTTP_PROXY";
}

/** "http://user:secret@proxy:3128/" → "http://proxy:3128". */
export function displayProxy(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

function parseProxy(value: string, variable: string): URL {
  const trimmed = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
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

/** A dotted-quad IPv4 address as four bytes, strictly (inet_pton: no leading zeros, no short forms). */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined;
    bytes.push(Number(part));
  }
  return bytes;
}

/** An IPv6 address (with "::" and a dotted IPv4 tail allowed, no zone) as sixteen bytes. */
export function parseIPv6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined): number[] | undefined => {
    if (half === undefined || half === "") return [];
    const words: number[] = [];
    const pieces = half.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? "";
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIPv4(piece);
        if (!v4) return undefined;
        words.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) words.push(parseInt(piece, 16));
      else return undefined;
    }
    return words;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const words = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

/** C's atoi: optional blanks and sign, then digits; 0 when there are none. */
function atoi(text: string): number {
  const match = /^[ \t]*([+-]?)([0-9]+)/.exec(text);
  if (!match?.[2]) return 0;
  const value = Number(match[2]);
  return match[1] === "-" ? -value : value;
}

/** Whether the first `bits` bits of two addresses agree; 0 bits compares them whole (curl's rule). */
function prefixMatch(address: number[], network: number[], bits: number): boolean {
  const total = address.length * 8;
  if (bits === 0) bits = total;
  if (bits < 0 || bits > total) return false;
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((address[bit / 8] ?? 0) & mask) !== ((network[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/** curl's Curl_cidr4_match: `ipv4` inside `network`/`bits` (0 and 32 mean the address itself). */
export function cidr4Match(ipv4: string, network: string, bits: number): boolean {
  if (bits > 32 || bits < 0) return false;
  const address = parseIPv4(ipv4);
  const check = parseIPv4(network);
  return Boolean(address && check && prefixMatch(address, check, bits));
}

/**
 * curl's Curl_cidr6_match (0 bits = 128). A prefix that is not a whole number of bytes is
 * compared correctly, as curl does since 8.17; 7.88 had that comparison inverted.
 */
export function cidr6Match(ipv6: string, network: string, bits: number): boolean {
  const address = parseIPv6(ipv6);
  const check = parseIPv6(network);
  return Boolean(address && check && prefixMatch(address, check, bits));
}

/** Longest address entry curl copies into its buffer; a longer one cannot match. */
const MAX_ADDRESS_ENTRY = 127;

/**
 * curl's Curl_check_noproxy: whether `name` (a host name, a dotted IPv4 address, or an IPv6
 * address in brackets) is in the no_proxy list `noProxy`, so that the proxy is not used.
 */
export function noProxyMatches(name: string, noProxy: string | undefined): boolean {
  if (!name || !noProxy) return false;
  if (noProxy === "*") return true;
  let type: "host" | "ipv4" | "ipv6" = "host";
  let host = name;
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    if (end < 0 || end - 1 > MAX_ADDRESS_ENTRY) return false;
    host = host.slice(1, end);
    type = "ipv6";
  } else if (parseIPv4(host)) type = "ipv4";
  else if (host.endsWith(".")) host = host.slice(0, -1);
  host = host.toLowerCase();

  // Entries end at a blank (space, tab) or a comma; any run of those separates them.
  for (const raw of noProxy.split(/[ \t,]+/)) {
    if (raw === "") continue;
    let entry = raw.toLowerCase();
    if (type === "host") {
      if (entry.endsWith(".")) entry = entry.slice(0, -1);
      if (entry.startsWith(".")) entry = entry.slice(1);
      if (entry.length === host.length ? entry === host : entry.length < host.length && host.endsWith(`.${entry}`)) {
        return true;
      }
      // "." alone, emptied by the two rules above, matches only a name ending in a dot.
      continue;
    }
    if (entry.length > MAX_ADDRESS_ENTRY) continue;
    const slash = entry.indexOf("/");
    const address = slash < 0 ? entry : entry.slice(0, slash);
    const bits = slash < 0 ? 0 : atoi(entry.slice(slash + 1));
    if (type === "ipv6" ? cidr6Match(host, address, bits) : cidr4Match(host, address, bits)) return true;
  }
  return false;
}

/** Whether NO_PROXY says that `target` is reached directly. */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  // URL.hostname is lower-case, punycode, and keeps an IPv6 address in brackets.
  return noProxyMatches(target.hostname, noProxy);
}

/** The proxy for requests to `baseUrl`, or undefined to connect directly. */
export function proxyFor(baseUrl: string, env: Env): ProxyChoice | undefined {
  const target = new URL(baseUrl);
  if (bypassesProxy(target, firstSet(env, ["no_proxy", "NO_PROXY"])?.value)) return undefined;
  const chosen = firstSet(env, proxyVariables(target.protocol));
  if (!chosen?.value.trim()) return undefined;
  const url = parseProxy(chosen.value, chosen.variable);
  return { url, variable: chosen.variable, display: displayProxy(url), withCredentials: url.username !== "" };
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
