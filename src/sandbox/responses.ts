import type { ServerResponse } from "node:http";
import type { ErrorStyle } from "./dialects.js";
import type { ImmediateFault } from "./faults.js";
import { styledError } from "./http-error.js";
import type { HandlerResult } from "./types.js";

// Writing answers: a whole body, a streamed one (with back-pressure), or an injected fault.

export function writeBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const contentType = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
  res.writeHead(status, { "content-type": contentType, ...lower, "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

export async function sendResult(res: ServerResponse, result: HandlerResult): Promise<void> {
  if (!("chunks" in result)) {
    writeBody(res, result.status, result.body, result.headers);
    return;
  }
  res.writeHead(result.status, { "content-type": "application/json; charset=utf-8", ...result.headers });
  for (const chunk of result.chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) {
      // Back-pressure: wait for the client to read, or stop if it went away.
      await drainOrClose(res);
    }
  }
  if (!res.destroyed) res.end();
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Answers with an injected fault (a failure in the dialect's error style unless it brings its body); returns the status. */
export function sendFault(res: ServerResponse, fault: Exclude<ImmediateFault, { kind: "drop" }>, errors: ErrorStyle): number {
  if (fault.kind === "respond") {
    writeBody(res, fault.status, fault.body, fault.headers);
    return fault.status;
  }
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
  const message = fault.status === 429 ? "rate limit exceeded (injected fault)" : `injected fault: HTTP ${fault.status}`;
  if (fault.body !== undefined) writeBody(res, fault.status, fault.body, headers);
  else {
    const styled = styledError(errors, fault.status, message, undefined, undefined, headers);
    writeBody(res, fault.status, styled.body, styled.headers);
  }
  return fault.status;
}
