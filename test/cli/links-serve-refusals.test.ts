import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// What links serve refuses before it listens (docs/cli-contract.md "Durable links"): a bad
// --listen, an address in use, no API key or organization — each its exit code and message,
// and never "listening on". In-process: nothing here needs a process of its own (signals, a
// restart and several instances are test/e2e/links-serve.test.ts's); seven binary start-ups
// cost ~0.55 s of CPU (docs/development.md, "How long the suite takes").

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv({ rateLimits: { access: { limit: 1000, windowMs: 1000 } } });
});
afterAll(async () => {
  await t.close();
});

describe("links serve refuses before it listens", () => {
  it.each([["nope"], ["127.0.0.1:99999"], ["[zz]:80"], ["127.0.0.1"]])("--listen %s: exit 2", async (listen) => {
    const r = await t.run(["links", "serve", "--listen", listen]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: --listen/m);
    expect(r.stderr).not.toMatch(/listening on/);
  });

  it("names an address in use, exit 11", async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const { port } = busy.address() as { port: number };
    try {
      const r = await t.run(["links", "serve", "--listen", `127.0.0.1:${port}`]);
      expect(r.exitCode).toBe(11);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port}: address already in use`);
    } finally {
      busy.close();
    }
  });

  it("needs an API key (exit 3) and an organization (exit 2)", async () => {
    const noKey = await t.run(["links", "serve", "--listen", ":0"], { env: { SIMADMIN_API_KEY: "" } });
    expect(noKey.exitCode).toBe(3);
    const noOrg = await t.run(["links", "serve", "--listen", ":0"], { env: { SIMADMIN_ORG: "" } });
    expect(noOrg.exitCode).toBe(2);
    expect(`${noKey.stderr}${noOrg.stderr}`).not.toMatch(/listening on/);
  });
});
