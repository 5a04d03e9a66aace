// @ts-nocheck
import { afterAll, beforeAll, expect, it } from "vitest";
import { post } from "../../src/api/transport.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/server.js";

// The foreground sandbox bounds its request log; tests keep the whole log by default.

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ maxRecordedRequests: 2 });
});
afterAll(() => sb.close());

it("keeps only the newest maxRecordedRequests requests", async () => {
  for (const day of ["01", "02", "03"]) {
    const res = await post(`${sb.baseUrl}/v2/report/users`, {
      headers: { "content-type": "application/json", authorization: `Bearer ${sb.keys.full}` },
      body: JSON.stringify({ startDate: `2026-01-${day}`, endDate: `2026-01-${day}` }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.text();
  }
  expect(sb.requests.map((r) => (r.body as { startDate: string }).startDate)).toEqual(["2026-01-02", "2026-01-03"]);
});
