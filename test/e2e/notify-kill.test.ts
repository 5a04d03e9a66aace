import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BIN, binaryEnv, FAST, ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp.js";

// progress notify SIGKILLed after its first message (docs/reminders.md "Exactly once"): the
// built binary against the sandbox and a real SMTP server that accepts one message and then
// holds the next DATA unanswered while the test kills the sender. A re-run never sends the
// message that was taken, names the ones cut off (ambiguous) and sends them only with
// --resend-ambiguous: in the end each trainee has exactly one reminder.

let smtp: TestSmtp;
let t: TestEnv;
let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await startTestEnv({ ...ROOMY, scriptedAttemptStepMs: 30_000 });
  dir = await tempDir();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await dir.remove();
});

it("a run killed after the first message: the re-run sends the others once, the cut-off one only with --resend-ambiguous", async () => {
  const today = new Date().toISOString().slice(0, 10);
  const file = join(dir.path, "cohort.csv");
  // Pairs the sandbox never completes (src/sandbox/progress-script.ts), due today: step 0.
  await writeFile(
    file,
    [
      "userId,simulationId,dueDate,email",
      `user-emma,sim-004,${today},emma@example.test`,
      `user-grace,sim-004,${today},grace@example.test`,
      `user-hugo,sim-003,${today},hugo@example.test`,
    ].join("\n"),
  );
  const args = ["progress", "notify", "--from-csv", file, "--smtp", smtp.url, "--from", "training@example.test", "-o", "json"];
  // One connection: the messages go one after the other.
  const first = [...args, "--connections", "1"];
  const env = { ...t.env, ...FAST, NODE_EXTRA_CA_CERTS: smtp.caFile };
  const child = execa(process.execPath, [BIN, ...first], {
    env: binaryEnv(env),
    extendEnv: false,
    reject: false,
    stdin: "ignore",
  });
  // The second message's DATA is held unanswered; the kill comes once the ledger shows the
  // first one sent (its mark is written in the background while the second goes out).
  smtp.hold = {
    after: 1,
    onHeld: () => {
      void (async () => {
        // The ledger in the default state store (docs/state.md): <settings>/state/<tenant>/reminders.json
        // and, until the run ends, the batches appended to reminders.journal.
        const root = join(t.configDir, "state");
        const sentOne = async (): Promise<boolean> => {
          for (const tenant of await readdir(root).catch(() => [] as string[])) {
            for (const name of ["reminders.json", "reminders.journal"]) {
              const text = await readFile(join(root, tenant, name), "utf8").catch(() => "");
              if (text.includes('"status":"sent"')) return true;
            }
          }
          return false;
        };
        while (!(await sentOne())) await new Promise((resolve) => setTimeout(resolve, 20));
        child.kill("SIGKILL");
      })();
    },
  };
  const killed = await child;
  smtp.hold = undefined;
  expect(killed.signal, `${killed.exitCode} ${String(killed.stderr)} ${String(killed.stdout)}`).toBe("SIGKILL");
  expect(smtp.received).toHaveLength(1);

  const rerun = await t.capture(args, { env: { NODE_EXTRA_CA_CERTS: smtp.caFile } });
  const records = JSON.parse(rerun.stdout) as { recipient: string; status: string }[];
  const ambiguous = records.filter((r) => r.status === "ambiguous").map((r) => r.recipient);
  expect(ambiguous.length, rerun.stderr).toBeGreaterThan(0);
  expect(rerun.stderr).toMatch(/left unsure by an earlier run/);
  expect(ambiguous).not.toContain(smtp.received[0]!.envelopeTo[0]!);
  const counts = (): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const m of smtp.received) out[m.envelopeTo[0]!] = (out[m.envelopeTo[0]!] ?? 0) + 1;
    return out;
  };
  for (const [to, n] of Object.entries(counts())) expect(n, to).toBe(1);
  for (const to of ambiguous) expect(counts()[to]).toBeUndefined();

  const resend = await t.capture([...args, "--resend-ambiguous"], { env: { NODE_EXTRA_CA_CERTS: smtp.caFile } });
  expect(resend.exitCode, resend.stderr).toBe(0);
  expect(counts()).toEqual({ "emma@example.test": 1, "grace@example.test": 1, "hugo@example.test": 1 });
  const again = await t.capture([...args, "--resend-ambiguous"], { env: { NODE_EXTRA_CA_CERTS: smtp.caFile } });
  expect(again.exitCode, again.stderr).toBe(0);
  expect(smtp.received).toHaveLength(3);
});
