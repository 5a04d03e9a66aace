import { isPlainObject, type JsonRecord } from "../domain/records.js";
import { escapeForLine } from "../text/sanitize.js";

// The service's own words in an error answer (docs/cli-contract.md "The
// service's words"). docs/service-spec.md §7 shows no error body, so it is read by shape:
// a sentence (`message`, `error.message`, `detail`, `errors[0]`…) is preferred over a bare
// HTTP reason such as `"error": "Not Found"`, which the status already says (a body with
// nothing more says nothing); a `field` the
// sentence does not mention yet is added. HTML pages (a gateway's) give their title. The
// result is one escaped line of at most MAX_WORDS characters, or undefined when the body
// says nothing (empty, `{}`). Pure: no I/O.

const MAX_WORDS = 200;

/** Reason phrases that repeat the status instead of explaining it. */
const HTTP_REASON =
  /^(bad request|unauthori[sz]ed|forbidden|not found|method not allowed|conflict|too many requests|internal server error|bad gateway|service unavailable|gateway timeout|error)$/i;

/** "Not Found", "404 Not Found": what the status code already says. */
function isReason(words: string): boolean {
  return HTTP_REASON.test(words.replace(/^\d{3}\s+/, ""));
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function firstOf(list: unknown): unknown {
  return Array.isArray(list) ? (list[0] as unknown) : undefined;
}

function fromHtml(body: string): string | undefined {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(body) ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(body);
  return text(match?.[1]?.replace(/\s+/g, " "));
}

function sentenceOf(body: JsonRecord): string | undefined {
  const error = body.error;
  const nested = isPlainObject(error) ? error : {};
  const first = firstOf(body.errors);
  const candidates = [
    nested.message,
    body.message,
    nested.detail,
    body.detail,
    body.error_description,
    typeof first === "string" ? first : isPlainObject(first) ? first.message : undefined,
    body.title,
    error,
  ];
  return candidates.map(text).find((c): c is string => c !== undefined && !isReason(c));
}

function fieldOf(body: JsonRecord): string | undefined {
  const error = isPlainObject(body.error) ? body.error : {};
  const first = firstOf(body.errors);
  return text(body.field) ?? text(error.field) ?? (isPlainObject(first) ? text(first.field) : undefined);
}

/** One escaped, capped line of what the service said in an error body, or undefined. */
export function serviceWords(body: unknown): string | undefined {
  let words: string | undefined;
  if (typeof body === "string") {
    words = /^\s*</.test(body) ? fromHtml(body) : text(body);
    if (words !== undefined && isReason(words)) words = undefined;
  } else if (isPlainObject(body)) {
    words = sentenceOf(body);
    const field = fieldOf(body);
    if (field && !words?.includes(field)) words = words ? `${words} (field: ${field})` : `field: ${field}`;
  }
  if (words === undefined) return undefined;
  const line = escapeForLine(words);
  return line.length > MAX_WORDS ? `${line.slice(0, MAX_WORDS - 1)}…` : line;
}
