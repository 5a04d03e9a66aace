// @ts-nocheck
import { request as httpRequest, createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

// A real forward proxy on 127.0.0.1 for the tests of issue 13 item 1, in the two forms
// clients use: absolute-form (`POST http://host/path HTTP/1.1`, for http:// services) and
// CONNECT tunnels (for https://, and for http:// when a client tunnels everything). It
// records what it was asked, so that tests can tell that a request really went through it.

export interface ProxyVisit {
  /** "absolute" for absolute-form requests, "connect" for tunnels. */
  form: "absolute" | "connect";
  /** The absolute URL, or host:port for CONNECT. */
  target: string;
  proxyAuthorization: string | undefined;
}

export interface TestProxy {
  url: string;
  port: number;
  visits: ProxyVisit[];
  close(): Promise<void>;
}

/** Starts the proxy; with `credentials` ("user:password") it answers 407 to anyone without them. */
export async function startProxy(options: { credentials?: string } = {}): Promise<TestProxy> {
  const visits: ProxyVisit[] = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials ? `Basic ${Buffer.from(options.credentials).toString("base64")}` : undefined;
  const authorized = (req: IncomingMessage): boolean => !expected || req.headers["proxy-authorization"] === expected;

  const server: Server = createServer((req, res) => {
    visits.push({ form: "absolute", target: req.url ?? "", proxyAuthorization: req.headers["proxy-authorization"] });
    if (!authorized(req)) {
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="test"', "content-type": "text/plain" }).end("proxy auth");
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("absolute-form expected");
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end("upstream failed")));
    req.pipe(upstream);
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    visits.push({ form: "connect", target: req.url ?? "", proxyAuthorization: req.headers["proxy-authorization"] });
    if (!authorized(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const drop = (): void => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on("error", () => (client.writable ? client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n") : drop()));
    client.on("error", drop);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    visits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
