// @ts-nocheck
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateReport } from "../../src/sandbox/reports.js";
import { ROOMY, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// Seeded dialects mix the topics' variants in combinations no named dialect has (seed 1: list
// deep-links, `{results}` pages of 5 with top-level metadata, `taskStatus`; seed 2: bare pages
// of 10 without metadata, no expiresIn, bare attempts; seed 3: `{attempts}`, `state`, brief
// uploads). A few cheap commands each: what the user sees must not depend on the mix.

describe.each([1, 2, 3])("seeded dialect %i", (seed) => {
  let t: TestEnv;
  beforeAll(async () => {
    t = await startTestEnv({ ...ROOMY, dialect: seed });
  });
  afterAll(async () => {
    await t.close();
  });

  it("library --all returns all 32 simulations once", async () => {
    const r = await t.capture(["library", "--user", "user-demo", "--all", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as { id: string }[]).map((s) => s.id);
    expect(ids).toHaveLength(32);
    expect(new Set(ids).size).toBe(32);
  });

  it("link composes the asked simulation's deep link with a valid token", async () => {
    const r = await t.capture(["link", "--user", "user-demo", "--sim", "sim-004", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const { link, deepLink } = JSON.parse(r.stdout) as { link: string; deepLink: string };
    expect(deepLink).toBe(`${t.sandbox.appUrl}/org-demo/simulation/sim-004`);
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(t.sandbox.state.verifyUserToken(token)).toMatchObject({ valid: true });
  });

  it("completion lists every attempt of sim-001", async () => {
    const r = await t.capture(["completion", "--user", "user-demo", "--sim", "sim-001", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { state: string }[]).map((a) => a.state).sort()).toEqual(
      ["completed", "completed", "incomplete", "incomplete"].sort(),
    );
  });

  it("import-status reads the task's state whatever the field is called", async () => {
    const taskId = t.sandbox.state.createImportTask("org-demo", "t.csv", []).taskId;
    const r = await t.capture(["import-status", "--task", taskId, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ taskId, status: "SCHEDULED" }]);
  });

  it("reports users -o json gives the dialect's records", async () => {
    const r = await t.capture(["reports", "users", "--from", "2025-02-01", "--to", "2025-02-01", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(generateReport("users", "2025-02-01", "2025-02-01", 2, 3, t.sandbox.dialect));
  });
});
