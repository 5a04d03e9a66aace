import { copyFile, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAST, ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";
import { makeCertificates, type TestCertificates } from "../helpers/tls.js";

// Certificates (issue 13 items 2 and 3; docs/cli-contract.md "Retries"): a TLS sandbox with
// certificates made by the test. A certificate the machine does not trust is not retried,
// is named for what it is, and says how to trust a private CA; NODE_EXTRA_CA_CERTS (read
// by Node at start-up, so only in a child process) then makes the same call succeed.

const TOKEN = ["token", "--user", "user-demo", "-o", "json", "--verbose"];

let certs: TestCertificates;
beforeAll(() => {
  certs = makeCertificates();
});
afterAll(() => certs.remove());

let t: TestEnv | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const attempts = (stderr: string): number => stderr.split("\n").filter((line) => line.startsWith("→ POST")).length;

describe("an https:// service with a certificate this machine does not trust", () => {
  it.each([
    ["self-signed", () => certs.selfSigned, /DEPTH_ZERO_SELF_SIGNED_CERT: a self-signed certificate/],
    ["signed by a private CA", () => certs.signed, /UNABLE_TO_VERIFY_LEAF_SIGNATURE: signed by an unknown CA/],
  ])("%s: exit 8 at the first attempt, naming the problem and NODE_EXTRA_CA_CERTS", async (_name, pair, problem) => {
    t = await startTestEnv({ ...ROOMY, tls: pair() });
    const r = await t.run(TOKEN, { env: FAST });
    expect(r.exitCode).toBe(8);
    const last = r.stderr.split("\n").find((line) => line.startsWith("error:")) ?? "";
    expect(last).toMatch(/^error: user token: the TLS certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted/);
    expect(last).toMatch(problem);
    expect(last).toMatch(/not retried; .*point NODE_EXTRA_CA_CERTS at its PEM certificate file/);
    expect(attempts(r.stderr)).toBe(1);
    expect(t.sandbox.requests).toHaveLength(0);
  });

  it("succeeds once NODE_EXTRA_CA_CERTS names the private CA", async () => {
    t = await startTestEnv({ ...ROOMY, tls: certs.signed });
    const r = await t.run(TOKEN, { env: { ...FAST, NODE_EXTRA_CA_CERTS: certs.caFile } });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty("token");
    expect(t.sandbox.requests).toHaveLength(1);
  });

  it("users import: a TLS failure is 'not received' (no byte reached the service), never 'may have been accepted'", async () => {
    t = await startTestEnv({ ...ROOMY, tls: certs.selfSigned });
    const dir = await tempDir();
    try {
      const csv = join(dir.path, "users.csv");
      await copyFile(resolve(import.meta.dirname, "../../fixtures/users-import-sample.csv"), csv);
      const r = await t.run(["users", "import", csv, "--yes"], { env: FAST });
      expect(r.exitCode).toBe(8);
      expect(r.stderr).toMatch(/was not received and nothing more was sent/);
      expect(r.stderr).not.toMatch(/may have been accepted/);
      const manifest = JSON.parse(await readFile(join(dir.path, "users.import.json"), "utf8")) as {
        batches: { state: string }[];
      };
      expect(manifest.batches.map((b) => b.state)).not.toContain("ambiguous");
    } finally {
      await dir.remove();
    }
  });
});
