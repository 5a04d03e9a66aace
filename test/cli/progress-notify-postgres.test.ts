import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

// Two `progress notify` runs at once on one PostgreSQL state store (docs/reminders.md "Exactly
// once"), as two machines sharing a store would: the ledger's claims are atomic across them,
// so each reminder step and each digest reaches the SMTP server once.

describe.runIf(postgresAvailable() || process.env.CI)("progress notify on a shared PostgreSQL state store", () => {
  let pg: TestPostgres;
  let smtp: TestSmtp;
  let env: TestEnv;
  let dir: { path: string; remove(): Promise<void> };
  beforeAll(async () => {
    [pg, smtp, env, dir] = await Promise.all([
      startPostgres(),
      startTestSmtp(),
      startTestEnv({ ...ROOMY, scriptedAttemptStepMs: 30_000 }),
      tempDir(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([pg?.stop(), smtp?.close(), env?.close(), dir?.remove()]);
  });

  it("two runs at once send each step and each digest once between them", async () => {
    const clock = createFakeClock(Date.parse("2026-11-27T06:00:00Z"));
    const file = join(dir.path, "cohort.csv");
    const rows = [
      ["user-emma", "sim-004", "dana@example.test"],
      ["user-emma", "sim-005", "dana@example.test"],
      ["user-emma", "sim-006", "dana@example.test"],
      ["user-grace", "sim-004", "dana@example.test"],
      ["user-grace", "sim-005", "sam@example.test"],
      ["user-grace", "sim-006", "sam@example.test"],
      ["user-hugo", "sim-003", "sam@example.test"],
      ["user-hugo", "sim-005", "sam@example.test"],
    ];
    // Each pair its own address, so that there are eight reminders to race for.
    await writeFile(
      file,
      [
        "userId,simulationId,dueDate,email,managerEmail",
        ...rows.map(([u, s, m]) => `${u},${s},2026-11-27,${u}.${s}@example.test,${m}`),
      ].join("\n"),
    );
    const args = [
      "progress",
      "notify",
      "--from-csv",
      file,
      "--smtp",
      smtp.url,
      "--from",
      "training@example.test",
      "--digest",
      "managerEmail",
    ];
    const run = () =>
      env.capture([...args, "--state", pg.url, "-o", "json"], { clock, env: { NODE_EXTRA_CA_CERTS: smtp.caFile } });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(b.exitCode, b.stderr).toBe(0);
    const sent = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { status: string }[]).filter((x) => x.status === "sent").length;
    expect(sent(a) + sent(b)).toBe(10);
    const to = smtp.received.map((m) => m.envelopeTo[0]).sort();
    expect(to).toEqual([...rows.map(([u, s]) => `${u}.${s}@example.test`), "dana@example.test", "sam@example.test"].sort());
    const again = await run();
    expect(again.exitCode, again.stderr).toBe(0);
    expect(smtp.received).toHaveLength(10);
  });
});
