import { UnexpectedResponseError } from "../errors.js";

// The complete link a user opens: the deep link with `token=<USER_TOKEN>` as a query
// parameter (docs/service-spec.md §2, §5.5; docs/cli-contract.md `link`).
//
// Why not simply `url.searchParams.set("token", token)`: that re-serialises the WHOLE query
// as application/x-www-form-urlencoded, so a deep link's own `?next=/a%20b` would come back
// as `?next=%2Fa+b` — equal to a form decoder, not byte-equal, and not every web application
// decodes `+` as a space. So the existing query is kept byte for byte, a `token` parameter
// already in it is replaced (a stale token must not win), and only the token is encoded,
// with encodeURIComponent (`+` → %2B, `/` → %2F, `=` → %3D), which every decoder reads back
// to the same string. The fragment, if any, stays last where it belongs.

const TOKEN_PARAMETER = "token";

/**
 * A query part's name, percent-decoded (`%74oken=` names the token too). A `+` is left as it
 * is rather than read as a space (form encoding): a name holding either is not `token`.
 */
function decodeKey(part: string): string {
  const rawKey = part.split("=", 1)[0]!;
  try {
    return decodeURIComponent(rawKey);
    // Stryker disable next-line BlockStatement: a malformed escape cannot spell "token"; kept either way
  } catch {
    return rawKey; // a malformed escape in the service's own query: keep it, compare raw
  }
}

/** `<deepLink>?token=<token>`, or `&token=` when the deep link already has a query. */
export function composeUserLink(deepLink: string, token: string): string {
  let url: URL;
  try {
    url = new URL(deepLink);
  } catch {
    throw new UnexpectedResponseError(`the service's deep link is not a URL: ${JSON.stringify(deepLink.slice(0, 200))}`);
  }
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((part) => part !== "" && decodeKey(part) !== TOKEN_PARAMETER);
  kept.push(`${TOKEN_PARAMETER}=${encodeURIComponent(token)}`);
  url.search = `?${kept.join("&")}`;
  return url.href;
}
