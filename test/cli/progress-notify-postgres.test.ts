import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

// progress notify with its ledger in PostgreSQL (docs/reminders.md "Exactly once", docs/state.md):
// two machines — two settings directories, one SIMADMIN_STATE — sending at once, and the store
// stopped while a message is being taken. Every message is counted where it lands: a real SMTP
// server on loopback (smtp-server, STARTTLS, AUTH).

const FROM = "training@example.test";
const PASSWORD = "pg-Secret-8812";

let pg: TestPostgres;
let smtp: TestSmtp;
const dirs: { remove(): Promise<void> }[] = [];
beforeAll(async () => {
  // Its own server: a test stops it mid-run.
  pg = await startPostgres({ own: true });
  smtp = await startTestSmtp();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  await smtp?.close();
  await Promise.all(dirs.map((d) => d.remove()));
});

/** Two machines sharing a fresh database as their state store (the URL carries a password). */
async function twoMachines() {
  const clock = createFakeClock(Date.parse("2026-11-27T06:00:00Z"));
  const e: TestEnv = await startTestEnv({ ...ROOMY, now: () => clock.now(), scriptedAttemptStepMs: 30_000 });
  const dir = await tempDir();
  dirs.push(dir);
  const url = new URL(await pg.createDatabase("notify"));
  url.password = PASSWORD; // trust authentication: carried, never checked
  // Pairs the sandbox never completes (src/sandbox/progress-script.ts), due today: step 0 for
  // emma (two pairs), grace and hugo, and a digest each for dana and sam — five messages.
  const file = join(dir.path, "cohort.csv");
  await writeFile(
    file,
    [
      "userId,simulationId,dueDate,email,managerEmail",
      "user-emma,sim-004,2026-11-27,emma@example.test,dana@example.test",
      "user-emma,sim-005,2026-11-27,emma@example.test,dana@example.test",
      "user-grace,sim-004,2026-11-27,grace@example.test,dana@example.test",
      "user-hugo,sim-003,2026-11-27,hugo@example.test,sam@example.test",
    ].join("\n"),
  );
  const args = ["progress", "notify", "--from-csv", file, "--smtp", smtp.url, "--from", FROM, "--digest", "managerEmail"];
  const machine =
    (config: string) =>
    (...extra: string[]) =>
      e.capture([...args, "-o", "json", ...extra], {
        clock,
        env: {
          SIMADMIN_STATE: url.toString(),
          SIMADMIN_CONFIG_DIR: join(dir.path, config),
          NODE_EXTRA_CA_CERTS: smtp.caFile,
        },
      });
  return { e, a: machine("machine-a"), b: machine("machine-b"), close: () => e.close() };
}

const ALL = ["dana@example.test", "emma@example.test", "grace@example.test", "hugo@example.test", "sam@example.test"];

function deliveries(since: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of smtp.received.slice(since)) for (const to of m.envelopeTo) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}

describe.runIf(postgresAvailable() || process.env.CI)("progress notify with its ledger in PostgreSQL", () => {
  it("two machines sending at once: each message reaches the server exactly once", async () => {
    const m = await twoMachines();
    try {
      const before = smtp.received.length;
      const [ra, rb] = await Promise.all([m.a(), m.b()]);
      expect([ra.exitCode, rb.exitCode], ra.stderr + rb.stderr).toEqual([0, 0]);
      expect(Object.fromEntries(deliveries(before))).toEqual(Object.fromEntries(ALL.map((to) => [to, 1])));
      const sent = [ra, rb]
        .flatMap((r) => JSON.parse(r.stdout) as { recipient: string; status: string }[])
        .filter((r) => r.status === "sent")
        .map((r) => r.recipient)
        .sort();
      expect(sent).toEqual(ALL);
      // Both machines see the ledger: a third run sends nothing.
      const again = await m.a();
      expect(again.exitCode, again.stderr).toBe(0);
      expect(smtp.received.length - before).toBe(5);
    } finally {
      await m.close();
    }
  });

  it("PostgreSQL stopped while a message is taken: exit 11 naming the store (password redacted); the next run sends only what was not sent", async () => {
    const m = await twoMachines();
    const before = smtp.received.length;
    try {
      // The second message is taken by the server; the store is gone before the client hears 250.
      let taken = 0;
      smtp.beforeAccept = () => {
        if (++taken === 2) pg.pause();
      };
      const first = await m.a("--connections", "1");
      smtp.beforeAccept = undefined;
      pg.resume();
      expect(first.exitCode, first.stderr).toBe(11);
      expect(first.stderr).toMatch(
        /the state store postgres:\/\/simadmin:\*\*\*@127\.0\.0\.1:\d+\/notify_\d+_\d+ cannot be used/,
      );
      expect(`${first.stderr}${first.stdout}`).not.toContain(PASSWORD);
      // Messages already claimed when the store went may still go out.
      const firstTo = smtp.received.slice(before).flatMap((r) => r.envelopeTo);
      expect(firstTo.length).toBeGreaterThanOrEqual(2);

      // The other machine: the message whose 250 was never recorded is named, not sent again;
      // what the first run never handed over is sent now. Nobody gets a message twice.
      const next = await m.b();
      expect(next.exitCode, next.stderr).toBe(0);
      const records = JSON.parse(next.stdout) as { recipient: string; status: string }[];
      const ambiguous = records.filter((r) => r.status === "ambiguous").map((r) => r.recipient);
      for (const to of firstTo.slice(1)) expect(ambiguous).toContain(to);
      expect(next.stderr).toMatch(/left unsure by an earlier run/);
      const counts = deliveries(before);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      for (const to of ALL) expect(counts.has(to) || ambiguous.includes(to), to).toBe(true);
      expect(records.filter((r) => r.status === "sent").map((r) => r.recipient)).not.toContain(firstTo[0]);
    } finally {
      smtp.beforeAccept = undefined;
      await m.close();
    }
  });
});
