import type { IncomingMessage } from "node:http";
import { SandboxHttpError } from "./http-error.js";

// Reading a request's body: the bytes (bounded), what the request log shows of them, and the
// JSON object a JSON route is handed.

/** Bodies beyond this are refused with 400; a 750-row CSV is far below it. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface RequestBody {
  bytes: Buffer;
  /** Over MAX_BODY_BYTES: the bytes were dropped (empty) and the request is answered 400. */
  tooLarge: boolean;
}

/** The whole body, or undefined when the client went away before sending it all. */
export async function readBody(req: IncomingMessage): Promise<RequestBody | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    }
  } catch {
    return undefined;
  }
  if (!req.complete) return undefined;
  return { bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge };
}

function isJsonType(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType ?? "");
}

/** What the request log records of a body: parsed JSON, else the text. */
export function describeBody(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString("utf8");
  if (/^multipart\//i.test(contentType ?? "")) return text; // replaced by the parts once parsed
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Spec §4: JSON bodies with Content-Type application/json; an empty body counts as {}. */
export function parseJsonObject(bytes: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (bytes.length === 0) return {};
  if (!isJsonType(contentType)) {
    throw new SandboxHttpError(400, "INVALID_REQUEST", `Content-Type must be application/json, not ${contentType ?? "missing"}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new SandboxHttpError(400, "INVALID_REQUEST", `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SandboxHttpError(400, "INVALID_REQUEST", "request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
