import { UnexpectedResponseError } from "../errors.js";
import { parseExactJson } from "../domain/exact-json.js";
import { escapeForLine } from "../text/sanitize.js";
import type { TransportResponse } from "./transport-common.js";

// Answer reading (client.ts sends): what comes back is untrusted, so answers are
// read up to a cap and no further (an endless body must not grow the process), and an empty,
// `null`, non-JSON or absurdly nested answer is exit 8 naming what came back.

/** What parseAnswer needs to know of the endpoint. */
export interface AnswerEndpoint {
  label: string;
  /** A JSON `null` answer is an answer (`simadmin api` prints it); elsewhere it is exit 8. */
  acceptsNull?: boolean;
}

/** Buffered answers (every call but report windows): far above any real one. */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** One report window, streamed to disk: generous, but a runaway answer must end. */
export const DEFAULT_MAX_REPORT_BYTES = 1024 * 1024 * 1024;
/** What is read of an error answer: enough for the service's message. */
export const ERROR_BODY_BYTES = 64 * 1024;
/** Real answers nest a few levels; deeper would overflow the stack of whoever walks them. */
export const MAX_JSON_DEPTH = 256;

/** Byte counts for messages: "4 MiB", "1 GiB", "512 bytes". */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

export function answerTooLarge(label: string, limit: number, declared?: number): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `${label}: answer too large (${declared !== undefined ? `${formatBytes(declared)} announced` : "more than"}${declared !== undefined ? `, over ` : " "}${formatBytes(limit)}); it was not read further and not retried`,
    {
      hint: "the service (or a proxy in between) sent far more than such an answer holds; try again later or tell the service operator",
    },
  );
}

/** Reads a body up to `limit` bytes; past it, drops the connection and throws `tooLarge()`, or stops quietly. */
export async function readCapped(
  response: TransportResponse,
  limit: number,
  onOver: "throw" | "truncate",
  tooLarge: () => Error,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > limit) {
      response.discard();
      if (onOver === "throw") throw tooLarge();
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength - (total - limit)));
      break;
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The deepest nesting of brackets in JSON text, counted without parsing (stops past `max`). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A short, terminal-safe excerpt of what came back: `"<html><head>…"`. */
function excerpt(text: string, length = 80): string {
  const line = escapeForLine(text.trim());
  return `"${line.length > length ? `${line.slice(0, length - 1)}…` : line}"`;
}

/**
 * The body of a successful streamed answer (a report window), checked on the way: more than
 * `limit` bytes ends the read with "answer too large", and an answer that turns out empty
 * or `null` fails at its end — so the consumer never commits an empty export.
 */
export async function* checkedStream(
  response: TransportResponse,
  limit: number,
  label: string,
  status: number,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  // The first non-whitespace bytes, enough to tell "null" from the start of a document.
  let head = "";
  let significant = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > limit) {
      response.discard();
      throw answerTooLarge(label, limit);
    }
    if (significant < 5) {
      for (const byte of chunk) {
        if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
        if (++significant > 4) break;
        head += String.fromCharCode(byte);
      }
    }
    yield chunk;
  }
  const what = significant === 0 ? "an empty body" : significant === 4 && head === "null" ? "`null`" : undefined;
  if (what) {
    throw new UnexpectedResponseError(`${label}: the service answered ${status} with ${what} where JSON was expected`, {
      status,
      hint: "nothing was written; try again later, and if it persists tell the service operator",
    });
  }
}

/** Wraps what a streaming consumer threw, so that only transport failures become ServiceError. */
export class ConsumerFailure extends Error {
  constructor(readonly error: unknown) {
    super("streaming consumer failed");
  }
}

/** Runs `consume` over the answer's body; a failure to read the body stays a transport failure. */
export async function consumeBody(
  body: AsyncIterable<Uint8Array>,
  consume: (body: AsyncIterable<Uint8Array>) => Promise<unknown>,
): Promise<unknown> {
  let readFailed = false;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of body) yield chunk;
    } catch (error) {
      readFailed = true;
      throw error;
    }
  }
  try {
    return await consume(chunks());
  } catch (error) {
    if (readFailed) throw error;
    throw new ConsumerFailure(error);
  }
}

/** An error answer's body for its message: parsed JSON when it is JSON, else the text; null when empty. */
export function parseErrorBody(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return jsonDepthExceeds(text, MAX_JSON_DEPTH) ? text : JSON.parse(text);
  } catch {
    return text;
  }
}

/** A 2xx answer's JSON; anything else is exit 8 naming what came back, never an empty result. */
export function parseAnswer(endpoint: AnswerEndpoint, response: TransportResponse, text: string): unknown {
  const status = response.status;
  const unexpected = (what: string): UnexpectedResponseError =>
    new UnexpectedResponseError(`${endpoint.label}: the service answered ${status} with ${what} where JSON was expected`, {
      status,
      hint: "nothing was written; try again later, and if it persists tell the service operator (a proxy or gateway in between may be answering instead)",
    });
  if (text.trim() === "") {
    // 204 says "no content" on purpose: the callers that accept no answer get null.
    if (status === 204) return null;
    throw unexpected("an empty body");
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw unexpected(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    // Numbers JSON.parse would change keep their text (exact-json.ts): a listing's values
    // reach -o json as the service wrote them.
    parsed = parseExactJson(text);
  } catch {
    const type = response.header("content-type")?.split(";")[0]?.trim();
    throw unexpected(`${type ? `${escapeForLine(type)} ` : ""}${excerpt(text)}`);
  }
  if (parsed === null && !endpoint.acceptsNull) throw unexpected("`null`");
  return parsed;
}
