// A report server for the load bench (reports-sync-load.mjs), in its own process: the
// sandbox, behind a proxy that keeps each report answer the first time it is asked for and
// serves the kept bytes afterwards. The bench warms it with one untimed sync, so the timed
// syncs fetch pre-generated answers: their time is the tool's (HTTP, spool, load), not the
// sandbox generating 1 M records as JSON on the same two cores.
//
// Run: node bench/parts/report-replay.mjs '<startSandbox options as JSON>'. Prints one JSON
// line ({ baseUrl, key, org }) once listening; stops when its stdin closes.

import { createServer, request } from "node:http";
import { distModule } from "../lib.mjs";

const options = JSON.parse(process.argv[2] ?? "{}");
const { startSandbox } = await distModule("sandbox", "server.js");
const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, ...options });
const upstream = new URL(sandbox.baseUrl);
/** method, path and request body → the answer as the sandbox gave it */
const kept = new Map();

const readAll = async (stream) => {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

const server = createServer(async (req, res) => {
  const body = await readAll(req);
  const key = `${req.method} ${req.url} ${body.toString("utf8")}`;
  let answer = kept.get(key);
  if (!answer) {
    answer = await new Promise((resolve, reject) => {
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        async (up) => resolve({ status: up.statusCode, headers: up.headers, body: await readAll(up) }),
      );
      forward.on("error", reject);
      forward.end(body);
    });
    if (answer.status === 200 && req.url.includes("/report/")) kept.set(key, answer);
  }
  const headers = { ...answer.headers };
  delete headers["transfer-encoding"];
  delete headers.connection;
  delete headers["keep-alive"];
  headers["content-length"] = String(answer.body.length);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address();
process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${port}`, key: sandbox.keys.full, org: sandbox.org })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  server.close();
  await sandbox.close();
  process.exit(0);
});
