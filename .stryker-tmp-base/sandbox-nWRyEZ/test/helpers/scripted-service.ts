// @ts-nocheck
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

// A stand-in for the service that answers what a test scripts, for answers the sandbox
// does not make: endless or huge bodies (issue 13 item 4). Loopback only, closed by the test.

export interface ScriptedService {
  baseUrl: string;
  /** Paths requested, in order. */
  paths: string[];
  close(): Promise<void>;
}

export async function startScriptedService(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<ScriptedService> {
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    paths.push(req.url ?? "");
    res.on("error", () => undefined);
    req.resume();
    req.on("end", () => answer(req, res));
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Writes `chunk` until the client goes away, or until `total` bytes when given. */
export function pour(res: ServerResponse, chunk: Buffer, total = Infinity): void {
  let sent = 0;
  const more = (): void => {
    while (sent < total && !res.destroyed) {
      const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
      sent += piece.length;
      if (sent >= total) {
        res.end(piece);
        return;
      }
      if (!res.write(piece)) {
        res.once("drain", more);
        return;
      }
    }
  };
  res.on("close", () => res.off("drain", more));
  more();
}
